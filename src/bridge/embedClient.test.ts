import { afterEach, describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import type { Embedder } from '../embed/types';
import { serveChunkWorker } from '../worker/chunkService';
import { serveEmbedWorker, type EmbedRuntime } from '../worker/embedService';
import { clearMemoryCache } from '../worker/embeddingCache';
import type { Endpoint } from '../worker/rpc';
import { ChunkClient, ChunkJobError, StaleJobError, type WorkerLike } from './chunkClient';
import { EmbedClient } from './embedClient';
import { topicVector, embedTopics, TOPIC_DOC as doc } from '../core/semantic/fixtures/topics';
import { inProcessWorker } from '../worker/inProcess';

/**
 * The page's two clients on the real worker services (chunkService.ts runs core's chunk(); embedService.ts embeds),
 * each "worker" a MessageChannel in this process, the chunk worker reaching the embedding worker over its own port as
 * in the page. Only the model is a stand-in: topic vectors, optionally slow.
 */


const open: { close(): void }[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
  clearMemoryCache(); // the embedding worker's vectors: each test embeds afresh
});

/** A "worker": the page end of a channel whose other end `serve` serves (closed after each test). */
function channelWorker(serve: (end: Endpoint) => void): WorkerLike & { terminated: boolean } {
  const worker = inProcessWorker(serve);
  open.push({ close: () => worker.terminate() });
  return worker;
}

interface Model {
  texts: number;
  /** Milliseconds per text (a slow model, to cancel). */
  delayMs: number;
}

function runtime(model: Model, load?: EmbedRuntime['load']): EmbedRuntime {
  const embedder: Embedder = {
    info: { id: 'builtin', label: 'Topics', dims: 3, maxTokens: Infinity, backend: 'wasm' },
    async embed(texts, options) {
      const out: Float32Array[] = [];
      for (const [i, t] of texts.entries()) {
        if (model.delayMs) await new Promise((r) => setTimeout(r, model.delayMs));
        options?.onProgress?.((i + 1) / texts.length);
        if (options?.signal?.aborted) throw new Error('embedding cancelled');
        out.push(topicVector(t));
        model.texts++;
      }
      return out;
    },
    tokenize: (text) => Array.from(text.matchAll(/\S+/g), (m) => ({ start: m.index, end: m.index + m[0].length })),
    embedTokens: async () => ({ tokens: [], vectors: [] }),
    dispose: async () => {},
  };
  return { threads: 1, isolated: false, load: load ?? (async () => embedder) };
}

function setup(model: Model = { texts: 0, delayMs: 0 }, load?: EmbedRuntime['load']) {
  const embedWorkers: ReturnType<typeof channelWorker>[] = [];
  const embed = new EmbedClient(() => {
    const w = channelWorker((end) => serveEmbedWorker(end, runtime(model, load)));
    embedWorkers.push(w);
    return w;
  });
  const chunks = new ChunkClient(() => channelWorker((end) => serveChunkWorker(end)), {
    restartAfterMs: 5_000,
    embedPort: () => {
      const port = embed.port();
      open.push(port);
      return port;
    },
    onEmbedderNeeded: () => embed.ensure(),
  });
  open.push({ close: () => chunks.dispose() });
  chunks.setDocument(1, doc);
  return { chunks, embed, embedWorkers, model };
}

const semantic = { strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 } as const;

