import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../core/types';
import type { EmbedderSummary, EmbedPortApi } from './embedProtocol';
import { BUILTIN_MODEL, EmbeddingPort, settingsFor } from './embeddingPort';
import { embedderTokenCounts } from './embedderTokens';
import { JobQueue } from './jobQueue';
import { rpcServe, type Endpoint } from './rpc';

const summary = (maxTokens: number): EmbedderSummary => ({
  id: 'm',
  label: 'M',
  dims: 2,
  maxTokens,
  backend: 'wasm',
  threads: 1,
  isolated: false,
});

/** A stand-in embedding worker on a MessageChannel: records calls; `hold` keeps embed calls waiting. */
function fakeEmbeddingWorker() {
  const channel = new MessageChannel();
  const calls: { method: string; input: { jobId?: number; model: string; texts?: string[]; settings?: unknown } }[] = [];
  const held: (() => void)[] = [];
  const state = { hold: false, summary: summary(8) };
  rpcServe<EmbedPortApi>(channel.port2 as unknown as Endpoint, {
    embed: async (input) => {
      calls.push({ method: 'embed', input });
      if (state.hold) await new Promise<void>((resolve) => held.push(resolve));
      const vectors = Float32Array.from(input.texts.flatMap((t) => [t.length, 1]));
      return { vectors, dims: 2, embedder: state.summary };
    },
    info: async (input) => (calls.push({ method: 'info', input }), state.summary),
    tokenize: async (input) => {
      calls.push({ method: 'tokenize', input });
      return { starts: Int32Array.from([0, 4]), ends: Int32Array.from([3, 9]) };
    },
  });
  return { port: channel.port1 as unknown as Endpoint, calls, held, state, close: () => (channel.port1.close(), channel.port2.close()) };
}

const open: { close(): void }[] = [];
afterEach(() => open.splice(0).forEach((w) => w.close()));

function setUp() {
  const jobs = new JobQueue();
  const announced: number[] = [];
  const port = new EmbeddingPort(jobs, (jobId) => announced.push(jobId));
  const worker = fakeEmbeddingWorker();
  open.push(worker);
  port.connect(worker.port);
  return { jobs, port, worker, announced };
}

