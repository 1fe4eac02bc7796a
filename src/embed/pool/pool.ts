import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Range } from '../../core/types';
import { createEmbedder } from '../index';
import type { CreateEmbedderOptions, EmbedCallOptions, Embedder, EmbedderInfo } from '../types';

/**
 * Hub models in Node embedded by a pool of worker threads, one model per worker, sized to the cores: the tokenizer
 * (JavaScript) and onnxruntime's session run in parallel on different batches. The built-in model gains nothing
 * from this (its direct path is a table lookup): use createEmbedder for it.
 *
 * The model is loaded in this thread first (tokenize() is synchronous, embedTokens() and a one-batch embed() run
 * here, and a model that cannot be loaded fails before any thread starts). Worker threads start on the first embed()
 * with more than one batch, as many as there are batches up to `workers`, each with one onnxruntime thread.
 *
 * embed() sends each distinct text once, sorted by length as one embedder sorts them (so each worker pads the same
 * groups of texts and the vectors are bit-identical to one embedder's), in batches of `batchTexts` taken in turn by
 * whichever worker is free, and puts the vectors back in the caller's order. A worker's failure (an error, a crash)
 * rejects the call with one line and the pool is not used again.
 */

export interface EmbedderPoolOptions extends CreateEmbedderOptions {
  /** Worker threads at most (default: the cores this process may use). */
  workers?: number;
  /** Texts per message to a worker (default 64: a multiple of the ONNX path's batch of 16). */
  batchTexts?: number;
}

interface PoolWorker {
  worker: Worker;
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
  const entry: PoolWorker = { worker, loaded: Promise.resolve() };
  const stop = (reason: string) => {
    if (entry.stopped !== undefined) return;
    entry.stopped = `embedding worker ${index + 1} stopped: ${reason}`;
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
  const { workers = Math.max(1, availableParallelism()), batchTexts = 64, ...embedderOptions } = options;
  if (!(Number.isInteger(workers) && workers >= 1)) throw new Error(`workers must be a whole number of at least 1 (got ${workers})`);
  if (!(Number.isInteger(batchTexts) && batchTexts >= 1)) throw new Error(`batchTexts must be a whole number of at least 1 (got ${batchTexts})`);
  const local = await createEmbedder(embedderOptions);
  return new PooledEmbedder(local, embedderOptions, workers, batchTexts);
}

function cancelled(): Error {
  return Object.assign(new Error('embedding was cancelled'), { name: 'AbortError' });
}

export class PooledEmbedder implements Embedder {
  private nextId = 0;
  private readonly workers: PoolWorker[] = [];
  private failed: string | null = null;

  constructor(
    private readonly local: Embedder,
    private readonly embedderOptions: CreateEmbedderOptions,
    private readonly maxWorkers: number,
    private readonly batchTexts: number,
  ) {}

  get info(): EmbedderInfo {
    return this.local.info;
  }

  /** Worker threads started so far (they start on the first embed() with more than one batch). */
  get threads(): number {
    return this.workers.length;
  }

  /** Up to `wanted` workers, started now where missing; one onnxruntime thread each (the workers are the parallelism). */
  private ensureWorkers(wanted: number): PoolWorker[] {
    while (this.workers.length < Math.min(wanted, this.maxWorkers)) {
      const worker = startWorker({ ...this.embedderOptions, sessionThreads: 1 });
      this.workers.push(watch(worker, this.workers.length));
    }
    return this.workers.slice(0, Math.min(wanted, this.maxWorkers));
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
    });
    if (this.failed !== null) throw new Error(this.failed);
    // Stable sort by length: the order one embedder embeds in (onnx.ts), so batches pad the same texts together.
    const distinct = [...new Set(texts)].sort((a, b) => a.length - b.length);
    const batches = Math.ceil(distinct.length / this.batchTexts);
    if (batches <= 1 || this.maxWorkers <= 1) return this.local.embed(texts, options);
    const vectors = new Map<string, Float32Array>();
    let next = 0;
    let done = 0;
    const runOn = async (w: PoolWorker): Promise<void> => {
      await w.loaded;
      while (next < distinct.length) {
        if (options.signal?.aborted) throw cancelled();
        const batch = distinct.slice(next, next + this.batchTexts);
        next += batch.length;
        const rows = await this.send(w, batch);
        batch.forEach((t, i) => vectors.set(t, rows[i]!));
        done += batch.length;
        options.onProgress?.(done / distinct.length);
      }
    };
    try {
      await Promise.all(this.ensureWorkers(batches).map(runOn));
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // One line that says where it failed; the pool is not trusted again (a worker may be gone).
      this.failed = firstLine(error);
      throw new Error(this.failed);
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
        if (m.error !== undefined) return reject(new Error(`embedding worker failed: ${firstLine(m.error)}`));
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
