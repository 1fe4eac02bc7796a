import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSemantic } from '../../core/semantic/index';
import { createEmbedder, type Embedder } from '../index';
import { createNodeEmbedder, modelFolder } from './node';
import { createEmbedderPool, PooledEmbedder } from './pool';
import { makeHubModelFolder, makeMatmulHubModelFolder, type TestModelFolder } from './testModelFolder';

// A small hub-format model folder built here (no network to a hub): the built-in model's files under another name,
// which makes createEmbedder load it as any hub model, through transformers.js and onnxruntime-node.

const topics = readFileSync(new URL('../fixtures/topics.txt', import.meta.url), 'utf8');
const topicSentences = prepareSemantic(topics, { bufferSize: 0 }).inputs.texts;
/** 200 distinct sentences of different lengths (several batches), from the fixture's. */
const sentences = Array.from({ length: 200 }, (_, i) => `${topicSentences[i % topicSentences.length]!} ${'and more '.repeat(i % 7)}(${i})`);
let folder: TestModelFolder;
let single: Embedder;
let pool: PooledEmbedder;

beforeAll(async () => {
  folder = makeHubModelFolder();
  const options = { model: folder.name, localModelPath: folder.root };
  single = await createEmbedder(options);
  pool = (await createEmbedderPool({ ...options, workers: 2, batchTexts: 16, minWorkMs: 0 })) as PooledEmbedder;
}, 120_000);
afterAll(async () => {
  await pool?.dispose();
  await single?.dispose();
  folder?.remove();
});

describe('createEmbedderPool (hub-format model, two worker threads)', () => {
  it('loads the folder as a hub model, on the ONNX path', () => {
    expect(pool.info).toMatchObject({ id: 'tiny-hub', dims: 100, backend: 'node' });
  });

  it('gives exactly the vectors one embedder gives, in the caller order, repeats included, from both threads', async () => {
    const texts = [...sentences, sentences[0]!, ...sentences.slice(0, 3).reverse()];
    await pool.embed(texts.slice(0, 40)); // starts the worker thread
    expect(pool.threads).toBe(1);
    await pool.whenLoaded();
    const [a, b] = [await pool.embed(texts), await single.embed(texts)];
    expect(pool.lastShare).toHaveLength(2);
    expect(pool.lastShare[1]).toBeGreaterThan(0); // the worker thread embedded some of the batches
    expect(pool.lastShare[0]! + pool.lastShare[1]!).toBe(Math.ceil(sentences.length / 16));
    expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
    expect(a[sentences.length]).not.toBe(a[0]);
  }, 60_000);

  it('embeds one batch in this thread, and starts no more threads than there are batches', async () => {
    const fresh = (await createEmbedderPool({ model: folder.name, localModelPath: folder.root, workers: 4, batchTexts: 64, minWorkMs: 0 })) as PooledEmbedder;
    try {
      const texts = sentences.slice(0, 10);
      expect((await fresh.embed(texts)).map((v) => Array.from(v))).toEqual((await single.embed(texts)).map((v) => Array.from(v)));
      expect(fresh.threads).toBe(0);
      await fresh.embed(sentences.slice(0, 150)); // 3 batches of 64: this thread and 2 workers, not 4
      expect(fresh.threads).toBe(2);
    } finally {
      await fresh.dispose();
    }
  }, 60_000);

  it('reports progress up to 1, refuses blank texts and honours a cancelled signal', async () => {
    let last = 0;
    await pool.embed(sentences, { onProgress: (f) => (last = f) });
    expect(last).toBe(1);
    await expect(pool.embed(['fine', ' '])).rejects.toThrow(/text 1.*empty or whitespace-only/);
    await expect(pool.embed(sentences, { signal: { aborted: true } })).rejects.toThrow(/cancelled/);
  });

  it('tokenizes in this thread, as one embedder does', () => {
    expect(pool.tokenize(topics)).toEqual(single.tokenize(topics));
  });

  it('says in one line when the model cannot be loaded', async () => {
    await expect(createEmbedderPool({ model: 'no-such-model', localModelPath: folder.root, workers: 1 })).rejects.toThrow(/could not load embedding model "no-such-model"/);
  });

  it('goes on without a worker that cannot load the model', async () => {
    const broken = makeHubModelFolder('broken-hub');
    const fresh = (await createEmbedderPool({ model: broken.name, localModelPath: broken.root, workers: 2, batchTexts: 16, minWorkMs: 0 })) as PooledEmbedder;
    try {
      rmSync(join(broken.path, 'onnx'), { recursive: true }); // loaded here, gone before the worker starts
      await fresh.embed(sentences.slice(0, 40));
      await fresh.whenLoaded();
      const vectors = await fresh.embed(sentences);
      expect(fresh.lastShare).toEqual([Math.ceil(sentences.length / 16), 0]);
      expect(vectors.map((v) => Array.from(v))).toEqual((await single.embed(sentences)).map((v) => Array.from(v)));
    } finally {
      await fresh.dispose();
      broken.remove();
    }
  }, 60_000);

  it('fails the call in one line when a worker stops in the middle of a batch', async () => {
    const fresh = (await createEmbedderPool({ model: folder.name, localModelPath: folder.root, workers: 2, batchTexts: 16, minWorkMs: 0 })) as PooledEmbedder;
    try {
      await fresh.embed(sentences.slice(0, 40));
      await fresh.whenLoaded();
      const running = fresh.embed(sentences).then(() => null, (e: Error) => e);
      // The worker has taken a batch (it is loaded: it takes one as soon as the call starts); it is stopped now.
      await (fresh as unknown as { workers: { worker: { terminate(): Promise<number> } }[] }).workers[0]!.worker.terminate();
      const failure = await running;
      expect(failure?.message).toMatch(/^embedding thread 2 stopped: it exited with code \d+$/);
    } finally {
      await fresh.dispose();
    }
  }, 60_000);
});

