import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ComparedQuestion } from '../core/eval/significance';
import { compareRuns, comparedQuestions, verdictSentence } from './labCompare';

// The Compare tab's verdict: core's paired test on the two runs' questions (in place here: Node has no Worker).

const question = (index: number, recall: number): ComparedQuestion => ({ index, metrics: { recall, precision: recall / 2, iou: recall / 3, precisionOmega: recall / 4, hit: recall > 0 ? 1 : 0, reciprocalRank: recall }, rankMetrics: { ndcg: recall, averagePrecision: recall } });

describe('compare verdict', () => {
  it('a configuration against itself is never significant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }), async (recalls) => {
        const qs = recalls.map((r, i) => question(i, r));
        const s = await compareRuns(qs, qs, 0.05);
        expect(s.verdict).toBe('none');
        expect(verdictSentence(s)).toMatch(/^No significant difference/);
      }),
      { numRuns: 30 },
    );
  });

  it('B better on every one of 30 questions is named, with its interval above zero; at α 0.01 too', async () => {
    const a = Array.from({ length: 30 }, (_, i) => question(i, 0.3 + (i % 5) * 0.05));
    const b = a.map((q) => question(q.index, q.metrics.recall + 0.2));
    const s = await compareRuns(a, b, 0.05);
    expect(s.verdict).toBe('b');
    expect(s.difference.recall.ci95[0]).toBeGreaterThan(0);
    expect(s.resamples).toBe(1000);
    expect(verdictSentence(s)).toMatch(/^B is better in Recall: B − A = \+20\.0 pp \(95% CI \+20\.0 pp to \+20\.0 pp\), p < 0\.0001 at α = 0\.05\.$/);
    expect((await compareRuns(a, b, 0.01)).verdict).toBe('b');
    expect((await compareRuns(b, a, 0.05)).verdict).toBe('a');
  });

  it('a small, mixed difference is "No significant difference", whatever the per-question counts say', async () => {
    // B higher on 6 of 10 questions by a little, lower on 4 by more: counting would call B the winner.
    const a = Array.from({ length: 10 }, (_, i) => question(i, 0.5));
    const b = a.map((q, i) => question(q.index, i < 6 ? 0.52 : 0.45));
    const s = await compareRuns(a, b, 0.05);
    expect(s.wins).toBe(6);
    expect(s.verdict).toBe('none');
  });

  it('sends only the figures the test reads', () => {
    const q = { ...question(3, 0.5), question: 'long text', retrieved: [1, 2, 3] } as ComparedQuestion;
    expect(Object.keys(comparedQuestions([q])[0]!).sort()).toEqual(['index', 'metrics', 'rankMetrics']);
  });
});
