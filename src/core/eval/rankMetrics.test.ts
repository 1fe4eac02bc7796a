import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { averagePrecisionAtK, ndcgAtK, rankMetrics, recallCurve } from './rankMetrics';

// The answer is [10, 30) of document d (20 characters). U1 holds 5 of them, U2 15, U3 none; U4 is another document's.
const E = [{ start: 10, end: 30 }];
const U1 = { documentId: 'd', start: 0, end: 15 };
const U2 = { documentId: 'd', start: 15, end: 30 };
const U3 = { documentId: 'd', start: 30, end: 50 };
const U4 = { documentId: 'other', start: 10, end: 30 };
const units = [U1, U2, U3];

describe('NDCG and MAP with answer characters as graded relevance', () => {
  it('equal the hand-computed values', () => {
    // Ranking U3, U1, U2 (gains 0, 5, 15). DCG = 0/log2 2 + 5/log2 3 + 15/log2 4 = 3.1546 + 7.5;
    // ideal (15, 5, 0): 15/1 + 5/log2 3 = 18.1546; NDCG = 10.6546 / 18.1546 = 0.586883.
    // AP: G = 20; rank 2 (5 chars, 1 of 2 units relevant): 5/20 × 1/2 = 0.125; rank 3: 15/20 × 2/3 = 0.5; AP = 0.625.
    const r = rankMetrics(E, 'd', [U3, U1, U2], units, 3);
    expect(r.ndcg).toBeCloseTo(0.586883, 6);
    expect(r.averagePrecision).toBeCloseTo(0.625, 12);
    // At k = 2 U2 is not retrieved: NDCG@2 = (5/log2 3) / 18.1546; AP@2 = 0.125.
    const two = rankMetrics(E, 'd', [U3, U1, U2], units, 2);
    expect(two.ndcg).toBeCloseTo(3.154649 / 18.154649, 6);
    expect(two.averagePrecision).toBeCloseTo(0.125, 12);
  });

  it('are 1 for the best ranking, 0 when nothing retrieved holds the answer (another document\'s span holds none)', () => {
    expect(rankMetrics(E, 'd', [U2, U1, U3], units, 3)).toEqual({ ndcg: 1, averagePrecision: 1 });
    expect(rankMetrics(E, 'd', [U4, U3], units, 2)).toEqual({ ndcg: 0, averagePrecision: 0 });
  });

  it('AP with equal gains is the usual AP@k: relevant at ranks 1 and 3 of 3 relevant = (1/1 + 2/3) / 3', () => {
    expect(averagePrecisionAtK([1, 0, 1, 0], [1, 1, 1, 0], 4)).toBeCloseTo((1 + 2 / 3) / 3, 12);
    // And NDCG with binary gains: (1 + 1/2) / (1 + 1/log2 3 + 1/2).
    expect(ndcgAtK([1, 0, 1, 0], [1, 1, 1, 0], 4)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3) + 0.5), 12);
  });
});

describe('recall@k as a curve', () => {
  it('gives the recall of the first k units for k = 1..20', () => {
    const curve = recallCurve(E, 'd', [U3, U1, U2]);
    expect(curve).toHaveLength(20);
    expect(curve.slice(0, 4)).toEqual([0, 0.25, 1, 1]);
    expect(curve[19]).toBe(1);
  });

  it("meets the evaluation's recall at its k, and the evaluation reports NDCG and MAP", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} tells about topic ${i % 5} and item ${i}.`).join(' ');
    const at = text.indexOf('Sentence 7 ');
    const questions = [{ question: 'what about item 7 and topic 2', references: [{ start: at, end: at + 60, content: text.slice(at, at + 60) }] }];
    for (const k of [1, 3, 5]) {
      const r = await evaluate([{ id: 'd', text }], questions, { size: 50, overlap: 0, chunksInContext: k });
      expect(r.recallCurve[k - 1]!.recall).toBeCloseTo(r.means.recall, 12);
      expect(r.recallCurve.map((p) => p.k)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(r.rankMeans.ndcg).toBeGreaterThanOrEqual(0);
      expect(r.rankMeans.ndcg).toBeLessThanOrEqual(1);
      expect(r.questions[0]!.rankMetrics.averagePrecision).toBe(r.rankMeans.map);
    }
  });
});

describe('recall@k curve, property', () => {
  it("equals Chroma's recall of the first k units for every k, on random ranges", async () => {
    const fc = (await import('fast-check')).default;
    const { retrievalMetrics } = await import('./metrics');
    const range = fc.tuple(fc.nat(200), fc.nat(60)).map(([s, l]) => ({ start: s, end: s + l }));
    const span = fc.tuple(range, fc.constantFrom('d', 'other')).map(([r, documentId]) => ({ ...r, documentId }));
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 4 }), fc.array(span, { maxLength: 25 }), (refs, ranking) => {
        const curve = recallCurve(refs, 'd', ranking);
        curve.forEach((r, i) => expect(r).toBe(retrievalMetrics(refs, ranking.slice(0, i + 1), 'd').recall));
      }),
    );
  });
});
