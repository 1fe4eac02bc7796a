import { describe, expect, it } from 'vitest';
import { CHUNKER_VERSION, chunk, chunkOverlaps, chunkStats, documentIdFor, LANGUAGE_PRESETS, STRATEGIES, UNIT_NAMES, validateOptions } from './index';

describe('chunk()', () => {
  const text = 'Alpha beta gamma. Delta epsilon zeta.\n\nEta theta iota kappa. Lambda mu.';

  it('returns chunks with the contract fields', async () => {
    const chunks = await chunk(text, { size: 40, overlap: 10 });
    expect(chunks.length).toBeGreaterThan(1);
    chunks.forEach((c, i) => {
      expect(Object.keys(c).sort()).toEqual(['content', 'end', 'id', 'index', 'metadata', 'size', 'start', 'text']);
      expect(c.index).toBe(i);
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.content).toBe(c.text);
      expect(c.size).toBe(c.text.length);
      expect(c.metadata).toEqual({
        strategy: 'recursive',
        compat: 'none',
        unit: 'chars',
        documentId: documentIdFor(text),
        position: i,
        chunker: 'chunkscope',
        chunkerVersion: CHUNKER_VERSION,
      });
      expect(c.id).toMatch(/^[0-9a-z]{11}$/);
    });
  });

  it('returns [] for empty or whitespace-only text in native modes', async () => {
    // Semantic needs an embedder even for blank text (it is never called then).
    const embed = async (): Promise<Float32Array[]> => {
      throw new Error('blank text must not be embedded');
    };
    for (const strategy of STRATEGIES.map((s) => s.id)) {
      expect(await chunk('', { strategy }, { embed })).toEqual([]);
      expect(await chunk(' \n\t\r\n ', { strategy }, { embed })).toEqual([]);
    }
  });

  it('gives stable ids from document, configuration and span', async () => {
    const a = await chunk(text, { size: 40, overlap: 10 });
    const b = await chunk(text, { size: 40, overlap: 10 });
    expect(b.map((c) => c.id)).toEqual(a.map((c) => c.id));
    expect(new Set(a.map((c) => c.id)).size).toBe(a.length);
    // Another configuration with the same first span still gives that chunk another id.
    const other = await chunk(text, { size: 40, overlap: 5 });
    expect(other[0]!.start).toBe(a[0]!.start);
    expect(other[0]!.end).toBe(a[0]!.end);
    expect(other[0]!.id).not.toBe(a[0]!.id);
    // The default document id is a hash of the text; an explicit one is used as given.
    const explicit = await chunk(text, { size: 40, overlap: 10, documentId: documentIdFor(text) });
    expect(explicit.map((c) => c.id)).toEqual(a.map((c) => c.id));
    const renamed = await chunk(text, { size: 40, overlap: 10, documentId: 'handbook.md' });
    expect(renamed[0]!.id).not.toBe(a[0]!.id);
  });

  it('ignores options the strategy does not use when deriving ids', async () => {
    const plain = await chunk(text, { strategy: 'fixed', size: 30, overlap: 0 });
    const withSeparators = await chunk(text, { strategy: 'fixed', size: 30, overlap: 0, separators: ['x'], keepSeparator: 'end' });
    expect(withSeparators.map((c) => c.id)).toEqual(plain.map((c) => c.id));
  });

  it('flags oversize chunks in metadata and only those', async () => {
    const chunks = await chunk('short\n\nwaytoolongforthesize\n\nok', { strategy: 'character', size: 6, overlap: 0 });
    expect(chunks.map((c) => c.metadata.oversize)).toEqual([undefined, true, undefined]);
  });

  it('reports progress up to 1 and stops with an AbortError when asked', async () => {
    const doc = 'Some words in a sentence. '.repeat(20_000);
    const fractions: number[] = [];
    await chunk(doc, { size: 200, overlap: 20 }, { onProgress: (f) => fractions.push(f) });
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);

    const signal = { aborted: false };
    const run = chunk(doc, { size: 200, overlap: 20 }, { signal, onProgress: () => (signal.aborted = true) });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('validates options before doing any work', async () => {
    await expect(chunk('text', { size: 10, overlap: 10 })).rejects.toMatchObject({
      name: 'ChunkOptionsError',
      field: 'overlap',
      message: 'overlap (10) must be smaller than size (10)',
    });
  });

  it('routes compat mode to the LangChain reproduction', async () => {
    // Whatever the compat module returns (or throws while it is being built), native splitting is not used.
    const result = await chunk('a b c', { compat: 'langchain', size: 3, overlap: 0 }).catch((e: Error) => e);
    if (result instanceof Error) expect(result.message).toMatch(/langchain|not implemented/i);
    else for (const c of result) expect(c.metadata.compat).toBe('langchain');
  });

  it('exports the registry, presets, unit names and option validation', () => {
    expect(STRATEGIES.map((s) => s.id).sort()).toEqual(['character', 'code', 'fixed', 'html', 'markdown', 'paragraph', 'recursive', 'semantic', 'sentence', 'token']);
    for (const s of STRATEGIES) {
      expect(s.label).not.toBe('');
      expect(s.description).not.toBe('');
      expect(validateOptions({ strategy: s.id }).strategy).toBe(s.id); // its defaults are valid
    }
    expect(UNIT_NAMES).toEqual(expect.arrayContaining(['chars', 'words', 'cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base']));
    expect(LANGUAGE_PRESETS.markdown![0]).toBe('\n## ');
  });
});

describe('chunkOverlaps and chunkStats', () => {
  it('computes overlaps from offsets, gaps count as zero', () => {
    expect(chunkOverlaps([{ start: 0, end: 10 }, { start: 8, end: 20 }, { start: 25, end: 30 }])).toEqual([2, 0]);
    expect(chunkOverlaps([])).toEqual([]);
    expect(chunkOverlaps([{ start: 0, end: 1 }])).toEqual([]);
  });

  it('summarises sizes against the limit', () => {
    expect(chunkStats([3, 1, 2, 10], 5)).toEqual({ count: 4, min: 1, median: 2.5, mean: 4, max: 10, overLimit: 1 });
    expect(chunkStats([7, 5, 6], 6)).toEqual({ count: 3, min: 5, median: 6, mean: 6, max: 7, overLimit: 1 });
    expect(chunkStats([], 5)).toEqual({ count: 0, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 });
  });
});
