/**
 * Is B really better than A? Paired per question: d_i = b_i − a_i for each metric.
 *
 * - The mean difference with a 95% confidence interval from a paired bootstrap: `resamples` (default 1,000)
 *   resamples of the questions with replacement, drawn by a seeded PRNG (mulberry32, default seed 1), the same
 *   resampled questions for every metric; the interval is the 2.5th and 97.5th percentiles of the resampled means
 *   (linear interpolation between order statistics).
 * - Wilcoxon's signed-rank test, two-sided: zero differences dropped (Wilcoxon's method), |d| ranked with average
 *   ranks for ties. Exact for n ≤ 50 non-zero differences (the permutation distribution of W+ given those ranks,
 *   ties included: the doubled ranks are whole numbers); above 50 the normal approximation with the tie correction
 *   of the variance and a continuity correction of 0.5. The same p-values as scipy.stats.wilcoxon
 *   (zero_method "wilcox", correction=True) where scipy is exact (no ties) or approximate.
 * - Wins, losses and ties per question (B's view: a win is a question where B scores higher).
 * - A verdict: "a" or "b" only when the chosen metric's p-value is below `alpha` (default 0.05) and the mean
 *   difference and the signed ranks point the same way; otherwise "none" (no significant difference).
 */
import { seededRandom } from '../random';

export { seededRandom };

export interface PairedDifference {
  /** Mean of b − a over the questions. */
  mean: number;
  /** 95% bootstrap interval of that mean. */
  ci95: [number, number];
  /** Two-sided Wilcoxon signed-rank p-value (1 when every difference is zero). */
  pValue: number;
  /** 'exact' (n ≤ 50 non-zero differences) or 'normal' (approximation with tie and continuity corrections). */
  test: 'exact' | 'normal';
  /** Questions where B scores higher, lower, the same. */
  wins: number;
  losses: number;
  ties: number;
}

export type Verdict = 'a' | 'b' | 'none';

export interface Significance<M extends string = string> {
  difference: Record<M, PairedDifference>;
  /** The metric the verdict is about. */
  metric: M;
  alpha: number;
  /** Of the verdict's metric (B's view). */
  wins: number;
  losses: number;
  ties: number;
  verdict: Verdict;
  questions: number;
  resamples: number;
  seed: number;
}

export interface SignificanceOptions<M extends string> {
  /** The metric the verdict is about (default: the first given). */
  metric?: M;
  alpha?: number;
  resamples?: number;
  seed?: number;
}

/** Differences this small are ties (metrics are ratios computed the same way on both sides). */
const EPSILON = 1e-12;
/** Largest n of non-zero differences with the exact distribution. */
export const WILCOXON_EXACT_MAX = 50;


/** erfc(x), Numerical Recipes' Chebyshev fit (fractional error < 1.2e-7 everywhere). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export interface WilcoxonResult {
  /** Sum of the ranks of the positive differences. */
  wPlus: number;
  wMinus: number;
  /** Non-zero differences. */
  n: number;
  pValue: number;
  test: 'exact' | 'normal';
}

/** Wilcoxon's signed-rank test on paired differences, two-sided (see the header for the method). */
export function wilcoxonSignedRank(differences: readonly number[]): WilcoxonResult {
  const nonZero = differences.filter((d) => Math.abs(d) > EPSILON);
  const n = nonZero.length;
  if (n === 0) return { wPlus: 0, wMinus: 0, n: 0, pValue: 1, test: 'exact' };
  const order = nonZero.map((d, i) => i).sort((i, j) => Math.abs(nonZero[i]!) - Math.abs(nonZero[j]!));
  // Doubled average ranks (whole numbers) and the tie groups' sizes.
  const doubled = new Array<number>(n);
  const tieSizes: number[] = [];
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && Math.abs(nonZero[order[j]!]!) - Math.abs(nonZero[order[i]!]!) <= EPSILON) j++;
    for (let m = i; m < j; m++) doubled[order[m]!] = i + 1 + j; // 2 × ((i + 1) + j) / 2
    tieSizes.push(j - i);
    i = j;
  }
  let wPlus2 = 0;
  for (let i = 0; i < n; i++) if (nonZero[i]! > 0) wPlus2 += doubled[i]!;
  const total2 = n * (n + 1);
  const wPlus = wPlus2 / 2;
  const wMinus = (total2 - wPlus2) / 2;
  if (n <= WILCOXON_EXACT_MAX) return { wPlus, wMinus, n, pValue: exactP(doubled, wPlus2), test: 'exact' };
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieSizes.reduce((s, t) => s + t ** 3 - t, 0) / 48;
  if (variance <= 0) return { wPlus, wMinus, n, pValue: 1, test: 'normal' };
  const z = Math.max(0, Math.abs(wPlus - mean) - 0.5) / Math.sqrt(variance);
  return { wPlus, wMinus, n, pValue: Math.min(1, erfc(z / Math.SQRT2)), test: 'normal' };
}

