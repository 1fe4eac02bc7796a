import { describe, expect, it } from 'vitest';
import {
  LANGCHAIN_CHUNK_COUNT_CASES,
  LANGCHAIN_FAKE_EMBEDDINGS,
  LANGCHAIN_GRADIENT_CASES,
  LANGCHAIN_MIN_CHUNK_CASES,
  LANGCHAIN_MODE_CASES,
  LANGCHAIN_SAMPLE_DISTANCES,
  LANGCHAIN_SAMPLE_TEXT,
  LLAMAINDEX_MOCK_EMBEDDINGS,
  LLAMAINDEX_TEXT,
} from './fixtures/upstream';
import { BREAKPOINT_DEFAULTS, percentileForChunkCount, thresholdOf, ValueStats } from './breakpoints';
import { npGradient } from './numpy';
import { langchainSentences } from './sentences';
import { analyseSemantic, chunkSemantic, prepareSemantic, splitSemantic, type SemanticParams } from './splitter';

/** LangChain's MockEmbeddings: the first len(texts) fake rows, whatever the texts. */
function langchainRun(text: string, params: SemanticParams = {}) {
  const prep = prepareSemantic(text, { compat: 'langchain' });
  const analysis = analyseSemantic(prep, LANGCHAIN_FAKE_EMBEDDINGS.slice(0, prep.inputs.texts.length));
  return { prep, analysis, result: splitSemantic(analysis, params) };
}

function firstSentences(n: number): string {
  return langchainSentences(LANGCHAIN_SAMPLE_TEXT)
    .slice(0, n)
    .map((r) => LANGCHAIN_SAMPLE_TEXT.slice(r.start, r.end))
    .join(' ');
}

describe('LangChain SemanticChunker compatibility (upstream fake embeddings)', () => {
  it('computes the same distances as numpy', () => {
    const { analysis } = langchainRun(LANGCHAIN_SAMPLE_TEXT);
    expect(analysis.distances).toHaveLength(6);
    analysis.distances.forEach((d, i) => expect(d).toBeCloseTo(LANGCHAIN_SAMPLE_DISTANCES[i]!, 15));
  });

  it("given numpy's distances, every threshold is numpy's to the last bit", () => {
    // Distances themselves can differ from numpy's in the last bit: np.dot goes through BLAS (here OpenBLAS, which
    // accumulates with fused multiply-adds); the statistics on top of them are reproduced exactly.
    const d = Float64Array.from(LANGCHAIN_SAMPLE_DISTANCES);
    const distances = new ValueStats(d);
    const gradient = new ValueStats(npGradient(d));
    for (const { breakpoint, threshold } of LANGCHAIN_MODE_CASES) {
      const amount = BREAKPOINT_DEFAULTS[breakpoint];
      expect(thresholdOf(breakpoint, amount, breakpoint === 'gradient' ? gradient : distances)).toBe(threshold);
    }
    expect(distances.percentile(50)).toBe(0.1054238599975395);
    for (const { k, threshold } of LANGCHAIN_CHUNK_COUNT_CASES) {
      expect(distances.percentile(percentileForChunkCount(k, d.length))).toBe(threshold);
    }
  });

  it.each(LANGCHAIN_GRADIENT_CASES)('gradient, first $sentences sentences -> $chunks chunks', ({ sentences, chunks }) => {
    const { result } = langchainRun(firstSentences(sentences), { breakpoint: 'gradient' });
    expect(result.spans).toHaveLength(chunks);
  });

  it.each(LANGCHAIN_MIN_CHUNK_CASES)('percentile 50, min_chunk_size $min -> $chunks chunks', ({ min, chunks, lengths }) => {
    const { result } = langchainRun(LANGCHAIN_SAMPLE_TEXT, { breakpoint: 'percentile', amount: 50, minSize: min });
    expect(result.spans).toHaveLength(chunks);
    expect(result.spans.map((s) => s.content!.length)).toEqual(lengths);
    expect(result.threshold).toBeCloseTo(0.1054238599975395, 15);
  });

  it.each(LANGCHAIN_MODE_CASES)('$breakpoint with its default amount', ({ breakpoint, threshold, chunks }) => {
    const { result } = langchainRun(LANGCHAIN_SAMPLE_TEXT, { breakpoint });
    expect(result.threshold).toBeCloseTo(threshold, 15);
    expect(result.spans).toHaveLength(chunks);
    expect(result.comparedWith).toBe(breakpoint === 'gradient' ? 'gradient' : 'distance');
  });

  it.each(LANGCHAIN_CHUNK_COUNT_CASES)('number_of_chunks $k', ({ k, threshold, chunks }) => {
    const { result } = langchainRun(LANGCHAIN_SAMPLE_TEXT, { chunks: k });
    expect(result.threshold).toBeCloseTo(threshold, 15);
    expect(result.spans).toHaveLength(chunks);
  });

  it("chunks are the sentences joined with ' '; offsets are the source span", () => {
    const text = 'Alpha one.  Alpha two.\nBeta one.   Beta two.';
    const prep = prepareSemantic(text, { compat: 'langchain', bufferSize: 0 });
    // Sentences 1-2 alike, 3-4 alike: the only large gap is between 2 and 3.
    const analysis = analyseSemantic(prep, [[1, 0], [1, 0.1], [0, 1], [0.1, 1]]);
    const { spans } = splitSemantic(analysis, { breakpoint: 'absolute', amount: 0.5 });
    expect(spans.map((s) => s.content)).toEqual(['Alpha one. Alpha two.', 'Beta one. Beta two.']);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Alpha one.  Alpha two.', 'Beta one.   Beta two.']);
    expect(spans[1]!.gapBefore).toBe(1);
    expect(spans[1]!.distanceBefore).toBeCloseTo(1 - 0.1 / Math.sqrt(1.01), 15);
  });

  it('returns a one-sentence text as it is, empty text included', () => {
    expect(langchainRun('No sentence end here').result.spans).toMatchObject([{ start: 0, end: 20, content: 'No sentence end here' }]);
    expect(langchainRun('').result.spans).toMatchObject([{ start: 0, end: 0, content: '' }]);
  });
});

