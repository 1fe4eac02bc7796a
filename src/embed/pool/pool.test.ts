import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSemantic } from '../../core/semantic/index';
import { createEmbedder, defaultModelPath, type Embedder } from '../index';
import { createEmbedderPool } from './pool';

// A small hub-format model folder built here (no network to a hub): the built-in model's files under another name,
// which makes createEmbedder load it as any hub model, through transformers.js and onnxruntime-node.

const topics = readFileSync(new URL('../fixtures/topics.txt', import.meta.url), 'utf8');
let folder: string;
let single: Embedder;
let pool: Embedder;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'chunkscope-hub-'));
  cpSync(join(defaultModelPath(), 'chunkscope-static-en'), join(folder, 'tiny-hub'), { recursive: true });
  const options = { model: 'tiny-hub', localModelPath: `${folder}/` };
  single = await createEmbedder(options);
  pool = await createEmbedderPool({ ...options, workers: 2, batchTexts: 8 });
}, 120_000);
afterAll(async () => {
  await pool?.dispose();
  await single?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

describe('createEmbedderPool (hub-format model, two worker threads)', () => {
  it('loads the folder as a hub model, on the ONNX path', () => {
    expect(pool.info).toMatchObject({ id: 'tiny-hub', dims: 100, backend: 'node' });
  });

  it('gives the vectors one embedder gives, in the caller order, repeats included', async () => {
    const sentences = prepareSemantic(topics, { bufferSize: 0 }).inputs.texts;
    const texts = [...sentences, sentences[0]!, ...sentences.slice(0, 3).reverse()];
    const [a, b] = [await pool.embed(texts), await single.embed(texts)];
    expect(a).toHaveLength(texts.length);
    a.forEach((v, i) => v.forEach((x, k) => expect(Math.abs(x - b[i]![k]!)).toBeLessThan(1e-6)));
    expect(a[sentences.length]).not.toBe(a[0]);
    expect(Array.from(a[sentences.length]!)).toEqual(Array.from(a[0]!));
  });

  it('reports progress up to 1, refuses blank texts and honours a cancelled signal', async () => {
    let last = 0;
    await pool.embed(['one boat', 'two loaves', 'three taxes'], { onProgress: (f) => (last = f) });
    expect(last).toBe(1);
    await expect(pool.embed(['fine', ' '])).rejects.toThrow(/text 1.*empty or whitespace-only/);
    await expect(pool.embed(['a boat'], { signal: { aborted: true } })).rejects.toThrow(/cancelled/);
  });

  it('tokenizes in this thread, as one embedder does', () => {
    expect(pool.tokenize(topics)).toEqual(single.tokenize(topics));
  });

  it('says in one line when the model cannot be loaded', async () => {
    await expect(createEmbedderPool({ model: 'no-such-model', localModelPath: `${folder}/`, workers: 1 })).rejects.toThrow(/could not load embedding model "no-such-model"/);
  });
});
