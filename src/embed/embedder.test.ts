import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import type { Chunk } from '../core/types';
import { createEmbedder, type Embedder } from './index';

// Node integration: the built-in model shipped in public/models on its default (direct) path, no mocks; static/direct.test.ts
// compares it with the ONNX path.

const topics = readFileSync(new URL('./fixtures/topics.txt', import.meta.url), 'utf8');
// The fixture switches topic at its blank lines: sailing, then baking, then tax law.
const switches = [...topics.matchAll(/\n\n/g)].map((m) => m.index! + 2);

let embedder: Embedder;
beforeAll(async () => {
  embedder = await createEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});
const embed = (texts: string[]) => embedder.embed(texts);

function expectExactOffsets(source: string, chunks: Chunk[]): void {
  for (const c of chunks) {
    expect(c.text).toBe(source.slice(c.start, c.end));
    expect(c.text.trim()).toBe(c.text);
  }
}

function expectNoNaN(value: unknown): void {
  expect(JSON.stringify(value)).not.toMatch(/NaN|null/);
  for (const c of value as Chunk[]) {
    expect(Number.isFinite(c.size)).toBe(true);
    if (c.metadata.distanceBefore !== undefined) expect(Number.isFinite(c.metadata.distanceBefore)).toBe(true);
  }
}

describe('createEmbedder (built-in model)', () => {
  it('describes itself', () => {
    expect(embedder.info).toMatchObject({ id: 'builtin', dims: 100, maxTokens: Infinity, backend: 'direct' });
  });

  it('gives one unit vector per text, in the order given, whatever the batching', async () => {
    const texts = ['The boat sails at dawn.', 'Bread rises in a warm kitchen overnight before baking.', 'Tax law.'];
    const all = await embedder.embed(texts);
    expect(all).toHaveLength(3);
    for (const v of all) {
      expect(v).toHaveLength(100);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    // Embedding each text alone (no padding, no sorting) gives the same vectors.
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i]!]);
      for (let k = 0; k < 100; k++) expect(alone![k]).toBeCloseTo(all[i]![k]!, 5);
    }
  });

  it('gives a zero vector, not NaN, for a text with no known word', async () => {
    const [v] = await embedder.embed(['zqxv 12345 blorptastic']);
    expect(Array.from(v!).every((x) => x === 0)).toBe(true);
  });

  it('refuses blank texts with a clear message', async () => {
    await expect(embedder.embed(['fine', '  \n'])).rejects.toThrow(/text 1.*empty or whitespace-only/);
  });

  it('honours a cancelled signal', async () => {
    await expect(embedder.embed(['a boat'], { signal: { aborted: true } })).rejects.toThrow(/cancelled/);
  });

  it('tokenizes with exact UTF-16 offsets, keeping case and accents of the source', () => {
    const text = "Don't e-mail the CAFÉ, naïve 😀 people!";
    const tokens = embedder.tokenize(text);
    expect(tokens.map((t) => text.slice(t.start, t.end))).toEqual(['Don', "'", 't', 'e', '-', 'mail', 'the', 'CAFÉ', ',', 'naïve', '😀', 'people', '!']);
  });

  it('late chunking: token vectors pooled over a chunk equal the chunk embedded alone (static model)', async () => {
    const { tokens, vectors } = await embedder.embedTokens(topics);
    expect(vectors).toHaveLength(tokens.length);
    const end = switches[0]! - 2; // the sailing paragraph
    const sum = new Float64Array(100);
    tokens.forEach((t, i) => {
      if (t.end <= end) vectors[i]!.forEach((x, k) => (sum[k]! += x));
    });
    const norm = Math.hypot(...sum);
    const [direct] = await embedder.embed([topics.slice(0, end)]);
    for (let k = 0; k < 100; k++) expect(sum[k]! / norm).toBeCloseTo(direct![k]!, 5);
  });
});

describe('semantic chunking with the built-in model', () => {
  it('cuts at the topic switches when asked for three chunks, sentence by sentence', async () => {
    const chunks = await chunk(topics, { strategy: 'semantic', chunks: 3, buffer: 0 }, { embed });
    expectExactOffsets(topics, chunks);
    expect(chunks.map((c) => c.start)).toEqual([0, ...switches]);
    expect(chunks[1]!.metadata.distanceBefore).toBeGreaterThan(0.3);
  });

  it('with the default settings, cuts within one sentence of each switch and nowhere else', async () => {
    const chunks = await chunk(topics, { strategy: 'semantic', chunks: 3 }, { embed });
    expectExactOffsets(topics, chunks);
    expectNoNaN(chunks);
    const longestSentence = 80;
    expect(chunks).toHaveLength(3);
    chunks.slice(1).forEach((c, i) => expect(Math.abs(c.start - switches[i]!)).toBeLessThanOrEqual(longestSentence));
  });

  it('covers every non-whitespace character exactly once in every compat mode', async () => {
    for (const compat of ['none', 'langchain', 'llamaindex'] as const) {
      const chunks = await chunk(topics, { strategy: 'semantic', compat }, { embed });
      expectNoNaN(chunks);
      const covered = chunks.map((c) => c.text).join('').replace(/\s/g, '');
      expect(covered).toBe(topics.replace(/\s/g, ''));
    }
  });

  it('gives one chunk for one sentence, and [] for an empty document', async () => {
    const one = await chunk('The boat left the harbour at dawn.', { strategy: 'semantic' }, { embed });
    expect(one.map((c) => c.text)).toEqual(['The boat left the harbour at dawn.']);
    expect(one[0]!.metadata.distanceBefore).toBeUndefined();
    expect(await chunk('', { strategy: 'semantic' }, { embed })).toEqual([]);
    expect(await chunk(' \n ', { strategy: 'semantic' }, { embed })).toEqual([]);
  });

  it('gives a clear result for a document of only unknown words: no cut, no NaN', async () => {
    // Lines without punctuation (punctuation marks are in the vocabulary): every sentence embeds to a zero vector.
    const unknown = 'Zqxv blorp\nFnord wibblet\nQwzx 12345\nXyzzy plugh';
    expect(embedder.tokenize(unknown)).toHaveLength(8);
    expect((await embedder.embed(unknown.split('\n'))).every((v) => v.every((x) => x === 0))).toBe(true);
    for (const compat of ['none', 'langchain', 'llamaindex'] as const) {
      const chunks = await chunk(unknown, { strategy: 'semantic', compat }, { embed });
      expectNoNaN(chunks);
      expectExactOffsets(unknown, chunks);
      // Native and LlamaIndex: zero vectors carry no distance, so nothing is cut. LangChain: one regex sentence.
      expect(chunks.map((c) => c.text)).toEqual([unknown]);
    }
  });
});

describe('createEmbedder batching', () => {
  it('embeds a repeated text once and gives each occurrence its own equal vector', async () => {
    const e = await createEmbedder();
    const texts = ['The boat sails.', 'Bread rises.', 'The boat sails.'];
    const v = await e.embed(texts);
    expect(Array.from(v[2]!)).toEqual(Array.from(v[0]!));
    expect(v[2]).not.toBe(v[0]);
    let progress = 0;
    await e.embed(texts, { onProgress: (f) => (progress = f) });
    expect(progress).toBe(1);
    await e.dispose();
  });
});
