/** `--report FILE` of eval and compare: markdown when FILE ends in .md, else one self-contained HTML file. */
import { writeFile } from 'node:fs/promises';
import type { ComparedMetric, EvalResult, Significance } from '../../core/eval/index';
import { reportHtml, reportMarkdown, type ReportInput } from '../../core/eval/report/index';
import { CliError } from '../input';

/** The report's text for a file name (.md / .markdown: markdown; anything else: HTML). */
export function reportFor(file: string, input: ReportInput): string {
  return /\.(md|markdown)$/i.test(file) ? reportMarkdown(input) : reportHtml(input);
}

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
