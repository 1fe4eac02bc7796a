import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { explainQuestion, type ExplainUnit } from './failures';

const unit = (start: number, end: number, index: number, rank: number | null, content = 'x', metadata: Record<string, unknown> = {}): ExplainUnit => ({
  start,
  end,
  rank,
  chunk: { index, size: end - start, text: content, content, metadata: { strategy: 'recursive', compat: 'none', unit: 'chars', ...metadata } as never },
});
const ref = (start: number, end: number, content = 'the answer') => ({ start, end, content });

describe('failures explained', () => {
  it('cut answer, both parts retrieved: says so, and that the cut cost no recall', () => {
    const f = explainQuestion({ references: [ref(15, 25)], units: [unit(0, 20, 0, 1), unit(20, 40, 1, 3)], k: 5, matchedCount: 9 });
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'cut-across-boundary', boundaries: [20], parts: [{ chunk: 0, start: 15, end: 20, rank: 1, retrieved: true }, { chunk: 1, start: 20, end: 25, rank: 3, retrieved: true }] });
    expect(f[0]!.message).toBe('the answer "the answer" is cut across chunks 0 and 1 (boundary at offset 20); both parts were retrieved (chunk 0 rank 1, chunk 1 rank 3), so the cut cost no recall');
  });

  it('cut answer, one part retrieved: which one, and where the other ranked', () => {
    const f = explainQuestion({ references: [ref(15, 25)], units: [unit(0, 20, 0, 2), unit(20, 40, 1, 9)], k: 5, matchedCount: 9 });
    expect(f.map((x) => x.message)).toEqual(['the answer "the answer" is cut across chunks 0 and 1 (boundary at offset 20); only the part in chunk 0 was retrieved (rank 2): chunk 1 ranked 9th']);
  });

  it('part retrieved, the rest only in a chunk below k (overlapping chunks): where the rest ranked', () => {
    const f = explainQuestion({ references: [ref(10, 20)], units: [unit(0, 15, 0, 1), unit(5, 30, 1, 9)], k: 5, matchedCount: 9 });
    expect(f.map((x) => x.message)).toEqual(['only part of the answer "the answer" was retrieved: the rest is in chunk 1, ranked 9th, below k = 5']);
  });

  it('ranked below k: at which rank', () => {
    const f = explainQuestion({ references: [ref(5, 10)], units: [unit(0, 20, 4, 12)], k: 5, matchedCount: 30 });
    expect(f).toEqual([{ kind: 'ranked-below-k', reference: 0, rank: 12, chunks: [4], message: 'the chunk holding the answer "the answer" (chunk 4) ranked 12th, below k = 5' }]);
  });

  it('near miss after the answer: the overlap that would have carried it there, measured in the chunk unit', () => {
    // The answer [10, 20) is in chunk 3 [0, 22) (ranked 8th); chunk 4 [22, 40), right after it, ranked 1st.
    const input = { references: [ref(10, 20)], units: [unit(0, 22, 3, 8)], neighbours: [unit(22, 40, 4, 1)], k: 5, matchedCount: 9, unitName: 'chars' };
    const f = explainQuestion(input).find((x) => x.kind === 'near-miss')!;
    expect(f).toMatchObject({ overlap: 12, neighbour: { chunk: 4, rank: 1, side: 'after' } });
    expect(f.message).toBe('chunk 4, right after the chunk holding the answer "the answer", was retrieved (1st): an overlap of 12 chars would have carried the missed part into it');
    // In tokens: the measure of [10, 22) is what counts (here 3 "words").
    const inWords = explainQuestion({ ...input, unitName: 'words', measure: () => 3 }).find((x) => x.kind === 'near-miss')!;
    expect(inWords.overlap).toBe(3);
    expect(explainQuestion({ ...input, sizeLimit: 10 }).find((x) => x.kind === 'near-miss')!.message).toMatch(/not below the size 10: the size would have to grow too/);
  });

  it('near miss before the answer: overlap would not help, and how far the answer runs past the neighbour', () => {
    const f = explainQuestion({ references: [ref(12, 20)], units: [unit(8, 30, 6, 9)], neighbours: [unit(0, 8, 5, 2)], k: 5, matchedCount: 9, unitName: 'chars' });
    expect(f.find((x) => x.kind === 'near-miss')).toMatchObject({ beyond: 12, neighbour: { chunk: 5, rank: 2, side: 'before' } });
  });

  it('no near miss when the neighbour was not retrieved or the answer was', () => {
    const kinds = (units: ExplainUnit[], neighbours: ExplainUnit[]) => explainQuestion({ references: [ref(10, 20)], units, neighbours, k: 5, matchedCount: 9 }).map((x) => x.kind);
    expect(kinds([unit(0, 22, 3, 8)], [unit(22, 40, 4, 7)])).not.toContain('near-miss');
    expect(kinds([unit(0, 22, 3, 2)], [unit(22, 40, 4, 1)])).toEqual([]);
  });

  it('vocabulary: the question matches the answer chunk only after stemming', () => {
    const f = explainQuestion({
      references: [ref(0, 10)],
      units: [unit(0, 40, 2, 7, 'We refund purchases within thirty days.')],
      k: 5,
      matchedCount: 9,
      question: 'How are refunds handled?',
      analyzer: { stopWords: 'none', stemming: false } as never,
    });
    const v = f.find((x) => x.kind === 'vocabulary-mismatch')!;
    expect(v).toMatchObject({ hint: 'stemming', words: ['refunds/refund'], chunks: [2] });
    expect(v.message).toBe('the question and the chunk holding the answer "the answer" share "refunds" / "refund" only after stemming: try --stemming (the lab\'s Stemming)');
    // With stemming on, no such hint.
    const on = explainQuestion({ references: [ref(0, 10)], units: [unit(0, 40, 2, 7, 'We refund purchases.')], k: 5, matchedCount: 9, question: 'How are refunds handled?', analyzer: { stopWords: 'none', stemming: true } as never });
    expect(on.some((x) => x.kind === 'vocabulary-mismatch')).toBe(false);
  });

  it('vocabulary: a retrieved chunk shares only stop words with the question, the answer chunk content words', () => {
    const f = explainQuestion({
      references: [ref(0, 10)],
      units: [unit(0, 40, 2, 7, 'Shop policy: no returns after a month.')],
      k: 5,
      matchedCount: 9,
      question: 'What is the policy of the shop?',
      analyzer: { stopWords: 'none', stemming: false } as never,
      retrieved: [{ rank: 1, chunk: 9, text: 'At the end of the day it is the time to go.' }],
    });
    const v = f.find((x) => x.hint === 'stop-words')!;
    expect(v.words).toEqual(['is', 'the', 'of']);
    expect(v.message).toBe('chunk 9 (rank 1) shares only stop words ("is", "the", "of") with the question, while the chunk holding the answer "the answer" shares "policy", "shop": try --stop-words english (the lab\'s Stop words)');
  });

  it('oversized chunk and table rows without their header', () => {
    const big = explainQuestion({ references: [ref(5, 10)], units: [unit(0, 900, 0, 1, 'x', { oversize: true })], k: 5, matchedCount: 1, sizeLimit: 512, unitName: 'chars' });
    expect(big.map((x) => x.kind)).toEqual(['oversized-chunk']);
    const rows = explainQuestion({ references: [ref(5, 10)], units: [unit(0, 40, 3, 1, '| 1 | 2 |\n| 3 | 4 |', { contentType: 'table' })], k: 5, matchedCount: 1 });
    expect(rows.map((x) => x.kind)).toEqual(['table-without-header']);
  });

  it('answer characters in no chunk: counted, and 99.5% is never "every"', () => {
    // 1 of 200 characters lies between two chunks, both retrieved: recall 99.5%, and it is said why.
    const f = explainQuestion({ references: [ref(0, 200)], units: [unit(0, 100, 0, 1), unit(101, 200, 1, 2)], k: 5, matchedCount: 2 });
    const outside = f.find((x) => x.kind === 'outside-chunks')!;
    expect(outside).toMatchObject({ characters: 1 });
    expect(outside.message).toBe('1 of the 200 characters of the answer "the answer" (0.5%) are in no chunk (dropped between chunks), so its recall stays below 100%');
  });
});

