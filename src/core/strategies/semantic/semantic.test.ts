import { describe, expect, it } from 'vitest';
import { analyseSemantic, buildChunks, chunk, getUnit, prepareSemantic, splitSemantic, validateOptions } from '../../index';
import { ChunkOptionsError } from '../../options';
import { semanticPrepareOptions, semanticSplitParams } from './split';
import { embedTopics as embed, TOPIC_DOC as doc } from '../../semantic/fixtures/topics';


describe('semantic strategy through chunk()', () => {
  it('cuts at the topic switch, with exact offsets and the distance before the cut', async () => {
    const chunks = await chunk(doc, { strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 }, { embed });
    expect(chunks.map((c) => c.text)).toEqual([
      'The boat has a deep keel. We sail at dawn. The boat heels in the wind. A sail tears.',
      'Bread needs time. The dough rises overnight. The oven must be hot. Bread cools on a rack.',
    ]);
    for (const c of chunks) expect(c.text).toBe(doc.slice(c.start, c.end));
    expect(chunks[0]!.metadata.distanceBefore).toBeUndefined();
    // Orthogonal topics (plus the small shared third component): 1 − cos ≈ 0.99.
    expect(chunks[1]!.metadata.distanceBefore).toBeCloseTo(1 - 0.01 / 1.01, 5);
    expect(chunks[1]!.metadata).toMatchObject({ strategy: 'semantic', compat: 'none', unit: 'chars' });
  });

  it('needs an embedder', async () => {
    await expect(chunk(doc, { strategy: 'semantic' })).rejects.toThrow(/hooks\.embed/);
  });

  it('buildChunks over the split steps gives the same chunks as chunk() (the page re-splits this way)', async () => {
    for (const options of [
      { strategy: 'semantic', buffer: 1, chunks: 3 },
      { strategy: 'semantic', compat: 'langchain', breakpoint: 'percentile', amount: 60 },
      { strategy: 'semantic', compat: 'llamaindex', unit: 'words', maxSize: 8 },
    ] as const) {
      const resolved = validateOptions(options);
      const unit = await getUnit(resolved.unit);
      const prep = prepareSemantic(doc, semanticPrepareOptions(resolved));
      const analysis = analyseSemantic(prep, await embed(prep.inputs.texts));
      const spans = splitSemantic(analysis, semanticSplitParams(resolved, unit)).spans;
      expect(buildChunks(doc, spans, resolved, unit)).toEqual(await chunk(doc, options, { embed }));
    }
  });

  it('puts the embedder and breakpoint settings in the chunk ids', async () => {
    const a = await chunk(doc, { strategy: 'semantic', chunks: 2 }, { embed });
    const b = await chunk(doc, { strategy: 'semantic', chunks: 2, embedder: 'Xenova/all-MiniLM-L6-v2' }, { embed });
    expect(a.map((c) => [c.start, c.end])).toEqual(b.map((c) => [c.start, c.end]));
    expect(a[0]!.id).not.toBe(b[0]!.id);
  });

  it('flags oversize only against maxSize', async () => {
    const chunks = await chunk(doc, { strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 }, { embed });
    expect(chunks.some((c) => c.size > 512 || c.metadata.oversize)).toBe(false);
    const capped = await chunk(doc, { strategy: 'semantic', maxSize: 30 }, { embed });
    for (const c of capped) expect(c.size <= 30 || c.metadata.oversize === true).toBe(true);
  });

  it('returns [] for blank text without embedding anything', async () => {
    let calls = 0;
    const counting = async (texts: string[]) => (calls++, embed(texts));
    expect(await chunk(' \n\t ', { strategy: 'semantic' }, { embed: counting })).toEqual([]);
    expect(calls).toBe(0);
  });
});

describe('semantic options', () => {
  const bad = (options: object): string => {
    try {
      validateOptions(options);
    } catch (err) {
      expect(err).toBeInstanceOf(ChunkOptionsError);
      expect((err as Error).message).not.toContain('\n');
      return (err as ChunkOptionsError).field;
    }
    throw new Error('expected a ChunkOptionsError');
  };

  it('resolves defaults', () => {
    expect(validateOptions({ strategy: 'semantic' })).toMatchObject({
      breakpoint: 'percentile',
      amount: null,
      chunks: null,
      buffer: 1,
      minSize: null,
      maxSize: null,
      embedder: 'builtin',
      sentences: 'intl',
      compat: 'none',
    });
  });

  it('accepts strings from the URL or CLI', () => {
    expect(validateOptions({ strategy: 'semantic', amount: '0.35', breakpoint: 'absolute', chunks: '4' } as object)).toMatchObject({
      amount: 0.35,
      chunks: 4,
    });
  });

  it('rejects bad values with one line naming the field', () => {
    expect(bad({ strategy: 'semantic', breakpoint: 'median' })).toBe('breakpoint');
    expect(bad({ strategy: 'semantic', amount: 101 })).toBe('amount');
    expect(bad({ strategy: 'semantic', breakpoint: 'gradient', amount: -1 })).toBe('amount');
    expect(bad({ strategy: 'semantic', breakpoint: 'standard_deviation', amount: -0.5 })).toBe('amount');
    expect(bad({ strategy: 'semantic', breakpoint: 'absolute' })).toBe('amount');
    expect(bad({ strategy: 'semantic', amount: 'lots' })).toBe('amount');
    expect(bad({ strategy: 'semantic', chunks: 0 })).toBe('chunks');
    expect(bad({ strategy: 'semantic', buffer: -1 })).toBe('buffer');
    expect(bad({ strategy: 'semantic', minSize: 50, maxSize: 10 })).toBe('minSize');
    expect(bad({ strategy: 'semantic', maxSize: 0 })).toBe('maxSize');
    expect(bad({ strategy: 'semantic', embedder: ' ' })).toBe('embedder');
    expect(bad({ strategy: 'semantic', sentences: 'nltk' })).toBe('sentences');
    expect(bad({ strategy: 'recursive', compat: 'llamaindex' })).toBe('compat');
    expect(bad({ strategy: 'semantic', size: 300 })).toBe('size');
    expect(bad({ strategy: 'semantic', overlap: 10 })).toBe('overlap');
  });

  it('allows both compat modes for semantic', () => {
    expect(validateOptions({ strategy: 'semantic', compat: 'llamaindex' }).compat).toBe('llamaindex');
    expect(validateOptions({ strategy: 'semantic', compat: 'langchain' }).compat).toBe('langchain');
  });
});
