import { afterEach, describe, expect, it } from 'vitest';
import { orphanBits } from '../core/describe';
import { validateEvalOptions } from '../core/eval/index';
import { chunk, formatChunks } from '../core/index';
import { topicVector, TOPIC_DOC } from '../core/semantic/fixtures/topics';
import { detectLanguageWindows } from '../core/languageWindows';
import { multilingual } from '../ui/samples/multilingual';
import { serveChunkWorker } from './chunkService';
import { inProcessWorker, type InProcessWorker } from './inProcess';
import type { EmbedderSummary, EmbedPortApi } from './embedProtocol';
import type { ChunkWorkerApi } from './protocol';
import { rpcClient, rpcServe, type Endpoint } from './rpc';

let worker: InProcessWorker | null = null;
afterEach(() => worker?.terminate());

function connect() {
  worker = inProcessWorker((end) => serveChunkWorker(end));
  worker.start?.();
  return rpcClient<ChunkWorkerApi>(worker);
}

describe('chunk worker token counts', () => {
  it('carry the document’s language windows, found once and sent whole with every job’s counts', async () => {
    const rpc = connect();
    await rpc.call('document', { version: 1, text: multilingual });
    const expected = detectLanguageWindows(multilingual);
    for (const [jobId, size] of [[1, 200], [2, 400]] as const) {
      await rpc.call('chunk', { jobId, version: 1, options: { strategy: 'recursive', size, overlap: 0, unit: 'chars' } });
      const counts = (await rpc.call('tokens', { jobId }))!;
      // The second job's windows are the memo's, whole: the first answer transferred copies, not the memo's arrays.
      expect(counts.languages).toEqual(expected);
      expect(counts.words).toHaveLength(counts.tokens.length);
    }
  });

  it('a new document’s orphan flags come with the token counts; every later job on it carries its own at once', async () => {
    const rpc = connect();
    // A text no other test segments (the sentence edges are kept per document in core's cache).
    const text = multilingual + '\n\nOrphans, flagged once per document. Then at once.';
    await rpc.call('document', { version: 1, text });
    const options = (size: number) => ({ strategy: 'recursive', size, overlap: 0, unit: 'chars' }) as const;
    const expected = async (size: number) => orphanBits(text, await chunk(text, options(size)));
    const first = await rpc.call('chunk', { jobId: 1, version: 1, options: options(120) });
    expect(first.orphans).toBeUndefined();
    const counts = (await rpc.call('tokens', { jobId: 1 }))!;
    expect(Array.from(counts.orphans!)).toEqual(Array.from(await expected(120)));
    expect(counts.orphans!.some((bits) => bits !== 0)).toBe(true);
    const second = await rpc.call('chunk', { jobId: 2, version: 1, options: options(300) });
    expect(Array.from(second.orphans!)).toEqual(Array.from(await expected(300)));
    expect((await rpc.call('tokens', { jobId: 2 }))!.orphans).toBeUndefined();
  });
});

// ---- Every message of the chunk worker's API, through the served worker (protocol.ts) ----

const RECURSIVE = { strategy: 'recursive', size: 60, overlap: 0, unit: 'chars' } as const;
const SEMANTIC = { strategy: 'semantic', embedder: 'builtin', buffer: 0, breakpoint: 'absolute', amount: 0.5 } as const;

/** The served worker with its events, and a stand-in embedding worker (topic vectors) on a MessagePort. */
function connectWithEmbedder(options: { hold?: boolean } = {}) {
  const events: { name: string; data: { jobId: number } }[] = [];
  worker = inProcessWorker((end) => serveChunkWorker(end));
  const rpc = rpcClient<ChunkWorkerApi>(worker, (name, data) => events.push({ name, data: data as { jobId: number } }));
  const embedCalls: number[] = [];
  const held: (() => void)[] = [];
  const channel = new MessageChannel();
  rpcServe<EmbedPortApi>(channel.port2 as unknown as Endpoint, {
    embed: async ({ jobId, texts }) => {
      embedCalls.push(jobId);
      if (options.hold) await new Promise<void>((resolve) => held.push(resolve));
      const vectors = new Float32Array(texts.length * 3);
      texts.forEach((t, i) => vectors.set(topicVector(t), i * 3));
      return { vectors, dims: 3, embedder: SUMMARY };
    },
    info: async () => SUMMARY,
    tokenize: async ({ text }) => {
      // One token per word.
      const words = [...text.matchAll(/\S+/g)];
      return { starts: Int32Array.from(words, (m) => m.index), ends: Int32Array.from(words, (m) => m.index + m[0].length) };
    },
  });
  const connect = () => rpc.call('connectEmbedder', { port: channel.port1 as unknown as MessagePort }, { transfer: [channel.port1 as unknown as Transferable] });
  return { rpc, events, embedCalls, held, connect, close: () => channel.port2.close() };
}

