import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { asciiEmbedModuleText, ASCII_EMBED_MODULE, compileAsciiEmbed } from '../../../../scripts/build-wasm.mjs';
import { defaultModelPath } from '../../index';
import { loadStaticEmbedder, StaticEmbedder } from '../embedder';
import { ASCII_EMBED_WASM } from './asciiEmbedModule';

// The WebAssembly path of the built-in model (asciiEmbed.as.ts) against the JavaScript path: the same vectors, bit for
// bit, for any text, whichever path a text takes; and both equal to the model's definition for an ASCII text.

const FOLDER = `${defaultModelPath()}chunkscope-static-en/`;
const INFO = { id: 'builtin', label: 'built-in', maxTokens: Infinity };

let wasm: StaticEmbedder;
let js: StaticEmbedder;
let vocabulary: string[];

async function load(webAssembly: boolean): Promise<StaticEmbedder> {
  const e = await loadStaticEmbedder(FOLDER, INFO, { webAssembly });
  if ('refused' in e) throw new Error(e.refused);
  return e;
}

beforeAll(async () => {
  [wasm, js] = await Promise.all([load(true), load(false)]);
  vocabulary = Object.keys((JSON.parse(readFileSync(`${FOLDER}tokenizer.json`, 'utf8')) as { model: { vocab: object } }).model.vocab);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Each vector's bits (so -0 and 0, or two NaN payloads, are told apart). */
function bits(vectors: Float32Array[]): string[] {
  return vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'));
}

/** The model's definition, computed here from the token ids and the table: the rows summed in token order, normalized. */
function definition(embedder: StaticEmbedder, text: string): Float32Array {
  const weights = (embedder as unknown as { weights: { rows: number; dims: number; zero: Uint8Array; int8: Int8Array; scales: Float32Array } }).weights;
  const { dims, rows, zero, int8, scales } = weights;
  const sum = new Float64Array(dims);
  for (const id of embedder.encode(text)) {
    if (id >= rows || zero[id] !== 0) continue;
    for (let k = 0; k < dims; k++) sum[k] = sum[k]! + Math.fround(int8[id * dims + k]! * scales[id]!);
  }
  const n = Math.sqrt(sum.reduce((s, x) => s + x * x, 0));
  return n > 1e-9 && Number.isFinite(n) ? Float32Array.from(sum, (x) => x / n) : new Float32Array(dims);
}

describe('the compiled module', () => {
  it('is what asciiEmbed.as.ts compiles to (run `npm run build:wasm` after changing the source)', async () => {
    const bytes = await compileAsciiEmbed();
    expect(readFileSync(ASCII_EMBED_MODULE, 'utf8')).toBe(asciiEmbedModuleText(bytes));
  }, 60_000);

  it('stays under 4 KB, so that engines compile it synchronously anywhere', () => {
    expect(Buffer.from(ASCII_EMBED_WASM, 'base64').length).toBeLessThan(4096);
  });

  it('loads here (Node has WebAssembly with SIMD), and the built-in model then uses it', () => {
    expect((wasm as unknown as { ascii: unknown }).ascii).not.toBeNull();
    expect((js as unknown as { ascii: unknown }).ascii).toBeNull();
  });
});

describe('WebAssembly and JavaScript give the same vectors', () => {
  // Words from the vocabulary (as written, upper-cased, capitalized), made-up words, punctuation, ASCII controls and
  // whitespace, accents, CJK, emoji, a capital sigma and the added tokens.
  const word = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 29_999 }).map((i) => vocabulary[i % vocabulary.length]!) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 29_999 }).map((i) => vocabulary[i % vocabulary.length]!.toUpperCase()) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ019_'.split('')), minLength: 1, maxLength: 12 }) },
    { weight: 2, arbitrary: fc.constantFrom('.', ',', '!', '?', '"', "'", '(', ')', '[', ']', '-', '--', '...', '#', '`', '\\', '~', '\u0001', '\u007f') },
    { weight: 1, arbitrary: fc.constantFrom('café', 'naïve', 'Ünïcode', '東京', '😀', 'ΣΟΦΙΑ', 'İstanbul', '’', '“quoted”', '\u00a0', '\u2028') },
    { weight: 1, arbitrary: fc.constantFrom('[UNK]', '[PAD]', '[UNK', 'UNK]') },
  );
  const space = fc.constantFrom(' ', ' ', ' ', '', '\n', '\t', '  ', '\r\n', '\u000b');
  const text = fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 40 }).map((parts) => parts.map(([w, s]) => w + s).join(''));

  it('for any texts, batched or one by one (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 30 }), async (texts) => {
        const usable = texts.filter((t) => /\S/.test(t));
        fc.pre(usable.length > 0);
        expect(bits(await wasm.embed(usable))).toEqual(bits(await js.embed(usable)));
        const out = new Float32Array(wasm.info.dims);
        for (const t of usable) expect(bits([wasm.embedOne(t, out.slice())])).toEqual(bits([js.embedOne(t, out.slice())]));
      }),
      { numRuns: 150 },
    );
  });

  it('for overlapping windows of sentences, as the semantic splitter sends them (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 3, maxLength: 40 }), async (sentences) => {
        const windows = sentences.map((_, i) => sentences.slice(Math.max(0, i - 1), i + 2).join(' ')).filter((t) => /\S/.test(t));
        fc.pre(windows.length > 0);
        expect(bits(await wasm.embed(windows))).toEqual(bits(await js.embed(windows)));
      }),
      { numRuns: 100 },
    );
  });

  it('an ASCII text gets the model\'s definition: its rows summed in token order, normalized', async () => {
    const texts = ['The quick brown fox, and the lazy DOG!', 'Unknownwordxyzzy only', '[ not an added token ]', 'x'.repeat(300), '... --- ...'];
    const vectors = await wasm.embed(texts);
    texts.forEach((t, i) => expect(bits([vectors[i]!])).toEqual(bits([definition(wasm, t)])));
  });

  it('long texts: the memory grows for one, and a text over a mebibyte takes the JavaScript path to the same bits', async () => {
    const sentence = 'Chunk boundaries decide what a retriever can find, and overlap decides what it finds twice. ';
    const long = sentence.repeat(4_000); // 360,000 characters
    const huge = sentence.repeat(12_000); // over 1 Mi characters
    expect(bits(await wasm.embed([long, huge, 'a short one']))).toEqual(bits(await js.embed([long, huge, 'a short one'])));
    expect(bits(await wasm.embed([long]))).toEqual(bits([definition(wasm, long)]));
  });
});

describe('without WebAssembly', () => {
  it('the built-in model still loads on the direct path and gives the same vectors', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    const fallback = await load(true);
    expect(fallback.info.backend).toBe('direct');
    expect((fallback as unknown as { ascii: unknown }).ascii).toBeNull();
    const texts = ['Plain ASCII text.', 'Café au lait, naïve résumé!', 'With [UNK] inside.'];
    expect(bits(await fallback.embed(texts))).toEqual(bits(await wasm.embed(texts)));
  });
});
