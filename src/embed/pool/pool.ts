import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Range } from '../../core/types';
import { createEmbedder } from '../index';
import type { CreateEmbedderOptions, EmbedCallOptions, Embedder, EmbedderInfo } from '../types';

/**
 * Hub models in Node embedded by a pool of threads, one model per thread, sized to the cores: the tokenizer
 * (JavaScript) and onnxruntime's session run in parallel on different batches. The built-in model gains nothing
 * from this (its direct path is a table lookup): use createEmbedder for it (node.ts chooses).
 *
 * This thread loads the model first and is the pool's first thread: tokenize() is synchronous, embedTokens() and
 * an embed() of one batch run here, and a model that cannot be loaded fails before any worker starts. Worker threads
 * start on the first embed() whose work would outlast their start (timed on its first batch, `minWorkMs`), no more
 * than there are batches (`workers` counts this thread), and join the work when their model is loaded. Every thread's onnxruntime session has one thread (the pool is the parallelism).
 *
 * embed() embeds each distinct text once, sorted by length as one embedder sorts them (so each batch pads the same
 * texts together and the vectors are bit-identical to one embedder's), in batches of `batchTexts` taken in turn by
 * whichever thread is free, and puts the vectors back in the caller's order. A worker that fails on a batch (an
 * error, a crash) fails the call with one line; one that cannot load its model drops out.
 */

export interface EmbedderPoolOptions extends CreateEmbedderOptions {
  /** Threads at most, this one included (default: the cores this process may use; 1 = only this thread). */
  workers?: number;
  /** Texts per message to a worker (default 64: a multiple of the ONNX path's batch of 16). */
  batchTexts?: number;
  /**
   * Workers start only when the work left after the first batch would keep this thread busy longer than this
   * (default 1000 ms: about what a worker takes to start and load a small model on a loaded machine). 0: always.
   */
  minWorkMs?: number;
}