describe('embedding client', () => {
  it('starts the worker only when a semantic job comes; the page gets the chunks chunk() makes, and the curve', async () => {
    const { chunks, embed, embedWorkers } = setup();
    await chunks.chunk({ strategy: 'recursive', size: 40 });
    expect(embedWorkers).toHaveLength(0);
    const result = await chunks.chunk(semantic);
    expect(embedWorkers).toHaveLength(1);
    expect(embed.started).toBe(true);
    const expected = await chunk(doc, semantic, { embed: embedTopics });
    expect(Array.from(result.starts)).toEqual(expected.map((c) => c.start));
    expect(Array.from(result.ends)).toEqual(expected.map((c) => c.end));
    expect(result.semantic).toMatchObject({ comparedWith: 'distance', threshold: 0.5, notes: [], sentencesEmbedded: 8 });
    expect(Array.from(result.semantic!.breakpoints)).toEqual([3]);
    expect(result.semantic!.distances).toHaveLength(7);
    expect(result.semantic!.sentenceStarts[4]).toBe(doc.indexOf('Bread'));
    expect(result.semantic!.embedder).toMatchObject({ label: 'Topics', backend: 'wasm', threads: 1 });
  });

  it('a new threshold, mode or target re-splits without embedding again', async () => {
    const { chunks, model } = setup();
    await chunks.chunk(semantic);
    expect(model.texts).toBe(8);
    for (const options of [{ amount: 0.1 }, { breakpoint: 'percentile', amount: 50 }, { chunks: 3 }, { minSize: 30 }] as const) {
      const r = await chunks.chunk({ ...semantic, ...options });
      expect(r.semantic!.distances).toHaveLength(7);
    }
    expect(model.texts).toBe(8);
  });

  it('lets the newest job win: an older one rejects as stale and its result is never delivered', async () => {
    const { chunks } = setup({ texts: 0, delayMs: 5 });
    const first = chunks.chunk({ ...semantic, amount: 0.9 });
    const second = chunks.chunk({ ...semantic, amount: 0.1 });
    await expect(first).rejects.toBeInstanceOf(StaleJobError);
    await expect(second).resolves.toMatchObject({ jobId: chunks.latestJobId, semantic: { threshold: 0.1 } });
    expect(chunks.restarts).toBe(0); // the older job only waited on embeddings: it stopped without a restart
  });

  it('cancels the running embedding by job id instead of killing the worker', async () => {
    const { chunks, embed, embedWorkers } = setup({ texts: 0, delayMs: 20 });
    const progress: string[] = [];
    embed.events.onProgress = (p) => progress.push(`${p.jobId} ${p.stage}`);
    const job = chunks.chunk(semantic);
    await expect.poll(() => progress.some((p) => p.endsWith('embedding'))).toBe(true);
    await embed.cancel(chunks.latestJobId);
    const error = await job.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkJobError);
    expect((error as ChunkJobError).cancelled).toBe(true);
    expect(embedWorkers).toHaveLength(1);
    expect(embedWorkers[0]!.terminated).toBe(false);
    expect(progress[0]).toBe(`${chunks.latestJobId} loading`);
  });

  it('a worker that dies fails its job with a clear message and the next job starts a fresh worker', async () => {
    const { chunks, embed, embedWorkers } = setup({ texts: 0, delayMs: 20 });
    embed.events.onCrash = (message) => chunks.reconnectEmbedder(message);
    const job = chunks.chunk(semantic);
    await expect.poll(() => embedWorkers.length).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    embedWorkers[0]!.onerror?.({ message: 'Out of memory', preventDefault() {} } as ErrorEvent);
    await expect(job).rejects.toThrow(/ran out of memory/);
    expect(embedWorkers[0]!.terminated).toBe(true);
    const next = await chunks.chunk({ ...semantic, amount: 0.4 });
    expect(embedWorkers).toHaveLength(2);
    expect(next.semantic!.breakpoints).toHaveLength(1);
  });

  it('reports download progress and a hub fallback to the job that asked', async () => {
    const seen: string[] = [];
    const { chunks, embed } = setup({ texts: 0, delayMs: 0 }, async (_model, { onDownloadProgress }) => {
      onDownloadProgress({ file: 'onnx/model_quantized.onnx', loaded: 10, total: 100 });
      throw new Error('offline');
    });
    embed.events.onDownload = (d) => seen.push(`${d.jobId} ${d.file} ${d.loaded}/${d.total}`);
    embed.events.onFallback = (f) => seen.push(`${f.jobId} ${f.message}`);
    const job = chunks.chunk({ ...semantic, embedder: 'Xenova/all-MiniLM-L6-v2' });
    await expect(job).rejects.toThrow('Could not load Xenova/all-MiniLM-L6-v2: offline');
    const id = chunks.latestJobId;
    // Events come on the embedding worker's own channel, the failure through the chunk worker: either may be first.
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([`${id} onnx/model_quantized.onnx 10/100`, `${id} Offline — using the built-in model instead.`]);
  });

  it('exports and counts tokens of a semantic job in the chunk worker, and the model tokens on the way', async () => {
    const { chunks } = setup();
    const r = await chunks.chunk(semantic);
    const json = JSON.parse(await chunks.exportChunks(r.jobId, 1, semantic, 'json')) as { start: number }[];
    expect(json.map((c) => c.start)).toEqual(Array.from(r.starts));
    const t = await chunks.tokens(r.jobId);
    expect(t.tokens).toHaveLength(r.starts.length);
    const m = await chunks.embedderTokens(r.jobId);
    expect(Array.from(m.counts)).toEqual([19, 17]); // words in the stand-in tokenizer
    expect(Array.from(m.truncatedAt)).toEqual([-1, -1]);
  });
});