describe('LlamaIndex SemanticSplitterNodeParser compatibility (upstream mock embedding)', () => {
  const embed = (texts: string[]) =>
    texts.map((t) => {
      const v = LLAMAINDEX_MOCK_EMBEDDINGS[t.trim()];
      if (!v) throw new Error(`no mock embedding for ${JSON.stringify(t)}`);
      return v;
    });

  it('test_grouped_semantically: one node with the whole text', () => {
    const prep = prepareSemantic(LLAMAINDEX_TEXT, { compat: 'llamaindex' });
    const { spans, distances } = splitSemantic(analyseSemantic(prep, embed(prep.inputs.texts)));
    // windows [1,1,0], [1,1,1], [0,1,1]: both distances are 1 - 2/sqrt(6), equal, so none is above the 95th percentile
    expect(Array.from(distances)).toEqual([1 - 2 / (Math.sqrt(2) * Math.sqrt(3)), 1 - 2 / (Math.sqrt(3) * Math.sqrt(2))]);
    expect(spans).toHaveLength(1);
    expect(LLAMAINDEX_TEXT.slice(spans[0]!.start, spans[0]!.end)).toBe(LLAMAINDEX_TEXT);
    expect(spans[0]!.content).toBeUndefined(); // content is the source span itself
  });

  it.each(['', '   \n\t '])('test_blank_document_produces_no_nodes %j: no nodes, nothing embedded', async (text) => {
    const batches: string[][] = [];
    const result = await chunkSemantic(text, (texts) => (batches.push(texts), embed(texts)), { compat: 'llamaindex' });
    expect(result.spans).toEqual([]);
    expect(batches).toEqual([]);
  });

  it('test_blank_document_does_not_affect_other_documents: the Hobbits text after a blank one', async () => {
    expect((await chunkSemantic('  ', embed, { compat: 'llamaindex' })).spans).toEqual([]);
    const { spans } = await chunkSemantic(LLAMAINDEX_TEXT, embed, { compat: 'llamaindex' });
    expect(spans.map((s) => LLAMAINDEX_TEXT.slice(s.start, s.end))).toEqual([LLAMAINDEX_TEXT]);
  });

  it('chunks concatenate back to the text from its first sentence', () => {
    const text = '  First topic here. Still first.  Second topic now! More second.\n';
    const prep = prepareSemantic(text, { compat: 'llamaindex', bufferSize: 0 });
    expect(prep.inputs.texts).toHaveLength(4);
    const { spans } = splitSemantic(analyseSemantic(prep, [[1, 0], [1, 0.1], [0, 1], [0.1, 1]]), { amount: 50 });
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['First topic here. Still first.  ', 'Second topic now! More second.\n']);
    expect(spans.map((s) => text.slice(s.start, s.end)).join('')).toBe(text.slice(2));
  });
});
