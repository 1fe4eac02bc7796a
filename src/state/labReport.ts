import type { ComparedMetric, Significance } from '../core/eval/significance';
import { reportHtml, reportMarkdown, sweepReportHtml, sweepReportMarkdown, type ReportInput, type ReportRun, type SweepReportInput } from '../core/eval/report/index';
import type { Config } from './configSlice';
import { downloadFile } from './exportActions';
import type { SweepPoint } from './labSweep';

/**
 * The lab's reports from the page: a golden-set run, a comparison or a sweep, written by core's report writers
 * (src/core/eval/report: one self-contained HTML file with inline SVG and no script, or markdown) and downloaded as
 * one file. Document and question text reach the file only through those writers' escaping.
 */

export type ReportFormat = 'html' | 'md';
export type ReportKind = 'run' | 'comparison' | 'sweep';

/** A run as the lab holds it (the worker's payload) or as core's evaluate returns it. */
type RunResult = ReportRun;

/** The options a sweep report lists as shared (those of the page's configuration that shape chunks and retrieval). */
const SWEEP_BASE_KEYS: readonly (keyof Config)[] = ['strategy', 'unit', 'size', 'overlap', 'retriever', 'embedder', 'chunksInContext', 'stopWords', 'stemming'];

const documentsOf = (r: RunResult) => r.byDocument.map((d) => d.document);

/** The lab's one-document index names its document "document" (the worker's LAB_DOCUMENT_ID): a report names it as the page does. */
const PAGE_DOCUMENT_ID = 'document';

/** A run with the page's document id replaced by the document's name (when it has one); other ids as they are. */
export function withDocumentName(run: RunResult, name: string | null): RunResult {
  if (!name) return run;
  const rename = (id: string) => (id === PAGE_DOCUMENT_ID ? name : id);
  return { ...run, byDocument: run.byDocument.map((d) => ({ ...d, document: rename(d.document) })), questions: run.questions.map((q) => ({ ...q, document: rename(q.document) })) };
}

/** A golden-set run's report. */
export function runReportInput(run: RunResult, generated?: string): ReportInput {
  return { runs: [{ label: 'Value', result: run }], files: documentsOf(run), ...(generated ? { generated } : {}) };
}

/** A comparison's report: A's and B's runs and their significance. */
export function comparisonReportInput(a: RunResult, b: RunResult, significance: Significance<ComparedMetric>, generated?: string): ReportInput {
  return {
    runs: [
      { label: 'A', result: a },
      { label: 'B', result: b },
    ],
    significance,
    files: documentsOf(a),
    ...(generated ? { generated } : {}),
  };
}

/** A sweep's report: every point the sweep measured (or refused), the options they share from the page's configuration. */
export function sweepReportInput(points: readonly SweepPoint[], config: Config, questions: number, files: readonly string[], generated?: string): SweepReportInput {
  const varied = new Set(points.flatMap((p) => Object.keys(p.values)));
  const base = Object.fromEntries(SWEEP_BASE_KEYS.filter((k) => !varied.has(k) && config[k] !== null && config[k] !== undefined).map((k) => [k === 'chunksInContext' ? 'k' : k, config[k]]));
  return {
    base,
    points: points.map((p) => ({ values: { ...p.values }, means: p.means, chunks: p.chunks, embeddingTokens: p.tokens, ...(p.error ? { error: p.error } : {}) })),
    k: config.chunksInContext,
    questions,
    files,
    ...(generated ? { generated } : {}),
  };
}

export function reportText(input: ReportInput | SweepReportInput, format: ReportFormat): string {
  if ('points' in input) return format === 'md' ? sweepReportMarkdown(input) : sweepReportHtml(input);
  return format === 'md' ? reportMarkdown(input) : reportHtml(input);
}

export function reportFileName(kind: ReportKind, format: ReportFormat): string {
  const name = kind === 'run' ? 'evaluation' : kind;
  return `chunkscope-${name}-report.${format === 'md' ? 'md' : 'html'}`;
}

/** The report downloaded as one file. */
export function downloadReport(kind: ReportKind, input: ReportInput | SweepReportInput, format: ReportFormat): void {
  downloadFile(reportFileName(kind, format), reportText(input, format), format === 'md' ? 'text/markdown' : 'text/html');
}