/** Two-sided exact p of W+ (doubled) under random signs: 2 × the smaller tail, at most 1. */
function exactP(doubledRanks: readonly number[], observed2: number): number {
  const total = doubledRanks.reduce((a, b) => a + b, 0);
  // prob[s]: P(doubled W+ = s), adding one rank (sign + or − with probability 1/2) at a time.
  let prob = new Float64Array(total + 1);
  prob[0] = 1;
  let reach = 0;
  for (const r of doubledRanks) {
    const next = new Float64Array(total + 1);
    for (let s = 0; s <= reach; s++) {
      const p = prob[s]!;
      if (p === 0) continue;
      next[s] = next[s]! + p / 2;
      next[s + r] = next[s + r]! + p / 2;
    }
    reach += r;
    prob = next;
  }
  let lower = 0;
  let upper = 0;
  for (let s = 0; s <= total; s++) {
    if (s <= observed2) lower += prob[s]!;
    if (s >= observed2) upper += prob[s]!;
  }
  return Math.min(1, 2 * Math.min(lower, upper));
}

/** The q-quantile of sorted values (linear interpolation between order statistics). */
function quantile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** 95% percentile-bootstrap intervals of the mean of each row of `differences` (rows: metrics; columns: questions), resampled together. */
export function pairedBootstrap(differences: readonly (readonly number[])[], resamples = 1000, seed = 1): [number, number][] {
  const n = differences[0]?.length ?? 0;
  if (n === 0) return differences.map(() => [0, 0]);
  const random = seededRandom(seed);
  const means = differences.map(() => new Float64Array(resamples));
  const pick = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) pick[i] = Math.floor(random() * n);
    differences.forEach((row, m) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += row[pick[i]!]!;
      means[m]![r] = sum / n;
    });
  }
  return means.map((all) => {
    all.sort();
    return [quantile(all, 0.025), quantile(all, 0.975)];
  });
}

/**
 * Compare two configurations' per-question scores (`a[metric][i]` and `b[metric][i]`: question i under A and B).
 */
export function compareScores<M extends string>(a: Record<M, readonly number[]>, b: Record<M, readonly number[]>, options: SignificanceOptions<M> = {}): Significance<M> {
  const metrics = Object.keys(a) as M[];
  const metric = options.metric ?? metrics[0]!;
  if (!metrics.includes(metric)) throw new Error(`unknown metric "${metric}" (expected one of ${metrics.join(', ')})`);
  const alpha = options.alpha ?? 0.05;
  const resamples = options.resamples ?? 1000;
  const seed = options.seed ?? 1;
  const n = a[metric].length;
  for (const m of metrics) if (a[m].length !== n || b[m].length !== n) throw new Error(`metric "${m}": A and B must score the same ${n} questions`);
  const diffs = metrics.map((m) => a[m].map((x, i) => b[m][i]! - x));
  const intervals = pairedBootstrap(diffs, resamples, seed);
  const difference = {} as Record<M, PairedDifference>;
  metrics.forEach((m, k) => {
    const d = diffs[k]!;
    const w = wilcoxonSignedRank(d);
    const wins = d.filter((x) => x > EPSILON).length;
    const losses = d.filter((x) => x < -EPSILON).length;
    difference[m] = { mean: n > 0 ? d.reduce((s, x) => s + x, 0) / n : 0, ci95: intervals[k]!, pValue: w.pValue, test: w.test, wins, losses, ties: n - wins - losses };
  });
  const chosen = difference[metric];
  const w = wilcoxonSignedRank(diffs[metrics.indexOf(metric)]!);
  const direction = Math.sign(chosen.mean);
  const verdict: Verdict = chosen.pValue < alpha && direction !== 0 && Math.sign(w.wPlus - w.wMinus) === direction ? (direction > 0 ? 'b' : 'a') : 'none';
  return { difference, metric, alpha, wins: chosen.wins, losses: chosen.losses, ties: chosen.ties, verdict, questions: n, resamples, seed };
}

/** Per-question figures of an evaluation, the metrics compared (the first is the default verdict metric). */
export const COMPARED_METRICS = ['recall', 'precision', 'iou', 'precisionOmega', 'hit', 'reciprocalRank', 'ndcg', 'map'] as const;
export type ComparedMetric = (typeof COMPARED_METRICS)[number];

/** A question's figures as compared: Chroma's metrics, its NDCG@k, and its AP@k under "map" (MAP is their mean). */
export interface ComparedQuestion {
  index: number;
  metrics: Record<Exclude<ComparedMetric, 'ndcg' | 'map'>, number>;
  rankMetrics: { ndcg: number; averagePrecision: number };
}

function comparedValue(q: ComparedQuestion, m: ComparedMetric): number {
  return m === 'ndcg' ? q.rankMetrics.ndcg : m === 'map' ? q.rankMetrics.averagePrecision : q.metrics[m];
}

/**
 * Two evaluations of the same golden set paired by question (its index in the set; a question measured by only one
 * side is left out) and compared metric by metric.
 */
export function compareQuestionResults(a: readonly ComparedQuestion[], b: readonly ComparedQuestion[], options: SignificanceOptions<ComparedMetric> = {}): Significance<ComparedMetric> {
  const byIndex = new Map(b.map((q) => [q.index, q]));
  const pairs = a.flatMap((q) => (byIndex.has(q.index) ? [[q, byIndex.get(q.index)!] as const] : []));
  const side = (i: 0 | 1) => Object.fromEntries(COMPARED_METRICS.map((m) => [m, pairs.map((p) => comparedValue(p[i], m))])) as Record<ComparedMetric, number[]>;
  return compareScores(side(0), side(1), { metric: 'recall', ...options });
}