describe('a pool on a matrix-bound model (feed-forward blocks of MiniLM sizes)', () => {
  it('gives the vectors one embedder gives, from both threads', async () => {
    const matmul = makeMatmulHubModelFolder('matmul-hub', { layers: 1 });
    const options = { model: matmul.name, localModelPath: matmul.root };
    const [one, two] = await Promise.all([createEmbedder(options), createEmbedderPool({ ...options, workers: 2, batchTexts: 16, minWorkMs: 0 }) as Promise<PooledEmbedder>]);
    try {
      expect(two.info).toMatchObject({ id: 'matmul-hub', dims: 384, backend: 'node' });
      const texts = sentences.slice(0, 64);
      await two.embed(texts.slice(0, 20));
      await two.whenLoaded();
      const [a, b] = [await two.embed(texts), await one.embed(texts)];
      expect(two.lastShare[1]).toBeGreaterThan(0);
      a.forEach((v, i) => v.forEach((x, k) => expect(Math.abs(x - b[i]![k]!)).toBeLessThan(1e-6)));
      expect(Math.hypot(...a[0]!)).toBeCloseTo(1, 5);
    } finally {
      await Promise.all([one.dispose(), two.dispose()]);
      matmul.remove();
    }
  }, 120_000);
});

describe('createNodeEmbedder (what --embedder and --embed-workers load)', () => {
  it('keeps the built-in model in this thread, on its direct path', async () => {
    const e = await createNodeEmbedder('builtin', { workers: 4 });
    expect(e).not.toBeInstanceOf(PooledEmbedder);
    expect(e.info.backend).toBe('direct');
    await e.dispose();
  });

  it('loads a model folder given as a path on a pool, or in this thread with one worker', async () => {
    expect(modelFolder(folder.path)).toEqual({ localModelPath: folder.root, model: folder.name });
    expect(modelFolder('Xenova/all-MiniLM-L6-v2')).toBeUndefined();
    const pooled = await createNodeEmbedder(folder.path, { workers: 2 });
    const inThread = await createNodeEmbedder(folder.path, { workers: 1 });
    try {
      expect(pooled).toBeInstanceOf(PooledEmbedder);
      expect(inThread).not.toBeInstanceOf(PooledEmbedder);
      expect(inThread.info).toMatchObject({ id: folder.name, backend: 'node' });
      const [a, b] = [await pooled.embed(sentences), await inThread.embed(sentences)];
      expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
    } finally {
      await Promise.all([pooled.dispose(), inThread.dispose()]);
    }
  }, 60_000);

  it('refuses a folder path that does not exist in one line', async () => {
    await expect(createNodeEmbedder('./no/such/model-folder')).rejects.toThrow(/^embedding model folder \.\/no\/such\/model-folder does not exist/);
  });
});
