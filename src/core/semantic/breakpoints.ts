import { rowChoices } from '../optionRows';
import type { BreakpointMode } from '../types';
import { npMean, npPercentileSorted, npStd, sortedCopy } from './numpy';

export type { BreakpointMode };

/** descendingAbove sorts the values above a threshold by comparison when they are at most 1/FEW of them. */
const FEW = 16;

export const BREAKPOINT_MODES: BreakpointMode[] = rowChoices('breakpoint');

/** LangChain's defaults (BREAKPOINT_DEFAULTS); 'absolute' has none: its amount is the distance itself. */
export const BREAKPOINT_DEFAULTS: Record<Exclude<BreakpointMode, 'absolute'>, number> = {
  percentile: 95,
  standard_deviation: 3,
  interquartile: 1.5,
  gradient: 95,
};

/**
 * Statistics of one array of values (distances or their gradient), computed once so that a new threshold costs
 * O(1) and a new set of cuts O(n). NaN values (gaps next to a blank window) are left out.
 */
export class ValueStats {
  readonly values: Float64Array;
  private sortedCache: Float64Array | null = null;
  private meanCache = NaN;
  private stdCache = NaN;
  private descendingCache: Int32Array | null = null;

  constructor(values: Float64Array) {
    this.values = values;
  }

  /** Compute every cached statistic now. */
  prime(): void {
    void this.sorted;
    void this.descending;
    if (this.finiteCount > 0) void this.std;
  }

  /** The finite values, ascending. */
  get sorted(): Float64Array {
    if (!this.sortedCache) this.sortedCache = sortedCopy(withoutNaN(this.values));
    return this.sortedCache;
  }

  get finiteCount(): number {
    return this.sorted.length;
  }

  percentile(p: number): number {
    return npPercentileSorted(this.sorted, p);
  }

  get mean(): number {
    if (Number.isNaN(this.meanCache)) this.meanCache = npMean(this.finite());
    return this.meanCache;
  }

  get std(): number {
    if (Number.isNaN(this.stdCache)) this.stdCache = npStd(this.finite());
    return this.stdCache;
  }

  /** Indices of the finite values, largest value first (ties: earlier index first). */
  get descending(): Int32Array {
    if (!this.descendingCache) this.descendingCache = descendingOrder(this.values);
    return this.descendingCache;
  }

  /**
   * The start of `descending`: the indices of the values above `threshold`. While those are few (the CLI's split at
   * the 95th percentile, a threshold dragged near it) only they are sorted; a threshold with many values above gets
   * the whole order, sorted once (a native sort of 64-bit keys, faster than comparing many indices) and kept.
   */
  descendingAbove(threshold: number): Int32Array {
    if (this.descendingCache) return this.descendingCache;
    const values = this.values;
    const above: number[] = [];
    for (let i = 0; i < values.length; i++) if (values[i]! > threshold) above.push(i);
    if (above.length > values.length / FEW) return this.descending;
    return Int32Array.from(above).sort((a, b) => values[b]! - values[a]! || a - b);
  }

  /** The finite values in their original order (numpy's mean and std sum in array order). */
  private finite(): Float64Array {
    return this.values.length === this.finiteCount ? this.values : withoutNaN(this.values);
  }
}

/** The values that are not NaN, in order (a plain loop: TypedArray filter with a callback is slow until optimized). */
function withoutNaN(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isNaN(v)) out[count++] = v;
  }
  return count === values.length ? out : out.slice(0, count);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Indices of the values that are not NaN, largest value first, ties (0 and −0 included) in index order: what
 * sorting the indices with (a, b) => v[b] − v[a] || a − b gives. A comparison sort was a large part of the analysis
 * step; here each value becomes one 64-bit key, the high 32 bits of its order-preserving bit pattern above its
 * index, sorted natively; the rare runs whose high bits tie are then put in order with the comparison.
 */
