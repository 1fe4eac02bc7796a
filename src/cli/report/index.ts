/** `--report FILE` of eval, compare and sweep: markdown when FILE ends in .md, else one self-contained HTML file. */
import { writeFile } from 'node:fs/promises';
import { validateEvalOptions, type ComparedMetric, type EvalResult, type Significance, type SweepRow } from '../../core/eval/index';
import { reportHtml, reportMarkdown, sweepReportHtml, sweepReportMarkdown, type ReportInput, type SweepReportInput } from '../../core/eval/report/index';
import { CliError } from '../input';

/** The report's text for a file name (.md / .markdown: markdown; anything else: HTML). */
export function reportFor(file: string, input: ReportInput): string {
  return isMarkdown(file) ? reportMarkdown(input) : reportHtml(input);
}

const isMarkdown = (file: string) => /\.(md|markdown)$/i.test(file);

async function write(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`cannot write the report "${file}"${code ? ` (${code})` : ''}`);
  }
}

export async function writeEvalReport(file: string, result: EvalResult, files: string[]): Promise<void> {
  await write(file, reportFor(file, { runs: [{ label: 'Value', result }], files, generated: new Date().toISOString() }));
}

export async function writeCompareReport(file: string, run: { a: EvalResult; b: EvalResult; significance: Significance<ComparedMetric>; files: string[] }): Promise<void> {
  await write(
    file,
    reportFor(file, {
      runs: [
        { label: 'A', result: run.a },
        { label: 'B', result: run.b },
      ],
      significance: run.significance,
      files: run.files,
      generated: new Date().toISOString(),
    }),
  );
}

/** A sweep's report: every row (configuration) with its means and index cost, the options they share, k as the base sets it. */
export async function writeSweepReport(file: string, run: { rows: SweepRow[]; base: Record<string, unknown>; files: string[] }): Promise<void> {
  const input: SweepReportInput = {
    base: run.base,
    points: run.rows.map((r) => ({ values: r.values, means: r.means ? { ...r.means } : null, chunks: r.index?.indexed ?? null, embeddingTokens: r.index?.embeddingTokens ?? null, ...(r.error ? { error: r.error } : {}) })),
    k: validateEvalOptions(run.base).chunksInContext,
    questions: Math.max(0, ...run.rows.map((r) => r.measured)),
    files: run.files,
    generated: new Date().toISOString(),
  };
  await write(file, isMarkdown(file) ? sweepReportMarkdown(input) : sweepReportHtml(input));
}