interface PoolWorker {
  worker: Worker;
  /** 2 for the first worker thread (1 is this thread), as messages name it. */
  number: number;
  /** Settles when the worker's model is loaded; rejects with a one-line reason. */
  loaded: Promise<void>;
  /** Why the worker stopped (an uncaught error or an exit); set once. */
  stopped?: string;
  /** Rejects the request in flight when the worker stops. */
  onStop?: (reason: string) => void;
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** How a worker is started: the built file beside the bundle (dist/lib), or the TypeScript source through tsx. */
function startWorker(options: CreateEmbedderOptions): Worker {
  const built = new URL('./embedPoolWorker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts') && existsSync(fileURLToPath(built))) return new Worker(built, { workerData: options });
  // Source run (vitest, tsx): the worker registers tsx's loader, then imports the TypeScript file.
  const source = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); })`;
  return new Worker(boot, { eval: true, workerData: options });
}

function watch(worker: Worker, index: number): PoolWorker {
  const entry: PoolWorker = { worker, number: index + 2, loaded: Promise.resolve() };
  const stop = (reason: string) => {
    if (entry.stopped !== undefined) return;
    entry.stopped = `embedding thread ${entry.number} stopped: ${reason}`;
    entry.onStop?.(entry.stopped);
  };
  entry.loaded = new Promise((resolve, reject) => {
    const onMessage = (m: { loaded?: unknown; failed?: string }) => {
      if (m.loaded) resolve();
      else if (m.failed !== undefined) reject(new Error(firstLine(m.failed)));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', (error) => (stop(firstLine(error)), reject(new Error(entry.stopped))));
    worker.once('exit', (code) => (stop(`it exited with code ${code}`), reject(new Error(entry.stopped))));
  });
  entry.loaded.catch(() => undefined); // observed by embed(); never an unhandled rejection
  return entry;
}

export async function createEmbedderPool(options: EmbedderPoolOptions = {}): Promise<Embedder> {
  const { workers = Math.max(1, availableParallelism()), batchTexts = 64, minWorkMs = 1000, ...embedderOptions } = options;
  if (!(Number.isInteger(workers) && workers >= 1)) throw new Error(`workers must be a whole number of at least 1 (got ${workers})`);
  if (!(Number.isInteger(batchTexts) && batchTexts >= 1)) throw new Error(`batchTexts must be a whole number of at least 1 (got ${batchTexts})`);
  // One onnxruntime thread here too when there are several: the threads of the pool are the parallelism.
  const local = await createEmbedder(workers > 1 ? { ...embedderOptions, sessionThreads: 1 } : embedderOptions);
  return new PooledEmbedder(local, embedderOptions, workers, batchTexts, minWorkMs);
}

function cancelled(): Error {
  return Object.assign(new Error('embedding was cancelled'), { name: 'AbortError' });
}

export class PooledEmbedder implements Embedder {
  private nextId = 0;
  private readonly workers: PoolWorker[] = [];

  constructor(
    private readonly local: Embedder,
    private readonly embedderOptions: CreateEmbedderOptions,
    private readonly maxWorkers: number,
    private readonly batchTexts: number,
    private readonly minWorkMs: number,
  ) {}

  get info(): EmbedderInfo {
    return this.local.info;
  }

  /** Batches each thread embedded in the last embed() over several batches (0: this thread, then the workers). */
  lastShare: number[] = [];

  /** Settles when every worker thread started so far has loaded its model or dropped out. */
  async whenLoaded(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.loaded.catch(() => undefined)));
  }

  /** Worker threads started so far, besides this thread (they start on the first embed() with more than one batch). */
  get threads(): number {
    return this.workers.length;
  }

  /** Up to `wanted` worker threads besides this one, started now where missing; one onnxruntime thread each. */
  private ensureWorkers(wanted: number): PoolWorker[] {
    const cap = Math.min(wanted, this.maxWorkers - 1);
    while (this.workers.length < cap) {
      const worker = startWorker({ ...this.embedderOptions, sessionThreads: 1 });
      this.workers.push(watch(worker, this.workers.length));
    }
    return this.workers.slice(0, cap);
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
    });
    // Stable sort by length: the order one embedder embeds in (onnx.ts), so batches pad the same texts together.
    const distinct = [...new Set(texts)].sort((a, b) => a.length - b.length);
    const batches = Math.ceil(distinct.length / this.batchTexts);
    if (batches <= 1 || this.maxWorkers <= 1) return this.local.embed(texts, options);
    const vectors = new Map<string, Float32Array>();
    let next = 0;
    let done = 0;
    const share: number[] = [];
    /** Takes batches from the shared queue until it is empty (or `most` are taken), on this thread or a worker. */
    const take = async (thread: number, embedBatch: (batch: string[]) => Promise<Float32Array[]>, most = Infinity): Promise<void> => {
      share[thread] ??= 0;
      for (let taken = 0; taken < most && next < distinct.length; taken++) {
        if (options.signal?.aborted) throw cancelled();
        const batch = distinct.slice(next, next + this.batchTexts);
        next += batch.length;
        const rows = await embedBatch(batch);
        batch.forEach((t, i) => vectors.set(t, rows[i]!));
        done += batch.length;
        share[thread]!++;
        options.onProgress?.(done / distinct.length);
      }
    };
    const here = (batch: string[]) => this.local.embed(batch);
    // This thread works from the start; each worker joins when its model is loaded. A worker that cannot load drops
    // out; one that fails on a batch fails the call.
    const joinWhenLoaded = async (w: PoolWorker): Promise<void> => {
      if (!(await w.loaded.then(() => true, () => false)) || w.stopped !== undefined) return;
      await take(w.number - 1, (batch) => this.send(w, batch));
    };
    try {
      const wanted = Math.min(batches, this.maxWorkers) - 1;
      if (this.workers.length < wanted) {
        // Workers are started only for work that outlasts their start: timed on the first batch, here.
        const started = performance.now();
        await take(0, here, 1);
        if ((batches - 1) * (performance.now() - started) > this.minWorkMs) this.ensureWorkers(wanted);
      }
      const workers = this.workers.slice(0, wanted);
      await Promise.all([take(0, here), ...workers.map(joinWhenLoaded)]);
      this.lastShare = Array.from({ length: workers.length + 1 }, (_, i) => share[i] ?? 0);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new Error(firstLine(error));
    }
    if (options.signal?.aborted) throw cancelled();
    const given = new Set<string>();
    // A repeated text gets its own copy, so a caller may transfer or modify each vector independently.
    return texts.map((t) => (given.has(t) ? vectors.get(t)!.slice() : (given.add(t), vectors.get(t)!)));
  }

  private send(w: PoolWorker, texts: string[]): Promise<Float32Array[]> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (w.stopped !== undefined) return reject(new Error(w.stopped));
      const onMessage = (m: { id?: number; packed?: Float32Array; dims?: number; error?: string }) => {
        if (m.id !== id) return;
        w.worker.off('message', onMessage);
        w.onStop = undefined;
        if (m.error !== undefined) return reject(new Error(`embedding thread ${w.number} failed: ${firstLine(m.error)}`));
        const dims = m.dims!;
        resolve(Array.from({ length: texts.length }, (_, i) => m.packed!.slice(i * dims, (i + 1) * dims)));
      };
      w.onStop = (reason) => (w.worker.off('message', onMessage), reject(new Error(reason)));
      w.worker.on('message', onMessage);
      w.worker.postMessage({ id, texts });
    });
  }

  tokenize(text: string): Range[] {
    return this.local.tokenize(text);
  }

  embedTokens(text: string, options?: EmbedCallOptions): Promise<{ tokens: Range[]; vectors: Float32Array[] }> {
    return this.local.embedTokens(text, options);
  }

  async dispose(): Promise<void> {
    await Promise.all([this.local.dispose(), ...this.workers.map((w) => w.worker.terminate())]);
  }
}