describe('failures explained by evaluate (the measure, the neighbours, the analyzer wired in)', () => {
  const p1 = 'Opening hours are nine to five on weekdays.';
  const p2 = 'The warranty covers parts for two whole years.';
  const p3 = 'Claims about warranty coverage go to the service desk.';
  const text = [p1, p2, p3].join('\n\n');

  it('a near miss: the chunk after the answer was retrieved; the overlap is computed in the chunk unit', async () => {
    const start = text.indexOf('parts');
    const q = [{ question: 'Where do claims about coverage go?', references: [{ start, end: start + 'parts for two whole years.'.length, content: 'parts for two whole years.' }] }];
    const r = await evaluate([{ id: 'd', text }], q, { size: 60, overlap: 0, chunksInContext: 1 });
    expect(r.questions[0]!.metrics.recall).toBe(0);
    const near = r.questions[0]!.failures.find((f) => f.kind === 'near-miss')!;
    expect(near).toMatchObject({ neighbour: { chunk: 2, rank: 1, side: 'after' }, overlap: text.indexOf(p3) - start });
  });

  it('a stemming hint from the question against the answer chunk', async () => {
    const start = text.indexOf(p1);
    const q = [{ question: 'hour weekday', references: [{ start, end: start + p1.length, content: p1 }] }];
    const r = await evaluate([{ id: 'd', text }], q, { size: 60, overlap: 0, chunksInContext: 1 });
    expect(r.questions[0]!.failures.map((f) => f.kind)).toEqual(['nothing-matched', 'vocabulary-mismatch']);
    expect(r.questions[0]!.failures[1]!.words).toEqual(['hour/hours', 'weekday/weekdays']);
  });
});
