import { setAsideSummary, shareText } from '../corpora';
import type { EvalResult } from '../evaluate';
import type { FailureKind } from '../failures';
import type { ComparedMetric, Significance } from '../significance';
import { METRIC_NAMES, type MetricName } from '../types';

/**
 * What a report shows (./html.ts, ./markdown.ts): an evaluation, or a comparison of two, with the corpus, the
 * questions, the means and their spread, significance, and the failures by kind. Pure: the CLI writes it to a
 * file, a page could offer it as a download.
 */
export type ReportRun = Pick<EvalResult, 'configuration' | 'k' | 'means' | 'rankMeans' | 'recallCurve' | 'byDocument' | 'spread' | 'measured' | 'index' | 'questions' | 'skipped'>;

export interface ReportInput {
  /** One run (an evaluation) or two (a comparison: A then B). */
  runs: { label: string; result: ReportRun }[];
  significance?: Significance<ComparedMetric>;
  /** The files indexed, as given. */
  files: readonly string[];
  /** When it was made (ISO text); default: not shown. */
  generated?: string;
}

export const METRIC_LABELS: Record<MetricName | 'ndcg' | 'map', string> = {
  recall: 'Recall',
  precision: 'Precision',
  iou: 'IoU',
  precisionOmega: 'Precision-Ω',
  hit: 'Hit@k',
  reciprocalRank: 'MRR',
  ndcg: 'NDCG@k',
  map: 'MAP',
};

export const FAILURE_LABELS: Record<FailureKind, string> = {
  'nothing-matched': 'nothing matched',
  'cut-across-boundary': 'answer cut across a boundary',
  'ranked-below-k': 'ranked below k',
  'not-matched': 'answer chunk did not match',
  'oversized-chunk': 'oversized chunk',
  'table-without-header': 'table rows without header',
  'reference-missing': 'answer no longer in the document',
  'near-miss': 'near miss (a neighbour was retrieved)',
  'vocabulary-mismatch': 'vocabulary mismatch',
  'outside-chunks': 'answer characters in no chunk',
};

/** A figure as a percentage; `label` given: MRR, NDCG and MAP (not shares of anything) as decimals. */
export function figure(x: number, label?: string): string {
  if (!Number.isFinite(x)) return '–';
  return label !== undefined && DECIMAL_LABELS.has(label) ? x.toFixed(3) : `${(x * 100).toFixed(1)}%`;
}

const DECIMAL_LABELS = new Set(['MRR', 'NDCG@k', 'MAP']);

/** A difference in percentage points: +1.2 pp, -5.9 pp, 0.0 pp; for MRR, NDCG and MAP a decimal (+0.012). */
export function signed(x: number, label?: string): string {
  if (label !== undefined && DECIMAL_LABELS.has(label)) {
    const d = Math.round(x * 1000) / 1000;
    return `${d > 0 ? '+' : ''}${(d === 0 ? 0 : d).toFixed(3)}`;
  }
  const v = Math.round(x * 1000) / 10;
  return `${v > 0 ? '+' : ''}${(v === 0 ? 0 : v).toFixed(1)} pp`;
}

export function pValueText(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

/** Rows of the means table: each metric's pooled mean and its spread across documents. */
export function meanRows(run: ReportRun): { metric: string; pooled: number; mean: number | null; std: number | null }[] {
  const rows: { metric: string; pooled: number; mean: number | null; std: number | null }[] = METRIC_NAMES.map((m) => ({ metric: METRIC_LABELS[m], pooled: run.means[m], mean: run.spread[m].mean, std: run.spread[m].std }));
  rows.push({ metric: METRIC_LABELS.ndcg, pooled: run.rankMeans.ndcg, mean: null, std: null }, { metric: METRIC_LABELS.map, pooled: run.rankMeans.map, mean: null, std: null });
  return rows;
}

/** Failures by kind: how many questions show each (a question counts once per kind), as a share of those measured. */
export function failureRows(run: ReportRun): { kind: FailureKind; label: string; questions: number; share: string }[] {
  const counts = new Map<FailureKind, number>();
  for (const q of run.questions) for (const kind of new Set(q.failures.map((f) => f.kind))) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, questions]) => ({ kind, label: FAILURE_LABELS[kind] ?? kind, questions, share: shareText(run.measured > 0 ? questions / run.measured : 0) }));
}

/** The questions set aside, one line per cause. */
export function setAsideLines(run: ReportRun): string[] {
  return setAsideSummary(run.skipped, run.index.documents);
}

/** "p = 0.0123", or "p < 0.0001" (never "p = < 0.0001"). */
export function pClause(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

/** The verdict in words. */
export function verdictText(s: Significance<ComparedMetric>, labels: [string, string]): string {
  const d = s.difference[s.metric];
  const metric = METRIC_LABELS[s.metric];
  const sg = (x: number) => signed(x, metric);
  if (s.verdict === 'none') return `No significant difference in ${metric} (${pClause(d.pValue)} at α = ${s.alpha}; mean difference ${labels[1]} − ${labels[0]} ${sg(d.mean)}, 95% CI ${sg(d.ci95[0])} to ${sg(d.ci95[1])}).`;
  const winner = s.verdict === 'a' ? labels[0] : labels[1];
  return `${winner} is better in ${metric}: ${labels[1]} − ${labels[0]} = ${sg(d.mean)} (95% CI ${sg(d.ci95[0])} to ${sg(d.ci95[1])}), ${pClause(d.pValue)} at α = ${s.alpha}.`;
}

/** Configuration values as text (lists joined, strings as they are). */
export function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => JSON.stringify(x)).join(', ');
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? String(v);
}
