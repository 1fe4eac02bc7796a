import { describe, expect, it } from 'vitest';
import type { Chunk } from '../types';
import { Bm25Index } from './bm25/okapi';
import { EmbeddingCache, cosine } from './dense/embeddings';
import { reciprocalRankFusion } from './hybrid/fusion';
import { RetrievalIndex } from './index';
import { porterStem } from './porter';
import { terms, wordRuns } from './tokenize';

describe('BM25 (Okapi, k1 1.2, b 0.75)', () => {
  // Three texts, lengths 3, 6, 3 (avgdl 4). idf(cat) = ln(1 + 2.5/1.5) = 0.980829, idf(sat) = ln(1 + 1.5/2.5) = 0.470004.
  // d0: each term tf 1, |d| 3: tf·2.2 / (1 + 1.2·(0.25 + 0.75·3/4)) = 2.2 / 1.975 = 1.113924
  //     score = (0.980829 + 0.470004) · 1.113924 = 1.616118
  // d1: sat tf 1, |d| 6: 2.2 / (1 + 1.2·(0.25 + 0.75·6/4)) = 2.2 / 2.65 = 0.830189; score = 0.470004 · 0.830189 = 0.390192
  const index = new Bm25Index(['The cat sat', 'the dog sat on the mat', 'Cats and dogs']);

  it('scores a hand-computed example', () => {
    expect(index.avgLength).toBe(4);
    expect(index.idf('cat')).toBeCloseTo(0.980829, 6);
    expect(index.idf('sat')).toBeCloseTo(0.470004, 6);
    const hits = index.search('cat sat?');
    expect(hits.map((h) => h.index)).toEqual([0, 1]); // d2 shares no word: not returned
    expect(hits[0]!.score).toBeCloseTo(1.616118, 5);
    expect(hits[1]!.score).toBeCloseTo(0.390192, 5);
  });

  it('counts a repeated question word twice, and saturates term frequency', () => {
    // "the the": d0 tf 1 |d| 3 → 2 · 0.470004 · 1.113924 = 1.047097; d1 tf 2 |d| 6 → 2 · 0.470004 · 2·2.2/(2 + 1.65) = 1.133159
    const hits = index.search('the the');
    expect(hits.map((h) => [h.index, Number(h.score.toFixed(5))])).toEqual([
      [1, 1.13316],
      [0, 1.0471],
    ]);
  });

  it('never gives a negative idf (a word in every text still counts a little)', () => {
    const all = new Bm25Index(['a b', 'a c', 'a d']);
    expect(all.idf('a')).toBeGreaterThan(0);
    expect(all.search('a').length).toBe(3);
    expect(all.search('zzz')).toEqual([]);
  });

  it('stop words and stemming are off by default and selectable', () => {
    expect(terms('The Running dogs')).toEqual(['the', 'running', 'dogs']);
    expect(terms('The Running dogs', { stopWords: 'english', stemming: false })).toEqual(['running', 'dogs']);
    expect(terms('The Running dogs', { stopWords: 'english', stemming: true })).toEqual(['run', 'dog']);
    const stemmed = new Bm25Index(['the cat sat', 'cats and dogs'], { stopWords: 'none', stemming: true });
    expect(stemmed.search('cat').map((h) => h.index)).toEqual([0, 1]);
  });
});

describe('words', () => {
  it('are lower-cased runs of Unicode letters, marks and digits', () => {
    expect(terms('Élan 42x, naïve—café; ΣΟΦΙΑ 日本語')).toEqual(['élan', '42x', 'naïve', 'café', 'σοφια', '日本語']);
    expect(wordRuns('ab cd', 1, 4)).toEqual([
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ]);
  });
});

describe("Porter's stemmer", () => {
  it("gives the paper's stems", () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['plastered', 'plaster'],
      ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'], ['hopping', 'hop'], ['falling', 'fall'],
      ['filing', 'file'], ['happy', 'happi'], ['relational', 'relat'], ['conditional', 'condit'], ['digitizer', 'digit'],
      ['vietnamization', 'vietnam'], ['decisiveness', 'decis'], ['hopefulness', 'hope'], ['sensibiliti', 'sensibl'],
      ['triplicate', 'triplic'], ['electrical', 'electr'], ['goodness', 'good'], ['allowance', 'allow'], ['adjustment', 'adjust'],
      ['adoption', 'adopt'], ['effective', 'effect'], ['probate', 'probat'], ['rate', 'rate'], ['controll', 'control'],
      ['generalizations', 'gener'], ['oscillators', 'oscil'], ['president', 'presid'], ['running', 'run'],
    ];
    for (const [word, stem] of cases) expect(porterStem(word), word).toBe(stem);
  });
});

