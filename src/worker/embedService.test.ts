import { afterEach, describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { topicVector, TOPIC_DOC } from '../core/semantic/fixtures/topics';
import { querySimilarities } from '../embed/late';
import type { Embedder } from '../embed/types';
import type { EmbedMainApi } from './embedProtocol';
import { serveEmbedWorker } from './embedService';
import { inProcessWorker, type InProcessWorker } from './inProcess';
import { rpcClient } from './rpc';

/** A stand-in model: topic vectors; its tokens are the words, each with its own topic vector. */
function topicModel(id: string, maxTokens: number) {
  const counts = { embedTokens: 0 };
  const embedder: Embedder = {
    info: { id, label: 'Topics', dims: 3, maxTokens, backend: 'wasm' },
    embed: async (texts) => texts.map(topicVector),
    tokenize: () => [],
    embedTokens: async (text) => {
      counts.embedTokens++;
      const tokens = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
      return { tokens, vectors: tokens.map((t) => topicVector(text.slice(t.start, t.end))) };
    },
    dispose: async () => {},
  };
  return { embedder, counts };
}

let worker: InProcessWorker | null = null;
afterEach(() => worker?.terminate());

function serve(embedder: Embedder) {
  worker = inProcessWorker((end) => serveEmbedWorker(end, { threads: 1, isolated: false, load: async () => embedder }));
  worker.start?.();
  return rpcClient<EmbedMainApi>(worker);
}

describe('embedding worker: late', () => {
  it('answers querySimilarities (the tested late-chunking code), with the whole text’s token vectors kept per version', async () => {
    const { embedder, counts } = topicModel('Xenova/topics', 512);
    const rpc = serve(embedder);
    const chunks = await chunk(TOPIC_DOC, { strategy: 'sentence', size: 60, overlap: 0 });
    const starts = Int32Array.from(chunks, (c) => c.start);
    const ends = Int32Array.from(chunks, (c) => c.end);
    const input = { model: 'Xenova/topics', version: 1, text: TOPIC_DOC, starts, ends, query: '  the oven  ' };
    const answer = await rpc.call('late', input);
    const expected = await querySimilarities(embedder, 'the oven', TOPIC_DOC, chunks);
    expect(Array.from(answer.naive)).toEqual(Array.from(expected.naive));
    expect(Array.from(answer.late)).toEqual(Array.from(expected.late));
    expect(answer.note).toMatch(/reads 512 tokens at a time/);
    expect(counts.embedTokens).toBe(2); // the worker's call and `expected`'s
    await rpc.call('late', { ...input, query: 'a sail' });
    expect(counts.embedTokens).toBe(2); // same version: the kept token vectors
    await rpc.call('late', { ...input, version: 2 });
    expect(counts.embedTokens).toBe(3);
  });

  it('refuses an empty query; says why the built-in model shows no difference', async () => {
    const { embedder } = topicModel('builtin', Infinity);
    const rpc = serve(embedder);
    const input = { model: 'builtin', version: 1, text: TOPIC_DOC, starts: Int32Array.from([0]), ends: Int32Array.from([20]) };
    await expect(rpc.call('late', { ...input, query: '   ' })).rejects.toThrow('type a query');
    expect((await rpc.call('late', { ...input, query: 'boat' })).note).toMatch(/same by construction/);
  });
});
