import type { Unit } from '../types';

/**
 * Measuring spans of ONE source text in a unit. `exact(a, b)` is always unit.count(source.slice(a, b)) — the real,
 * re-counted value the size guarantee is about. `estimate(a, b)` is O(log n) and equals `exact` for chars and
 * words; for tokens it sums the pre-token pieces of the whole document and can differ by a token or two where a
 * span's edge changes the pre-tokenisation, so the merger uses it to search and `exact` to decide.
 */
export interface SpanMeter {
  readonly exactEstimates: boolean;
  /** True when a span's count is its length (chars): the merger then does the arithmetic without calls. */
  readonly linear?: boolean;
  /**
   * The most one UTF-16 code unit can count: chars 1; tokens 3 (a token is at least one UTF-8 byte, a code unit at
   * most three). A span this many times shorter than the size fits without being counted.
   */
  readonly mostPerCodeUnit?: number;
  /** True when one grapheme cluster never counts more than 1 (words: word boundaries never fall inside one). */
  readonly atMostOnePerCluster?: boolean;
  exact(start: number, end: number): number;
  estimate(start: number, end: number): number;
  /** Tokens: the estimate as a difference of values at its two edges (see EstimateEdges). */
  readonly edges?: EstimateEdges;
}

/**
 * The token estimate split at a span's edges: for [a, b) with p = pieceAt(a) < q = pieceAt(b - 1) (its ends in
 * different pre-token pieces), estimate(a, b) === endValue(b, q) - startValue(a, p). Each value depends on one
 * position only, so a packer comparing many spans between the same piece edges takes them once per edge instead of
 * an estimate (two binary searches and up to two edge counts) per comparison.
 */
export interface EstimateEdges {
  /** The pre-token piece holding position x (the count of pieces when x is past the last). */
  pieceAt(x: number): number;
  /** Tokens before a, as estimate counts a span starting at a in piece p: the whole pieces before p, and p's part before a. */
  startValue(a: number, p: number): number;
  /** Tokens before b, as estimate counts a span ending at b in piece q: the whole pieces before q, and q's part before b. */
  endValue(b: number, q: number): number;
}

/** The most span counts a meter remembers before it starts over. */
export const MAX_MEMO = 250_000;

/** exact(a, b) = unit.count(source.slice(a, b)), remembered per span (a generic meter's count). */
export function memoExact(unit: Unit, source: string): (a: number, b: number) => number {
  let memo = new Map<number, number>();
  const stride = source.length + 1;
  return (a, b) => {
    if (b <= a) return 0;
    const key = a * stride + b;
    let n = memo.get(key);
    if (n === undefined) {
      n = unit.count(source.slice(a, b));
      if (memo.size >= MAX_MEMO) memo = new Map();
      memo.set(key, n);
    }
    return n;
  };
}

