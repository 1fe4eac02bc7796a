import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVAL_OPTIONS, optionSpec, RETRIEVERS } from '../optionTable';
import { Bm25Index } from './bm25/okapi';
import { denseRanking, EmbeddingCache } from './dense/embeddings';
import { reciprocalRankFusion } from './hybrid/fusion';
import { getRetriever, RETRIEVER_REGISTRY } from './registry';
import { termIds, terms, type Analyzer } from './tokenize';
import { ANALYZER_OPTIONS, type RetrieverSettings } from './types';

describe('the retriever registry', () => {
  it("is the option table's retriever choices, its default the first line", () => {
    expect(RETRIEVERS).toEqual(RETRIEVER_REGISTRY.map((r) => r.name));
    expect(optionSpec('retriever').choices).toEqual(RETRIEVERS);
    expect(optionSpec('retriever').default).toBe(RETRIEVER_REGISTRY[0].name);
    expect(new Set(RETRIEVERS).size).toBe(RETRIEVERS.length);
    expect(() => getRetriever('tfidf')).toThrow(/unknown retriever "tfidf"/);
  });

  it("puts each retriever's own rows among the option table's evaluation rows, after the retriever row, as declared", () => {
    const own = RETRIEVER_REGISTRY.flatMap((r) => r.options);
    expect(own.map((row) => row.name)).toEqual(['hybridWeight']);
    expect(EVAL_OPTIONS.map((o) => o.name)).toEqual(['chunksInContext', 'retriever', ...own.map((row) => row.name), ...ANALYZER_OPTIONS]);
    for (const row of own) {
      // The table's row is the declared one (nothing restated beside it), with a control so the lab can draw it.
      expect(optionSpec(row.name), row.name).toMatchObject({ ...row, engine: false, eval: true });
      expect(optionSpec(row.name).control, row.name).toBeDefined();
    }
  });

  it('says which retrievers need embeddings (BM25 alone rides along with a chunk job)', () => {
    expect(RETRIEVER_REGISTRY.filter((r) => !r.needsEmbeddings).map((r) => r.name)).toEqual(['bm25']);
    expect(RETRIEVER_REGISTRY.filter((r) => r.analyzer).map((r) => r.name)).toEqual(['bm25', 'hybrid']);
  });
});

/** A toy embedding: counts of a few letters (deterministic, sometimes all zero). */
const toyEmbed = async (texts: readonly string[]) => texts.map((t) => new Float32Array([...'aeiku'].map((c) => t.split(c).length - 1)));

describe('hybrid', () => {
  it('property: scores equal a literal fusion of BM25 (texts sharing a term) and the cosine ranking', async () => {
    const word = fc.constantFrom('keeper', 'lens', 'grain', 'the', 'cove', 'swim', 'prices', 'a', 'zzz');
    const text = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), text, fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), async (texts, question, w, stemming) => {
        const analyzer: Analyzer = { stopWords: 'none', stemming };
        const settings: RetrieverSettings = { retriever: 'hybrid', hybridWeight: w, ...analyzer, embedder: 'hybrid-property-toy' };
        const searcher = await getRetriever('hybrid').index({ texts, termIds: () => texts.map((t) => termIds(t, settings, [])), settings, embed: toyEmbed });
        const got = await searcher.scores(question);
        // The literal statement, from the parts alone.
        const bm25 = new Bm25Index(texts.map((t) => t), analyzer).scores(terms(question, analyzer));
        const lexical = [...bm25].map((score, index) => ({ index, score })).filter((s) => s.score > 0).sort((x, y) => y.score - x.score || x.index - y.index);
        // Vectors as the embedding cache gives them (blank texts: zero vectors; none at all when every text is blank).
        const cache = new EmbeddingCache('literal');
        const [q] = await cache.embed([question], toyEmbed);
        const dense = denseRanking(q!, await cache.embed(texts, toyEmbed));
        const want = new Float64Array(texts.length).fill(-Infinity);
        for (const f of reciprocalRankFusion([{ ranking: dense, weight: w }, { ranking: lexical, weight: 1 - w }])) if (f.score > 0) want[f.index] = f.score;
        expect([...got].map((s) => (s === -Infinity ? s : Math.round(s * 1e12)))).toEqual([...want].map((s) => (s === -Infinity ? s : Math.round(s * 1e12))));
      }),
      { numRuns: 150 },
    );
  });
});

describe("a retriever's printed configuration", () => {
  it('holds its own rows, the embedder when it embeds, the analyzer when it is lexical (in that order)', async () => {
    const { configurationOf, validateEvalOptions } = await import('../eval/index');
    const { validateOptions } = await import('../options');
    const resolved = validateOptions({ size: 100, overlap: 0 });
    const tail = (retriever: string) => {
      const keys = Object.keys(configurationOf(resolved, validateEvalOptions({ retriever, hybridWeight: 0.3 })));
      return keys.slice(keys.indexOf('retriever'));
    };
    expect(tail('bm25')).toEqual(['retriever', 'k', 'stopWords', 'stemming']);
    expect(tail('dense')).toEqual(['retriever', 'k', 'embedder']);
    expect(tail('hybrid')).toEqual(['retriever', 'k', 'hybridWeight', 'embedder', 'stopWords', 'stemming']);
  });
});
