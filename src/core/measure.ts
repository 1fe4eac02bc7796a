import { documentCache, instanceKey } from './documentCache';
import type { Unit } from './types';
import { TiktokenUnit, type PreTokenTable } from './units/tiktoken';
import { wordsSpanCounter } from './units/words';
import { upperBound } from './sorted';

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

/** JavaScript's \s (what String#trim removes), tested on one UTF-16 code unit. */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** One for every source: a chars count needs no document, and one object keeps the merger's calls monomorphic. */
const length = (a: number, b: number): number => b - a;
const CHARS_METER: SpanMeter = { exactEstimates: true, linear: true, mostPerCodeUnit: 1, exact: length, estimate: length };

/** Words (the words unit: Intl.Segmenter word-like segments); see wordsSpanCounter. */
function wordsMeter(source: string): SpanMeter {
  const count = wordsSpanCounter(source);
  return { exactEstimates: true, atMostOnePerCluster: true, exact: count, estimate: count };
}

const MAX_MEMO = 250_000;
/** Documents at least this long get a pre-token table as soon as a span is counted. */
const TABLE_THRESHOLD = 32_768;

function memoExact(unit: Unit, source: string): (a: number, b: number) => number {
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

function tiktokenMeter(unit: TiktokenUnit, source: string): SpanMeter {
  // Built on first use for large documents, and on the first estimate for any document.
  let table: PreTokenTable | null = null;
  const getTable = (): PreTokenTable => (table ??= unit.tableFor(source));
  // Small documents count slices; with the table a span costs its two edge pieces (countSpan). Both are
  // remembered per span: a slider move re-counts many of the same spans (chunk starts stay on the same pieces), and
  // a look-up is cheaper than re-tokenizing a span's two edges.
  const small = memoExact(unit, source);
  let spans = new Map<number, number>();
  const stride = source.length + 1;
  const exact = (a: number, b: number): number => {
    if (b <= a) return 0;
    if (!table && source.length >= TABLE_THRESHOLD) getTable();
    if (!table) return small(a, b);
    const key = a * stride + b;
    let n = spans.get(key);
    if (n === undefined) {
      n = unit.countSpan(source, a, b, table);
      if (spans.size >= MAX_MEMO) spans = new Map();
      spans.set(key, n);
    }
    return n;
  };
  // A part of one piece: counted exactly, or for a giant piece (a long line without spaces) estimated from its
  // tokens, since an exact count there costs a BPE of the part.
  const part = (x: number, y: number, piece: number): number => {
    const g = unit.estimateInGiant(x, y, table!, piece);
    return g >= 0 ? g : exact(x, y);
  };
  const edges: EstimateEdges = {
    pieceAt: (x) => upperBound(getTable().ends, x),
    startValue: (a, p) => {
      const { starts, ends, countsBefore } = getTable();
      if (p >= ends.length) return countsBefore[ends.length]!;
      return starts[p]! >= a ? countsBefore[p]! : countsBefore[p + 1]! - part(a, ends[p]!, p);
    },
    endValue: (b, q) => {
      const { starts, ends, countsBefore } = getTable();
      if (q >= ends.length) return countsBefore[ends.length]!;
      return ends[q]! <= b ? countsBefore[q + 1]! : countsBefore[q]! + part(starts[q]!, b, q);
    },
  };
  const estimate = (a: number, b: number): number => {
    if (b <= a) return 0;
    const { starts, ends, countsBefore } = getTable();
    const first = upperBound(ends, a);
    if (first >= ends.length) return 0;
    const last = upperBound(ends, b - 1);
    if (first === last) return starts[first]! === a && ends[first]! === b ? countsBefore[first + 1]! - countsBefore[first]! : part(a, b, first);
    // Whole pieces strictly between the edge pieces, plus the (possibly partial) edge pieces.
    return edges.endValue(b, last) - edges.startValue(a, first);
  };
  return { exactEstimates: false, mostPerCodeUnit: 3, exact, estimate, edges };
}

/**
 * The meter for (unit, source), kept in the document's cache per unit, so moving a slider over the same document
 * reuses the pre-token table and the per-span memo, and switching units back and forth (chars for chunks, tokens
 * for hover) keeps both.
 */
export function meterFor(unit: Unit, source: string): SpanMeter {
  if (unit.name === 'chars') return CHARS_METER;
  return documentCache.getOrCompute(source, `measure.meter:${instanceKey('unit', unit)}`, () => newMeter(unit, source), () => meterBytes(source));
}

function newMeter(unit: Unit, source: string): SpanMeter {
  if (unit.name === 'words') return wordsMeter(source);
  if (unit instanceof TiktokenUnit) return tiktokenMeter(unit, source);
  const exact = memoExact(unit, source);
  return { exactEstimates: false, exact, estimate: exact };
}

/** A meter's estimated bytes: its span memos (at most MAX_MEMO entries each, about 24 bytes an entry, two of them). */
function meterBytes(source: string): number {
  return Math.min(source.length, MAX_MEMO) * 48;
}
