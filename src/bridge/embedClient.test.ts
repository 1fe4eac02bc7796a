import { describe, expect, it } from 'vitest';
import type { EmbedRequest, EmbedResponse, SemanticPayload } from '../worker/embedProtocol';
import { StaleJobError } from './chunkClient';
import { EmbedClient, EmbedJobError, type EmbedWorkerLike } from './embedClient';

/** A stand-in for the embedding worker: records requests; the test answers as the real worker would. */
class ScriptedWorker implements EmbedWorkerLike {
  sent: EmbedRequest[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent<EmbedResponse>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  postMessage(message: EmbedRequest) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  reply(message: EmbedResponse) {
    this.onmessage?.({ data: message } as MessageEvent<EmbedResponse>);
  }
  jobs() {
    return this.sent.filter((m): m is Extract<EmbedRequest, { type: 'semantic' }> => m.type === 'semantic').map((m) => m.jobId);
  }
}

const semantic: SemanticPayload = {
  distances: Float64Array.of(0.2),
  values: Float64Array.of(0.2),
  comparedWith: 'distance',
  threshold: 0.1,
  breakpoints: Int32Array.of(0),
  sentenceStarts: Int32Array.of(0, 4),
  sentenceEnds: Int32Array.of(3, 7),
  notes: [],
  embedder: { id: 'builtin', label: 'Built-in', dims: 100, maxTokens: Infinity, backend: 'wasm', threads: 1, isolated: true },
  embedMs: 1,
  splitMs: 0.1,
  sentencesEmbedded: 2,
};

function result(jobId: number): EmbedResponse {
  return {
    type: 'result',
    jobId,
    version: 1,
    starts: Int32Array.of(0, 4),
    ends: Int32Array.of(3, 7),
    sizes: Float64Array.of(3, 3),
    overlaps: Int32Array.of(0),
    oversize: new Uint8Array(2),
    contentDiffers: new Uint8Array(2),
    stats: { count: 2, min: 3, median: 3, mean: 3, max: 3, overLimit: 0 },
    limit: 0,
    unit: 'chars',
    elapsedMs: 1,
    semantic,
  };
}

function setup() {
  const workers: ScriptedWorker[] = [];
  const client = new EmbedClient(() => {
    const w = new ScriptedWorker();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

describe('embedding client', () => {
  it('starts the worker only when a semantic job comes, and gives it the current document', () => {
    const { client, workers } = setup();
    client.setDocument(3, 'abc. def.');
    expect(workers).toHaveLength(0);
    void client.semantic({ strategy: 'semantic' }, { allowRemote: false });
    expect(workers).toHaveLength(1);
    expect(workers[0]!.sent[0]).toEqual({ type: 'document', version: 3, text: 'abc. def.' });
  });

  it('lets the newest job win: an older one rejects as stale and its late result is never delivered', async () => {
    const { client, workers } = setup();
    const first = client.semantic({ strategy: 'semantic', amount: 90 }, { allowRemote: false });
    const second = client.semantic({ strategy: 'semantic', amount: 80 }, { allowRemote: false });
    await expect(first).rejects.toBeInstanceOf(StaleJobError);
    const [a, b] = workers[0]!.jobs();
    workers[0]!.reply(result(a!));
    workers[0]!.reply(result(b!));
    await expect(second).resolves.toMatchObject({ jobId: b, semantic: { threshold: 0.1 } });
  });

  it('cancels the running embedding by job id instead of killing the worker', async () => {
    const { client, workers } = setup();
    const job = client.semantic({ strategy: 'semantic' }, { allowRemote: false });
    client.cancel();
    const jobId = workers[0]!.jobs()[0]!;
    expect(workers[0]!.sent.at(-1)).toEqual({ type: 'cancel', jobId });
    expect(workers[0]!.terminated).toBe(false);
    workers[0]!.reply({ type: 'error', jobId, message: 'Embedding cancelled', invalidOptions: false, cancelled: true });
    const error = await job.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedJobError);
    expect((error as EmbedJobError).cancelled).toBe(true);
  });

  it('a worker that dies fails its job with a clear message and the next job starts a fresh worker', async () => {
    const { client, workers } = setup();
    client.setDocument(1, 'x. y.');
    const job = client.semantic({ strategy: 'semantic' }, { allowRemote: false });
    workers[0]!.onerror?.({ message: 'Out of memory', preventDefault() {} } as ErrorEvent);
    await expect(job).rejects.toThrow(/ran out of memory/);
    expect(workers[0]!.terminated).toBe(true);
    void client.semantic({ strategy: 'semantic' }, { allowRemote: false });
    expect(workers).toHaveLength(2);
    expect(workers[1]!.sent[0]).toEqual({ type: 'document', version: 1, text: 'x. y.' });
  });

  it('reports download progress and a hub fallback to the job that asked', async () => {
    const { client, workers } = setup();
    const seen: string[] = [];
    const job = client.semantic({ strategy: 'semantic', embedder: 'Xenova/all-MiniLM-L6-v2' }, { allowRemote: true }, {
      onDownload: (file, loaded, total) => seen.push(`${file} ${loaded}/${total}`),
      onFallback: (message) => seen.push(message),
    });
    const jobId = workers[0]!.jobs()[0]!;
    workers[0]!.reply({ type: 'download', jobId, file: 'onnx/model_quantized.onnx', loaded: 10, total: 100 });
    workers[0]!.reply({ type: 'fallback', jobId, message: 'offline — using the built-in model instead.' });
    workers[0]!.reply({ type: 'error', jobId, message: 'could not load', invalidOptions: false });
    await expect(job).rejects.toThrow('could not load');
    expect(seen).toEqual(['onnx/model_quantized.onnx 10/100', 'offline — using the built-in model instead.']);
  });
});
