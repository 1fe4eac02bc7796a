import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Range } from '../../core/types';
import { createEmbedder } from '../index';
import type { CreateEmbedderOptions, EmbedCallOptions, Embedder, EmbedderInfo } from '../types';

/**
 * Hub models in Node embedded by a pool of worker threads, one model per worker, sized to the cores: the tokenizer
 * (JavaScript) and onnxruntime's session run in parallel on different batches. The built-in model gains nothing
 * from this (its direct path is a table lookup): use createEmbedder for it.
 *
 * embed() sends each distinct text once, in batches of `batchTexts` taken in turn by whichever worker is free, and
 * puts the vectors back in the caller's order. tokenize() and embedTokens() run on a model loaded in this thread
 * (tokenize is synchronous), which is loaded with the pool.
 */

export interface EmbedderPoolOptions extends CreateEmbedderOptions {
  /** Worker threads (default: the cores this process may use). */
  workers?: number;
  /** Texts per message to a worker (default 64). */
  batchTexts?: number;
}

interface PoolWorker {
  worker: Worker;
}

/** How a worker is started: the compiled file beside this one, or the TypeScript source through tsx (tests, tsx). */
function startWorker(options: CreateEmbedderOptions): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Source run (vitest, tsx): the worker registers tsx's loader, then imports the TypeScript file.
    const source = JSON.stringify(new URL('./worker.ts', here).href);
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); })`;
    return new Worker(boot, { eval: true, workerData: options });
  }
  return new Worker(new URL('./embedPoolWorker.js', here), { workerData: options });
}

function loaded(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { loaded?: unknown; failed?: string }) => {
      if (m.loaded) resolve();
      else if (m.failed) reject(new Error(m.failed));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

export async function createEmbedderPool(options: EmbedderPoolOptions = {}): Promise<Embedder> {
  const { workers: size = Math.max(1, availableParallelism()), batchTexts = 64, ...embedderOptions } = options;
  // One onnxruntime thread per worker when there are several: the workers are the parallelism.
  const workers = Array.from({ length: size }, () => startWorker({ ...embedderOptions, ...(size > 1 ? { sessionThreads: 1 } : {}) }));
  try {
    const [local] = await Promise.all([createEmbedder(embedderOptions), ...workers.map(loaded)]);
    return new PooledEmbedder(local, workers.map((worker) => ({ worker })), batchTexts);
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
}

class PooledEmbedder implements Embedder {
  private nextId = 0;

  constructor(
    private readonly local: Embedder,
    private readonly workers: PoolWorker[],
    private readonly batchTexts: number,
  ) {}

  get info(): EmbedderInfo {
    return this.local.info;
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
    });
    const distinct = [...new Set(texts)];
    const vectors = new Map<string, Float32Array>();
    let next = 0;
    let done = 0;
    const runOn = async (w: PoolWorker): Promise<void> => {
      while (next < distinct.length) {
        if (options.signal?.aborted) throw Object.assign(new Error('embedding was cancelled'), { name: 'AbortError' });
        const batch = distinct.slice(next, next + this.batchTexts);
        next += batch.length;
        const rows = await this.send(w, batch);
        batch.forEach((t, i) => vectors.set(t, rows[i]!));
        done += batch.length;
        options.onProgress?.(done / distinct.length);
      }
    };
    await Promise.all(this.workers.map(runOn));
    if (options.signal?.aborted) throw Object.assign(new Error('embedding was cancelled'), { name: 'AbortError' });
    const given = new Set<string>();
    // A repeated text gets its own copy, so a caller may transfer or modify each vector independently.
    return texts.map((t) => (given.has(t) ? vectors.get(t)!.slice() : (given.add(t), vectors.get(t)!)));
  }

  private send(w: PoolWorker, texts: string[]): Promise<Float32Array[]> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const onMessage = (m: { id?: number; packed?: Float32Array; dims?: number; error?: string }) => {
        if (m.id !== id) return;
        w.worker.off('message', onMessage);
        if (m.error !== undefined) return reject(new Error(m.error));
        const dims = m.dims!;
        resolve(Array.from({ length: texts.length }, (_, i) => m.packed!.slice(i * dims, (i + 1) * dims)));
      };
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
