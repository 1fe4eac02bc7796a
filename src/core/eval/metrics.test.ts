import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanMetrics, mergeRanges, precisionOmega, questionMetrics, retrievalMetrics } from './metrics';

// A literal restatement of chunking_evaluation's base_evaluation.py (sum_of_ranges, union_ranges,
// intersect_two_ranges, difference, _full_precision_score, _scores_from_dataset_and_retrievals) for one question.
type R = [number, number];
const sumOfRanges = (rs: R[]) => rs.reduce((n, [s, e]) => n + e - s, 0);
function unionRanges(rs: R[]): R[] {
  const sorted = [...rs].sort((a, b) => a[0] - b[0]);
  const merged: R[] = [[...sorted[0]!] as R];
  for (const [s, e] of sorted.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (s <= last[1]) merged[merged.length - 1] = [last[0], Math.max(last[1], e)];
    else merged.push([s, e]);
  }
  return merged;
}
function intersectTwoRanges(a: R, b: R): R | null {
  const s = Math.max(a[0], b[0]);
  const e = Math.min(a[1], b[1]);
  return s <= e ? [s, e] : null;
}
function difference(ranges: R[], [ts, te]: R): R[] {
  const out: R[] = [];
  for (const [s, e] of ranges) {
    if (e < ts || s > te) out.push([s, e]);
    else if (s < ts && e > te) out.push([s, ts], [te, e]);
    else if (s < ts) out.push([s, ts]);
    else if (e > te) out.push([te, e]);
  }
  return out;
}
interface Meta {
  start: number;
  end: number;
  corpus: string;
}
function chromaOmega(refs: R[], chunks: Meta[], corpus: string): number {
  let numerator: R[] = [];
  let denominatorChunks: R[] = [];
  let unused: R[] = refs.map((r) => [...r] as R);
  for (const c of chunks) {
    if (c.corpus !== corpus) continue;
    for (const ref of refs) {
      const i = intersectTwoRanges([c.start, c.end], ref);
      if (i !== null) {
        unused = difference(unused, i);
        numerator = unionRanges([i, ...numerator]);
        denominatorChunks = unionRanges([[c.start, c.end], ...denominatorChunks]);
      }
    }
  }
  const denominator = unionRanges([...denominatorChunks, ...unused]);
  return numerator.length > 0 ? sumOfRanges(numerator) / sumOfRanges(denominator) : 0;
}
function chromaScores(refs: R[], retrieved: Meta[], corpus: string): { recall: number; precision: number; iou: number } {
  let numerator: R[] = [];
  let unused: R[] = refs.map((r) => [...r] as R);
  for (const c of retrieved) {
    if (c.corpus !== corpus) continue;
    for (const ref of refs) {
      const i = intersectTwoRanges([c.start, c.end], ref);
      if (i !== null) {
        unused = difference(unused, i);
        numerator = unionRanges([i, ...numerator]);
      }
    }
  }
  const n = numerator.length > 0 ? sumOfRanges(numerator) : 0;
  const precisionDenominator = sumOfRanges(retrieved.map((c) => [c.start, c.end] as R));
  return { recall: n / sumOfRanges(refs), precision: n / precisionDenominator, iou: n / (precisionDenominator + sumOfRanges(unused)) };
}

const span = (max: number) => fc.tuple(fc.nat(max), fc.integer({ min: 1, max: 60 })).map(([s, len]) => [s, Math.min(max + 60, s + len)] as R);
const meta = fc.tuple(span(200), fc.constantFrom('a', 'a', 'a', 'b')).map(([[start, end], corpus]) => ({ start, end, corpus }));

