import { compareInWorker } from '../bridge/significanceClient';
import type { MeanMetrics, QuestionMetrics } from '../core/describe';
import type { ComparedMetric, ComparedQuestion, Significance } from '../core/eval/significance';
import { verdictText } from '../core/eval/report/model';

/**
 * Compare two configurations: where their chunk boundaries differ (pure), and whether B's scores differ from A's by
 * more than chance (core's paired bootstrap and Wilcoxon test, run in a worker).
 * A boundary is an offset where a chunk starts or ends (the starts and ends of the leaves, as painted).
 */

export interface BoundaryDiff {
  onlyA: number[];
  onlyB: number[];
  both: number[];
}

function boundarySet(starts: ArrayLike<number>, ends: ArrayLike<number>): number[] {
  const set = new Set<number>();
  for (let i = 0; i < starts.length; i++) set.add(starts[i]!);
  for (let i = 0; i < ends.length; i++) set.add(ends[i]!);
  return [...set].sort((a, b) => a - b);
}

export function boundaryDiff(a: { starts: ArrayLike<number>; ends: ArrayLike<number> }, b: { starts: ArrayLike<number>; ends: ArrayLike<number> }): BoundaryDiff {
  const inA = boundarySet(a.starts, a.ends);
  const inB = boundarySet(b.starts, b.ends);
  const out: BoundaryDiff = { onlyA: [], onlyB: [], both: [] };
  let i = 0;
  let j = 0;
  while (i < inA.length || j < inB.length) {
    if (j >= inB.length || (i < inA.length && inA[i]! < inB[j]!)) out.onlyA.push(inA[i++]!);
    else if (i >= inA.length || inB[j]! < inA[i]!) out.onlyB.push(inB[j++]!);
    else {
      out.both.push(inA[i]!);
      i++;
      j++;
    }
  }
  return out;
}

export type Winner = 'A' | 'B' | 'tie';

/** Which configuration answers a question better: recall first, then IoU, then the first answer's rank (a per-question direction, never a verdict). */
export function questionWinner(a: QuestionMetrics, b: QuestionMetrics, epsilon = 1e-9): Winner {
  const order: ((m: QuestionMetrics) => number)[] = [(m) => m.recall, (m) => m.iou, (m) => m.reciprocalRank];
  for (const f of order) {
    const d = f(a) - f(b);
    if (d > epsilon) return 'A';
    if (d < -epsilon) return 'B';
  }
  return 'tie';
}

export function winnerCounts(winners: readonly Winner[]): Record<Winner, number> {
  const out: Record<Winner, number> = { A: 0, B: 0, tie: 0 };
  for (const w of winners) out[w]++;
  return out;
}

/** The signed difference B − A of each mean (what the side-by-side table shows). */
export function meanDelta(a: MeanMetrics, b: MeanMetrics): MeanMetrics {
  return Object.fromEntries(Object.keys(a).map((k) => [k, b[k as keyof MeanMetrics] - a[k as keyof MeanMetrics]])) as MeanMetrics;
}

/** The significance levels the page offers (α). */
export const SIGNIFICANCE_LEVELS = [0.01, 0.05, 0.1] as const;
export const DEFAULT_SIGNIFICANCE_LEVEL = 0.05;
/** The metrics a verdict can be about (the first is the default). */
export const VERDICT_METRICS: readonly ComparedMetric[] = ['recall', 'iou', 'precisionOmega', 'precision', 'hit', 'reciprocalRank', 'ndcg', 'map'];

/** A run's per-question figures as core's comparison reads them (only those: the rest need not travel to a worker). */
export function comparedQuestions(questions: readonly ComparedQuestion[]): ComparedQuestion[] {
  return questions.map((q) => ({ index: q.index, metrics: { ...q.metrics }, rankMetrics: { ndcg: q.rankMetrics.ndcg, averagePrecision: q.rankMetrics.averagePrecision } }));
}

/** A against B, question by question: 1,000 seeded bootstrap resamples and Wilcoxon's test per metric; the verdict at `alpha`. */
export function compareRuns(a: readonly ComparedQuestion[], b: readonly ComparedQuestion[], alpha: number, metric: ComparedMetric = 'recall'): Promise<Significance<ComparedMetric>> {
  return compareInWorker(comparedQuestions(a), comparedQuestions(b), { alpha, metric, resamples: 1000, seed: 1 });
}

/** The verdict in one sentence: a winner only when significant, else "No significant difference …". */
export function verdictSentence(s: Significance<ComparedMetric>): string {
  return verdictText(s, ['A', 'B']);
}
