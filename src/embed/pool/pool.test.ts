import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSemantic } from '../../core/semantic/index';
import { createEmbedder, type Embedder } from '../index';
import { createNodeEmbedder, modelFolder } from './node';
import { createEmbedderPool, PooledEmbedder } from './pool';
import { makeHubModelFolder, type TestModelFolder } from './testModelFolder';

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
  pool = (await createEmbedderPool({ ...options, workers: 2, batchTexts: 16 })) as PooledEmbedder;
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

  it('gives exactly the vectors one embedder gives, in the caller order, repeats included', async () => {
    const texts = [...sentences, sentences[0]!, ...sentences.slice(0, 3).reverse()];
    const [a, b] = [await pool.embed(texts), await single.embed(texts)];
    expect(pool.threads).toBe(2);
    expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
    expect(a[sentences.length]).not.toBe(a[0]);
  }, 60_000);

  it('embeds one batch in this thread (no worker is started for it)', async () => {
    const fresh = (await createEmbedderPool({ model: folder.name, localModelPath: folder.root, workers: 4, batchTexts: 64 })) as PooledEmbedder;
    try {
      const texts = sentences.slice(0, 10);
      expect((await fresh.embed(texts)).map((v) => Array.from(v))).toEqual((await single.embed(texts)).map((v) => Array.from(v)));
      expect(fresh.threads).toBe(0);
      await fresh.embed(sentences.slice(0, 150)); // 3 batches of 64: 3 workers, not 4
      expect(fresh.threads).toBe(3);
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

  it('turns a worker that cannot load the model into one line, and is not used again', async () => {
    const broken = makeHubModelFolder('broken-hub');
    const fresh = await createEmbedderPool({ model: broken.name, localModelPath: broken.root, workers: 2, batchTexts: 16 });
    try {
      rmSync(join(broken.path, 'onnx'), { recursive: true }); // loaded here, gone before the workers start
      const failure = await fresh.embed(sentences).then(() => null, (e: Error) => e);
      expect(failure?.message).toMatch(/^could not load embedding model "broken-hub": .+/);
      expect(failure?.message).not.toContain('\n');
      await expect(fresh.embed(sentences)).rejects.toThrow(failure!.message);
    } finally {
      await fresh.dispose();
      broken.remove();
    }
  }, 60_000);
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