const SUMMARY: EmbedderSummary = { id: 'builtin', label: 'Topics', dims: 3, maxTokens: 6, backend: 'wasm', threads: 1, isolated: false };

describe('chunk worker messages', () => {
  it('document in parts, then chunk: the job runs on the whole document, offsets and stats as core gives them', async () => {
    const { rpc, events } = connectWithEmbedder();
    const half = Math.floor(TOPIC_DOC.length / 2);
    await rpc.call('document', { version: 1, text: TOPIC_DOC.slice(0, half), more: true });
    await rpc.call('document', { version: 1, text: TOPIC_DOC.slice(half) });
    const result = await rpc.call('chunk', { jobId: 1, version: 1, options: RECURSIVE });
    const expected = await chunk(TOPIC_DOC, RECURSIVE);
    expect(Array.from(result.starts)).toEqual(expected.map((c) => c.start));
    expect(Array.from(result.ends)).toEqual(expected.map((c) => c.end));
    expect(result).toMatchObject({ jobId: 1, version: 1, limit: 60, unit: 'chars', stats: { count: expected.length } });
    expect(result.semantic).toBeUndefined();
    expect(events.filter((e) => e.name === 'embedder')).toEqual([]);
  });

  it('chunk with invalid options fails with the field named', async () => {
    const { rpc } = connectWithEmbedder();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    await expect(rpc.call('chunk', { jobId: 1, version: 1, options: { ...RECURSIVE, size: -5 } })).rejects.toMatchObject({
      name: 'ChunkJobFailure',
      data: { invalidOptions: true, field: 'size' },
    });
  });

  it('chunk: the newest job wins; a running job waiting on embeddings stops when a newer one arrives', async () => {
    const { rpc, held, connect } = connectWithEmbedder({ hold: true });
    await connect();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    const running = rpc.call('chunk', { jobId: 1, version: 1, options: SEMANTIC });
    await expect.poll(() => held.length).toBe(1);
    const newer = rpc.call('chunk', { jobId: 2, version: 1, options: RECURSIVE });
    await expect(running).rejects.toMatchObject({ name: 'ChunkJobFailure', message: 'job 1 was superseded' });
    await expect(newer).resolves.toMatchObject({ jobId: 2 });
  });

  it('chunk: a job queued behind other work is dropped when a newer one arrived before it started', async () => {
    const { rpc, held, connect } = connectWithEmbedder({ hold: true });
    await connect();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    // A dense golden-set run waits on the lab's embeddings (a newer chunk job does not stop those).
    const settings = validateEvalOptions({ retriever: 'dense', chunksInContext: 2 });
    const evaluating = rpc.call('evaluate', { options: RECURSIVE, questions: [], settings, summary: true });
    await expect.poll(() => held.length).toBe(1);
    const queued = rpc.call('chunk', { jobId: 2, version: 1, options: RECURSIVE });
    const newest = rpc.call('chunk', { jobId: 3, version: 1, options: RECURSIVE });
    await new Promise((r) => setTimeout(r, 10));
    held.forEach((release) => release());
    await expect(evaluating).resolves.not.toBeNull();
    await expect(queued).rejects.toMatchObject({ name: 'ChunkJobFailure', message: 'job 2 was superseded' });
    await expect(newest).resolves.toMatchObject({ jobId: 3 });
  });

  it('connectEmbedder, then a semantic chunk job: embeddings over the port, the curve and the model’s summary', async () => {
    const { rpc, events, embedCalls, connect } = connectWithEmbedder();
    await connect();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    const result = await rpc.call('chunk', { jobId: 1, version: 1, options: SEMANTIC });
    expect(embedCalls).toEqual([1]);
    expect(events).toContainEqual({ name: 'embedder', data: { jobId: 1 } });
    expect(result.semantic!.embedder).toEqual(SUMMARY);
    expect(Array.from(result.semantic!.breakpoints)).toEqual([3]); // boats | bread
    expect(result.semantic!.distances).toHaveLength(7);
  });

  it('supersede: a job waiting on embeddings stops at once', async () => {
    const { rpc, held, connect } = connectWithEmbedder({ hold: true });
    await connect();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    const waiting = rpc.call('chunk', { jobId: 1, version: 1, options: SEMANTIC });
    await expect.poll(() => held.length).toBe(1);
    await rpc.call('supersede', { jobId: 1 });
    await expect(waiting).rejects.toMatchObject({ name: 'ChunkJobFailure', message: 'job 1 was superseded' });
  });

  it('embedderTokens: each chunk’s length in the model’s tokens and where it stops reading; null when not semantic', async () => {
    const { rpc, connect } = connectWithEmbedder();
    await connect();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    const result = await rpc.call('chunk', { jobId: 1, version: 1, options: SEMANTIC });
    const tokens = (await rpc.call('embedderTokens', { jobId: 1 }))!;
    const words = Array.from(result.starts, (start, i) => TOPIC_DOC.slice(start, result.ends[i]!).match(/\S+/g)!.length);
    expect(Array.from(tokens.counts)).toEqual(words); // the built-in model adds no special tokens
    // maxTokens 6: a chunk of more words stops at its seventh word.
    Array.from(tokens.truncatedAt).forEach((at, i) => {
      if (words[i]! <= 6) expect(at).toBe(-1);
      else expect(TOPIC_DOC.slice(result.starts[i]!, at).match(/\S+/g)).toHaveLength(6);
    });
    expect(tokens.truncatedAt.some((at) => at >= 0)).toBe(true);
    await rpc.call('chunk', { jobId: 2, version: 1, options: RECURSIVE });
    expect(await rpc.call('embedderTokens', { jobId: 2 })).toBeNull();
    expect(await rpc.call('embedderTokens', { jobId: 1 })).toBeNull(); // no longer the last job
  });

  it('tokens: null for a job that is not the last one', async () => {
    const { rpc } = connectWithEmbedder();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    await rpc.call('chunk', { jobId: 1, version: 1, options: RECURSIVE });
    await rpc.call('chunk', { jobId: 2, version: 1, options: { ...RECURSIVE, size: 90 } });
    expect(await rpc.call('tokens', { jobId: 1 })).toBeNull();
    expect((await rpc.call('tokens', { jobId: 2 }))!.jobId).toBe(2);
  });

  it('export: the last job’s chunks, the same chunks again for an older job on the same version, a refusal after an edit', async () => {
    const { rpc } = connectWithEmbedder();
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    await rpc.call('chunk', { jobId: 1, version: 1, options: RECURSIVE });
    const expected = formatChunks(await chunk(TOPIC_DOC, RECURSIVE), 'json');
    expect(await rpc.call('export', { jobId: 1, version: 1, options: RECURSIVE, format: 'json' })).toBe(expected);
    await rpc.call('chunk', { jobId: 2, version: 1, options: { ...RECURSIVE, size: 90 } });
    expect(await rpc.call('export', { jobId: 1, version: 1, options: RECURSIVE, format: 'json' })).toBe(expected);
    await rpc.call('document', { version: 2, text: TOPIC_DOC + ' More.' });
    await expect(rpc.call('export', { jobId: 2, version: 1, options: RECURSIVE, format: 'json' })).rejects.toThrow(/document changed/);
  });

  it('probe and evaluate: the lab over the last job’s chunks (null for another job); a probe riding on a chunk job', async () => {
    const { rpc } = connectWithEmbedder();
    const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 2 });
    await rpc.call('document', { version: 1, text: TOPIC_DOC });
    const result = await rpc.call('chunk', { jobId: 1, version: 1, options: RECURSIVE, probe: { query: 'bread oven', settings } });
    expect(result.probe!.hits[0]!.kind).toBe('chunk');
    expect(TOPIC_DOC.slice(result.probe!.hits[0]!.start, result.probe!.hits[0]!.end)).toMatch(/oven|Bread/);
    const probed = await rpc.call('probe', { jobId: 1, query: 'bread oven', settings });
    expect(probed!.hits).toEqual(result.probe!.hits);
    expect(await rpc.call('probe', { jobId: 9, query: 'bread', settings })).toBeNull();
    const answer = 'The dough rises overnight.';
    const at = TOPIC_DOC.indexOf(answer);
    const questions = [{ question: 'when does the dough rise', references: [{ start: at, end: at + answer.length, content: answer }] }];
    const evaluated = await rpc.call('evaluate', { jobId: 1, questions, settings });
    expect(evaluated!.result.questions).toHaveLength(1);
    const best = evaluated!.result.questions[0]!.retrieved[0]!;
    expect(best.start < at + answer.length && best.end > at).toBe(true); // the best chunk holds part of the answer
    expect(await rpc.call('evaluate', { jobId: 9, questions, settings })).toBeNull();
  });
});