describe('EmbeddingPort', () => {
  it('embed for a chunk job: the running job’s id, the model’s settings, one vector per text; the page is told first', async () => {
    const { jobs, port, worker, announced } = setUp();
    jobs.arrived(3);
    jobs.begin(3, true);
    const vectors = await port.embedFor('Xenova/model')(['ab', 'cde']);
    expect(vectors.map((v) => Array.from(v))).toEqual([[2, 1], [3, 1]]);
    expect(worker.calls[0]).toEqual({ method: 'embed', input: { jobId: 3, model: 'Xenova/model', texts: ['ab', 'cde'], settings: { allowRemote: true } } });
    expect(announced).toEqual([3]);
    // The summary the call reported is kept: no info call needed.
    expect(port.knownSummary('Xenova/model')).toEqual(worker.state.summary);
    expect(await port.summaryOf('Xenova/model', 3, new AbortController().signal)).toEqual(worker.state.summary);
    expect(worker.calls.filter((c) => c.method === 'info')).toHaveLength(0);
  });

  it('one embed function per model and binding (core’s cache keys on its identity)', () => {
    const { port } = setUp();
    expect(port.embedFor('builtin')).toBe(port.embedFor('builtin'));
    expect(port.embedFor('builtin', 'lab')).toBe(port.embedFor('builtin', 'lab'));
    expect(port.embedFor('builtin')).not.toBe(port.embedFor('builtin', 'lab'));
    expect(port.embedFor('builtin')).not.toBe(port.embedFor('other'));
  });

  it('a chunk job’s embedding stops when a newer job arrives; without a running job it does not start', async () => {
    const { jobs, port, worker } = setUp();
    await expect(port.embedFor('builtin')(['a'])).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.calls).toHaveLength(0);
    worker.state.hold = true;
    jobs.arrived(1);
    jobs.begin(1, true);
    const waiting = port.embedFor('builtin')(['a']);
    await expect.poll(() => worker.calls.length).toBe(1);
    jobs.arrived(2);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('the lab’s embeddings carry the newest job id and are not stopped by a newer job', async () => {
    const { jobs, port, worker, announced } = setUp();
    worker.state.hold = true;
    jobs.arrived(4);
    const waiting = port.embedFor('local/mine', 'lab')(['abc']);
    await expect.poll(() => worker.calls.length).toBe(1);
    jobs.arrived(5);
    jobs.supersede(5);
    worker.held.forEach((release) => release());
    expect((await waiting).map((v) => Array.from(v))).toEqual([[3, 1]]);
    expect(worker.calls[0]!.input).toMatchObject({ jobId: 4, settings: { allowRemote: false } });
    expect(announced).toEqual([4]);
  });

  it('info: asked once per model, then known', async () => {
    const { port, worker } = setUp();
    const signal = new AbortController().signal;
    expect(await port.summaryOf('builtin', 1, signal)).toEqual(worker.state.summary);
    expect(await port.summaryOf('builtin', 2, signal)).toEqual(worker.state.summary);
    expect(worker.calls.filter((c) => c.method === 'info')).toEqual([{ method: 'info', input: { jobId: 1, model: 'builtin', settings: { allowRemote: false } } }]);
  });

  it('tokenize: once per model and document version', async () => {
    const { port, worker } = setUp();
    const signal = new AbortController().signal;
    const first = await port.tokensOf('m', 1, 'abc defgh', signal);
    expect(Array.from(first.starts)).toEqual([0, 4]);
    await port.tokensOf('m', 1, 'abc defgh', signal);
    await port.tokensOf('m', 2, 'abc defgh', signal);
    await port.tokensOf('n', 2, 'abc defgh', signal);
    expect(worker.calls.filter((c) => c.method === 'tokenize').map((c) => c.input.model)).toEqual(['m', 'm', 'n']);
  });

  it('connectEmbedder: a new port fails the calls waiting on the old one with the reason; later calls use the new one', async () => {
    const { jobs, port, worker } = setUp();
    worker.state.hold = true;
    const waiting = port.embedFor('builtin', 'lab')(['a']);
    await expect.poll(() => worker.calls.length).toBe(1);
    const next = fakeEmbeddingWorker();
    open.push(next);
    port.connect(next.port, 'the embedding worker crashed');
    await expect(waiting).rejects.toThrow('the embedding worker crashed');
    jobs.begin(1, true);
    await port.embedFor('builtin')(['z']);
    expect(next.calls).toHaveLength(1);
  });

  it('without a port, calls fail with a one-line reason', async () => {
    const port = new EmbeddingPort(new JobQueue(), () => {});
    await expect(port.embedFor('builtin', 'lab')(['a'])).rejects.toThrow('no embedding worker is connected');
  });

  it('only hub models may be downloaded', () => {
    expect(settingsFor(BUILTIN_MODEL).allowRemote).toBe(false);
    expect(settingsFor('local/folder').allowRemote).toBe(false);
    expect(settingsFor('Xenova/all-MiniLM-L6-v2').allowRemote).toBe(true);
  });
});

describe('embedderTokenCounts', () => {
  const text = 'one two three four five';
  const tokens = { starts: Int32Array.from([0, 4, 8, 14, 19]), ends: Int32Array.from([3, 7, 13, 18, 23]) };
  const chunkAt = (start: number, end: number): Chunk => ({ text: text.slice(start, end), content: text.slice(start, end), start, end }) as Chunk;

  it('counts each chunk’s tokens (with the model’s special tokens) and finds where the model stops reading', () => {
    const chunks = [chunkAt(0, 13), chunkAt(14, 23)];
    const all = embedderTokenCounts(chunks, tokens, BUILTIN_MODEL, Infinity);
    expect(Array.from(all.counts)).toEqual([3, 2]); // the built-in model adds no special tokens
    expect(Array.from(all.truncatedAt)).toEqual([-1, -1]);
    const hub = embedderTokenCounts(chunks, tokens, 'some/unknown-model', 4); // 2 special tokens: 2 words fit
    expect(Array.from(hub.counts)).toEqual([5, 4]);
    expect(Array.from(hub.truncatedAt)).toEqual([8, -1]); // where "three", the first word it does not read, starts
  });

  it('leaves out a token cut by the chunk’s end', () => {
    const counts = embedderTokenCounts([chunkAt(0, 10)], tokens, BUILTIN_MODEL, Infinity);
    expect(Array.from(counts.counts)).toEqual([2]);
  });
});