describe("Chroma's metrics", () => {
  it('hand-computed: two chunks over one reference, one chunk of another document', () => {
    // Reference [10, 30) (20 chars). Retrieved: [0, 20) and [25, 40) of "a", [0, 50) of "b".
    // N = |[10, 20)| + |[25, 30)| = 15; Σ|r| = 20 + 15 + 50 = 85; uncovered reference: [20, 25) = 5.
    const m = retrievalMetrics([{ start: 10, end: 30 }], [{ documentId: 'a', start: 0, end: 20 }, { documentId: 'a', start: 25, end: 40 }, { documentId: 'b', start: 0, end: 50 }], 'a');
    expect(m.recall).toBeCloseTo(15 / 20, 12);
    expect(m.precision).toBeCloseTo(15 / 85, 12);
    expect(m.iou).toBeCloseTo(15 / 90, 12);
  });

  it('hand-computed: overlapping retrieved chunks are penalized in precision, counted once in N', () => {
    const m = retrievalMetrics([{ start: 0, end: 10 }], [{ documentId: 'a', start: 0, end: 10 }, { documentId: 'a', start: 5, end: 15 }], 'a');
    expect(m).toEqual({ recall: 1, precision: 10 / 20, iou: 10 / 20 });
  });

  it('hand-computed precision-Ω: every chunk touching a reference, an empty intersection included', () => {
    // Units [0, 10), [10, 20), [20, 30); reference [12, 20): [10, 20) holds it, [20, 30) only touches it (counts, as
    // intersect_two_ranges returns (20, 20)). Ω = 8 / |[10, 30)| = 0.4.
    expect(precisionOmega([{ start: 12, end: 20 }], [{ start: 0, end: 10 }, { start: 10, end: 20 }, { start: 20, end: 30 }])).toBeCloseTo(0.4, 12);
    // A reference outside every unit: its uncovered part is in the denominator.
    expect(precisionOmega([{ start: 5, end: 15 }], [{ start: 0, end: 10 }])).toBeCloseTo(5 / 15, 12);
  });

  it('hit@k, MRR and the first answer-bearing rank', () => {
    const units = [{ start: 0, end: 10 }, { start: 10, end: 20 }, { start: 20, end: 30 }];
    const ranking = [{ documentId: 'a', start: 20, end: 30 }, { documentId: 'b', start: 10, end: 20 }, { documentId: 'a', start: 10, end: 20 }];
    const m = questionMetrics([{ start: 12, end: 18 }], 'a', ranking, 5, units);
    expect([m.hit, m.reciprocalRank, m.firstAnswerRank]).toEqual([1, 1 / 3, 3]);
    const below = questionMetrics([{ start: 12, end: 18 }], 'a', ranking, 2, units);
    expect([below.hit, below.reciprocalRank, below.firstAnswerRank, below.recall]).toEqual([0, 0, 3, 0]);
    expect(meanMetrics([m, below]).hit).toBe(0.5);
  });

  it('equal a literal restatement of chunking_evaluation on random ranges (several documents, overlapping references)', () => {
    fc.assert(
      fc.property(fc.array(span(200), { minLength: 1, maxLength: 3 }), fc.array(meta, { minLength: 1, maxLength: 6 }), fc.array(meta, { minLength: 0, maxLength: 12 }), (refs, retrieved, all) => {
        const references = refs.map(([start, end]) => ({ start, end }));
        const ours = retrievalMetrics(references, retrieved.map((c) => ({ documentId: c.corpus, ...c })), 'a');
        const theirs = chromaScores(refs, retrieved, 'a');
        expect(ours.recall).toBeCloseTo(theirs.recall, 10);
        expect(ours.precision).toBeCloseTo(theirs.precision, 10);
        expect(ours.iou).toBeCloseTo(theirs.iou, 10);
        const units = all.filter((c) => c.corpus === 'a');
        expect(precisionOmega(references, units)).toBeCloseTo(chromaOmega(refs, all, 'a'), 10);
      }),
      { numRuns: 2000 },
    );
  });

  it('merges overlapping and touching ranges', () => {
    expect(mergeRanges([{ start: 5, end: 8 }, { start: 0, end: 2 }, { start: 2, end: 4 }, { start: 7, end: 9 }, { start: 3, end: 3 }])).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 9 },
    ]);
  });
});
