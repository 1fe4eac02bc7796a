import { describe, expect, it } from 'vitest';
import { corpusBreakdown, setAsideSummary, shareText, spreadOf } from './corpora';
import type { QuestionMetrics } from './types';

const metrics = (recall: number): QuestionMetrics => ({ recall, precision: recall / 10, iou: recall / 10, precisionOmega: 0.5, hit: recall > 0 ? 1 : 0, reciprocalRank: recall > 0 ? 1 : 0, firstAnswerRank: recall > 0 ? 1 : null });

describe('a corpus evaluation', () => {
  it("gives each document its own means and the sample spread of those means (a document without questions: null, not in the spread)", () => {
    const docs = [{ id: 'a', chunks: [1, 2] }, { id: 'b', chunks: [1] }, { id: 'c', chunks: [] }] as never;
    const rank = (x: number) => ({ ndcg: x, averagePrecision: x });
    const out = corpusBreakdown(docs, [
      { document: 'a', metrics: metrics(1), rankMetrics: rank(1) },
      { document: 'a', metrics: metrics(0.5), rankMetrics: rank(0.5) },
      { document: 'b', metrics: metrics(0), rankMetrics: rank(0) },
    ]);
    expect(out.byDocument[0]!.rankMeans).toEqual({ ndcg: 0.75, map: 0.75 });
    expect(out.byDocument.map((d) => [d.document, d.questions, d.chunks, d.means?.recall ?? null])).toEqual([
      ['a', 2, 2, 0.75],
      ['b', 1, 1, 0],
      ['c', 0, 0, null],
    ]);
    expect(out.spread.documents).toBe(2);
    expect(out.spread.recall.mean).toBe(0.375);
    // sqrt(((0.75 - 0.375)² + (0 - 0.375)²) / 1)
    expect(out.spread.recall.std).toBeCloseTo(0.53033, 5);
    expect(spreadOf([0.4])).toEqual({ mean: 0.4, std: 0 });
  });

  it('summarizes the questions set aside in one line per cause', () => {
    const skipped = [
      ...Array.from({ length: 373 }, (_, i) => ({ index: i, question: 'q', reason: '', kind: 'unknown-corpus' as const, corpusId: ['pubmed', 'finance', 'chatlogs', 'wikitexts'][i % 4] })),
      { index: 400, question: 'q', reason: '', kind: 'no-answer' as const },
    ];
    expect(setAsideSummary(skipped, 1)).toEqual([
      '373 questions name corpora that are not open: chatlogs, finance, pubmed, wikitexts (set aside, not scored)',
      '1 question without answer spans set aside',
    ]);
  });

  it('never rounds a share up to every or down to none', () => {
    expect(shareText(0.995)).toBe('99.5%');
    expect(shareText(0.9996)).toBe('> 99.9%');
    expect(shareText(1)).toBe('100%');
    expect(shareText(0.0004)).toBe('< 0.1%');
    expect(shareText(0)).toBe('0%');
    expect(shareText(0.8935)).toBe('89.4%');
  });
});
