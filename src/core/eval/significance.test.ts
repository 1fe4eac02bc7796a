import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareScores, pairedBootstrap, wilcoxonSignedRank } from './significance';

describe("Wilcoxon's signed-rank test", () => {
  it('gives the hand-computed exact p-value', () => {
    // d = 1, 2, 3, 4, 5, −6: ranks 1..6, W+ = 15, W− = 6. Of the 2^6 = 64 sign patterns, those with W+ ≤ 6 are
    // {}, {1}, {2}, {3}, {1,2}, {4}, {1,3}, {5}, {1,4}, {2,3}, {6}, {1,5}, {2,4}, {1,2,3}: 14, so by symmetry
    // P(W+ ≥ 15) = 14/64 and the two-sided p = 28/64 = 0.4375 (scipy.stats.wilcoxon agrees).
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5, -6])).toEqual({ wPlus: 15, wMinus: 6, n: 6, pValue: 0.4375, test: 'exact' });
    // All six positive: only W+ = 21 is as extreme on that side: p = 2/64.
    expect(wilcoxonSignedRank([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).pValue).toBe(0.03125);
  });

  it('drops zero differences and ranks ties by their average rank (exact, given those ranks)', () => {
    // d = 0, 1, 1, −2: n = 3, ranks 1.5, 1.5, 3; W+ = 3. The 8 sign patterns give W+ in {0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6}:
    // P(W+ ≤ 3) = 5/8, P(W+ ≥ 3) = 5/8 → p = min(1, 2 × 5/8) = 1.
    expect(wilcoxonSignedRank([0, 1, 1, -2])).toMatchObject({ wPlus: 3, wMinus: 3, n: 3, pValue: 1 });
    // d = 1, 1, 2, 3: ranks 1.5, 1.5, 3, 4, W+ = 10 (the maximum): P = 1/16 each side → p = 0.125.
    expect(wilcoxonSignedRank([1, 1, 2, 3]).pValue).toBe(0.125);
  });

  it('uses the normal approximation with tie and continuity corrections above 50 differences (scipy 1.10 figures)', () => {
    const d = Array.from({ length: 60 }, (_, i) => (i % 7) - 2.5 + (i % 3 === 0 ? 0.3 : 0));
    const r = wilcoxonSignedRank(d);
    expect(r.test).toBe('normal');
    expect(r.pValue).toBeCloseTo(0.06335179928569497, 6);
    const tied = [1, 1, 2, 2, 3, -1, 4, 5, -2, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, -3, 2, 2, 2, 1, 1, 3, 4, 5, 6, -7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, -9, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5];
    expect(wilcoxonSignedRank(tied).pValue / 1.1773150703555991e-7).toBeCloseTo(1, 5);
  });
});

describe('paired bootstrap', () => {
  it('is seeded (the same interval every time) and brackets the mean', () => {
    const d = [0.1, 0.3, -0.2, 0.5, 0, 0.25, 0.4, -0.1];
    const [first] = pairedBootstrap([d], 1000, 7);
    expect(pairedBootstrap([d], 1000, 7)[0]).toEqual(first);
    const mean = d.reduce((a, b) => a + b) / d.length;
    expect(first![0]).toBeLessThan(mean);
    expect(first![1]).toBeGreaterThan(mean);
    expect(pairedBootstrap([[0.25, 0.25, 0.25]])[0]).toEqual([0.25, 0.25]);
  });
});

describe('comparing two configurations', () => {
  const scores = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 80 });

  it('a configuration against itself is never significant', () => {
    fc.assert(
      fc.property(scores, (x) => {
        const s = compareScores({ recall: x, iou: x }, { recall: x, iou: x });
        expect(s.verdict).toBe('none');
        expect(s.difference.recall).toMatchObject({ mean: 0, ci95: [0, 0], pValue: 1, wins: 0, losses: 0, ties: x.length });
      }),
    );
  });

  it('one strictly better on every one of 10 or more questions is significant, and named', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 0.9, noNaN: true }), fc.double({ min: 0.001, max: 0.1, noNaN: true })), { minLength: 10, maxLength: 120 }),
        (pairs) => {
          const a = pairs.map(([x]) => x);
          const b = pairs.map(([x, gain]) => x + gain);
          const s = compareScores({ recall: a }, { recall: b });
          expect(s.verdict).toBe('b');
          expect(s.wins).toBe(pairs.length);
          expect(s.difference.recall.ci95[0]).toBeGreaterThan(0);
          expect(compareScores({ recall: b }, { recall: a }).verdict).toBe('a');
        },
      ),
    );
  });

  it('says "none" for a difference that is not significant, even when one side wins more questions', () => {
    // B wins 6 questions by a little and loses 4 by a lot: more wins, lower mean, no significant difference.
    const a = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.9, 0.9, 0.9, 0.9];
    const b = [0.52, 0.52, 0.52, 0.52, 0.52, 0.52, 0.4, 0.4, 0.4, 0.4];
    const s = compareScores({ recall: a }, { recall: b });
    expect([s.wins, s.losses, s.ties]).toEqual([6, 4, 0]);
    expect(s.difference.recall.mean).toBeLessThan(0);
    expect(s.verdict).toBe('none');
  });
});