export function descendingOrder(values: Float64Array): Int32Array {
  const n = values.length;
  const byValue = (a: number, b: number) => values[b]! - values[a]! || a - b;
  // An engine without 64-bit typed arrays (older Safari) or a big-endian one sorts with the comparison.
  if (typeof BigUint64Array !== 'function' || !LITTLE_ENDIAN) {
    const idx: number[] = [];
    for (let i = 0; i < n; i++) if (!Number.isNaN(values[i]!)) idx.push(i);
    return Int32Array.from(idx).sort(byValue);
  }
  const bits = new Uint32Array(2);
  const asDouble = new Float64Array(bits.buffer);
  const keys = new BigUint64Array(n);
  const halves = new Uint32Array(keys.buffer); // little-endian: [2k] low half (index), [2k + 1] high half
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    // Descending order as ascending unsigned keys: the bits of −v (−0 made 0) with the sign folded.
    asDouble[0] = -(v + 0) + 0;
    const high = bits[1]!;
    halves[2 * count] = i;
    halves[2 * count + 1] = high >>> 31 === 1 ? ~high >>> 0 : (high | 0x80000000) >>> 0;
    count++;
  }
  keys.subarray(0, count).sort();
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[k] = halves[2 * k]!;
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && halves[2 * end + 1] === halves[2 * start + 1]) end++;
    if (end - start > 1) order.subarray(start, end).sort(byValue);
    start = end;
  }
  return order;
}

/**
 * The threshold of a mode, as LangChain computes it with numpy:
 * - percentile p: np.percentile(d, p) (linear interpolation);
 * - standard_deviation k: mean(d) + k·std(d) (population std, ddof 0);
 * - interquartile k: mean(d) + k·(P75 − P25);
 * - gradient p: np.percentile(gradient(d), p), compared against the gradient, not the distances;
 * - absolute x: x itself.
 * `stats` are those of the compared values (the gradient's for 'gradient'). NaN when there is nothing to measure.
 */
export function thresholdOf(mode: BreakpointMode, amount: number, stats: ValueStats): number {
  if (mode === 'absolute') return amount;
  if (stats.finiteCount === 0) return NaN;
  switch (mode) {
    case 'percentile':
    case 'gradient':
      return stats.percentile(amount);
    case 'standard_deviation':
      return stats.mean + amount * stats.std;
    case 'interquartile': {
      const iqr = stats.percentile(75) - stats.percentile(25);
      return stats.mean + amount * iqr;
    }
  }
}

/**
 * LangChain's number_of_chunks: the percentile that a linear map gives for k chunks, from (gaps → 0) to (1 → 100),
 * with k clamped to [1, gaps], in Python's order of float operations.
 */
export function percentileForChunkCount(chunks: number, gaps: number): number {
  const x1 = gaps;
  const x = Math.max(Math.min(chunks, x1), 1);
  const y = x1 === 1 ? 100 : 0 + (100 / (1 - x1)) * (x - x1);
  return Math.min(Math.max(y, 0), 100);
}

/** Compat cuts: every gap whose value is strictly greater than the threshold (NaN never cuts). */
export function cutsAbove(values: Float64Array, threshold: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]! > threshold) out.push(i);
  return out;
}

/**
 * Native cuts: the gaps above the threshold, strongest first, where a chosen gap suppresses the `radius` gaps on
 * each side of it. With a buffer of b sentences one change of topic raises the distance over about 2b + 1
 * consecutive gaps (every window that straddles it); LangChain and LlamaIndex may cut at several of them and leave
 * one- or two-sentence chunks between; this keeps only the peak of each drop.
 *
 * Monotone in the threshold: the strongest-first order does not depend on it, and a gap's fate depends only on
 * stronger gaps, so a higher threshold keeps a subset of the cuts. `limit` stops after that many cuts (used for a
 * target number of chunks). O(n) given `descending`; returns the cuts ascending and the value of the first
 * candidate left out because of the limit (NaN if none).
 */
export function suppressedCuts(
  values: Float64Array,
  descending: Int32Array,
  threshold: number,
  radius: number,
  limit = Infinity,
): { cuts: number[]; nextValue: number } {
  const n = values.length;
  const blocked = new Uint8Array(n);
  const chosen = new Uint8Array(n);
  let count = 0;
  let nextValue = NaN;
  for (let k = 0; k < descending.length; k++) {
    const i = descending[k]!;
    const v = values[i]!;
    if (!(v > threshold)) break;
    if (blocked[i]) continue;
    if (count >= limit) {
      nextValue = v;
      break;
    }
    chosen[i] = 1;
    count++;
    const lo = Math.max(0, i - radius);
    const hi = Math.min(n - 1, i + radius);
    for (let j = lo; j <= hi; j++) blocked[j] = 1;
  }
  const cuts: number[] = [];
  for (let i = 0; i < n; i++) if (chosen[i]) cuts.push(i);
  return { cuts, nextValue };
}
