import { upperBound } from '../sorted';
import { MAX_MEMO, memoExact, type EstimateEdges, type SpanMeter } from './meter';
import type { PreTokenTable, TiktokenUnit } from './tiktoken';

/** Documents at least this long get a pre-token table as soon as a span is counted. */
const TABLE_THRESHOLD = 32_768;

/** Spans of one source counted in a tiktoken encoding: exact counts from the pre-token table, estimates from its piece sums (see SpanMeter). */
export function tiktokenMeter(unit: TiktokenUnit, source: string): SpanMeter {
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