describe('reciprocal rank fusion (k = 60)', () => {
  it('adds weight / (60 + rank) over the rankings', () => {
    const fused = reciprocalRankFusion([
      { ranking: [{ index: 1, score: 9 }, { index: 2, score: 5 }], weight: 0.5 },
      { ranking: [{ index: 2, score: 0.9 }, { index: 3, score: 0.1 }], weight: 0.5 },
    ]);
    expect(fused.map((f) => f.index)).toEqual([2, 1, 3]);
    expect(fused[0]!.score).toBeCloseTo(0.5 / 62 + 0.5 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(0.5 / 61, 12);
  });
});

function chunkOf(text: string, start: number, end: number, index: number, metadata: Partial<Chunk['metadata']> = {}): Chunk {
  return {
    index,
    start,
    end,
    text: text.slice(start, end),
    content: text.slice(start, end),
    size: end - start,
    id: `c${index}`,
    metadata: { strategy: 'recursive', compat: 'none', unit: 'chars', ...metadata } as Chunk['metadata'],
  };
}

describe('the retrieval index', () => {
  const text = 'Apples are red. Bananas are yellow.\n\nCherries are red too. Dates are brown.';
  it('matches children and returns each parent once (parent–child)', async () => {
    const p0 = chunkOf(text, 0, 35, 0, { level: 0, leaf: false });
    const p1 = chunkOf(text, 37, text.length, 3, { level: 0, leaf: false });
    const chunks = [
      p0,
      chunkOf(text, 0, 15, 1, { level: 1, leaf: true, parentId: 'c0' }),
      chunkOf(text, 16, 35, 2, { level: 1, leaf: true, parentId: 'c0' }),
      { ...p1, index: 3, id: 'c3' },
      chunkOf(text, 37, 58, 4, { level: 1, leaf: true, parentId: 'c3' }),
      chunkOf(text, 59, text.length, 5, { level: 1, leaf: true, parentId: 'c3' }),
    ];
    chunks.forEach((c, i) => (c.index = i));
    const index = await RetrievalIndex.build([{ id: 'fruit', text, chunks }], { retriever: 'bm25', hybridWeight: 0.5, stopWords: 'none', stemming: false, retrieval: 'parent-child' });
    expect(index.indexedCount).toBe(4);
    const hits = await index.rank('red apples and cherries');
    expect(hits.map((h) => [index.units[h.unit]!.start, index.units[h.unit]!.end])).toEqual([
      [0, 35],
      [37, text.length],
    ]);
    expect(hits[0]!.matched.map((m) => m.chunk)).toEqual([1]);
  });

  it('matches sentences and returns their windows', async () => {
    const chunks = [chunkOf(text, 0, 15, 0, { window: { start: 0, end: 35 } }), chunkOf(text, 59, text.length, 1, { window: { start: 37, end: text.length } })];
    const index = await RetrievalIndex.build([{ id: 'fruit', text, chunks }], { retriever: 'bm25', hybridWeight: 0.5, stopWords: 'none', stemming: false, retrieval: 'window' });
    const [hit] = await index.search('brown dates', 1);
    expect(index.units[hit!.unit]).toMatchObject({ start: 37, end: text.length, chunk: null });
  });

  it('dense and hybrid rank by cosine over cached embeddings of chunk content', async () => {
    const calls: string[][] = [];
    // A toy embedding: counts of a, e, r.
    const embed = async (texts: string[]) => {
      calls.push(texts);
      return texts.map((t) => new Float32Array([...'aer'].map((c) => t.split(c).length - 1)));
    };
    const chunks = [chunkOf(text, 0, 15, 0), chunkOf(text, 16, 35, 1)];
    const settings = { retriever: 'dense' as const, hybridWeight: 0.5, stopWords: 'none' as const, stemming: false, embedder: 'toy-test-model' };
    const index = await RetrievalIndex.build([{ id: 'f', text, chunks }], settings, { embed });
    const hits = await index.rank('aaaa');
    expect(hits[0]!.score).toBeCloseTo(cosine(new Float32Array([4, 0, 0]), new Float32Array([...'aer'].map((c) => chunks[hits[0]!.unit]!.text.split(c).length - 1))), 6);
    await RetrievalIndex.build([{ id: 'f', text, chunks }], settings, { embed });
    expect(calls.flat().filter((t) => t === chunks[0]!.content)).toHaveLength(1); // cached per (model, text)
    const hybrid = await RetrievalIndex.build([{ id: 'f', text, chunks }], { ...settings, retriever: 'hybrid' }, { embed });
    expect((await hybrid.rank('yellow bananas'))[0]!.unit).toBe(1);
  });

  it('the embedding cache embeds only texts it has not seen, once each', async () => {
    let n = 0;
    const cache = new EmbeddingCache('m');
    const embed = async (texts: string[]) => ((n += texts.length), texts.map(() => new Float32Array([1, 0])));
    await cache.embed(['a', 'b', 'a', '  '], embed);
    await cache.embed(['b', 'c'], embed);
    expect(n).toBe(3);
    expect((await cache.embed(['  '], embed))[0]).toEqual(new Float32Array(0));
  });
});
