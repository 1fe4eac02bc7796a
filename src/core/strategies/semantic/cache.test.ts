import { beforeEach, describe, expect, it } from 'vitest';
import { documentCache } from '../../documentCache';
import { chunk } from '../../index';
import type { ChunkDetail } from '../../types';
import { topicVector, TOPIC_DOC as doc } from '../../semantic/fixtures/topics';


beforeEach(() => documentCache.clear());

describe('semantic chunking and the document cache', () => {
  it('a new threshold, mode, target or size re-splits without embedding again; new sentences embed again', async () => {
    const calls: number[] = [];
    const embed = async (texts: string[]) => (calls.push(texts.length), texts.map(topicVector));
    const details: ChunkDetail[] = [];
    const onDetail = (d: ChunkDetail) => details.push(d);
    await chunk(doc, { strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 }, { embed, onDetail });
    expect(calls).toEqual([8]);
    for (const options of [
      { breakpoint: 'absolute', amount: 0.2 },
      { breakpoint: 'percentile', amount: 50 },
      { chunks: 3 },
      { minSize: 40, maxSize: 100 },
    ] as const) {
      await chunk(doc, { strategy: 'semantic', buffer: 0, ...options }, { embed, onDetail });
    }
    expect(calls).toEqual([8]);
    expect(details.map((d) => d.semantic!.cached)).toEqual([false, true, true, true, true]);
    expect(details.every((d) => d.semantic!.embedded === 8 && d.semantic!.distances.length === 7)).toBe(true);
    expect(details[0]!.semantic!.breakpoints).toEqual([3]);
    expect(details[0]!.semantic!.sentences[4]).toEqual({ start: doc.indexOf('Bread'), end: doc.indexOf('Bread') + 'Bread needs time.'.length });

    await chunk(doc, { strategy: 'semantic', buffer: 1 }, { embed }); // other windows: embedded
    await chunk(doc + ' More bread.', { strategy: 'semantic', buffer: 0 }, { embed }); // another document
    expect(calls).toEqual([8, 8, 9]);
  });

  it('never mixes the vectors of two embed functions, nor of two embedders', async () => {
    const flat = async (texts: string[]) => texts.map(() => Float32Array.of(1, 0, 0));
    const topical = async (texts: string[]) => texts.map(topicVector);
    const options = { strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 } as const;
    expect(await chunk(doc, options, { embed: topical })).toHaveLength(2);
    expect(await chunk(doc, options, { embed: flat })).toHaveLength(1);
    let embedded = 0;
    const counting = async (texts: string[]) => ((embedded += texts.length), texts.map(topicVector));
    await chunk(doc, options, { embed: counting });
    await chunk(doc, { ...options, embedder: 'Xenova/all-MiniLM-L6-v2' }, { embed: counting });
    expect(embedded).toBe(16);
  });

  it('an embedding that fails or is cancelled leaves nothing behind', async () => {
    const signal = { aborted: false };
    const embed = async (texts: string[]) => ((signal.aborted = true), texts.map(topicVector));
    await expect(chunk(doc, { strategy: 'semantic' }, { embed, signal })).rejects.toMatchObject({ name: 'AbortError' });
    let calls = 0;
    await chunk(doc, { strategy: 'semantic' }, { embed: async (t) => (calls++, embed(t).then(() => t.map(topicVector))) });
    expect(calls).toBe(1);
  });
});
