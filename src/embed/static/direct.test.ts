import { readFileSync } from 'node:fs';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk } from '../../core/index';
import { prepareSemantic } from '../../core/semantic/index';
import type { Chunk } from '../../core/types';
import { HAVE_SHARED_CORPUS, NEEDS_SHARED_CORPUS, readSharedCorpus } from '../../testing/sharedData';
import { createEmbedder, defaultModelPath, type Embedder } from '../index';
import { tokenOffsets } from '../offsets';
import { StaticEmbedder } from './embedder';
import { readStaticTable } from './onnxTable';
import { readStaticTokenizer } from './tokenizer';

// The built-in model's direct path (its tokenizer rules + a table lookup) against transformers.js' tokenizer and the
// ONNX graph run by onnxruntime-node: the same token ids, the same vectors within 1e-5, the same semantic chunks.

const MODEL_FOLDER = `${defaultModelPath()}chunkscope-static-en/`;
const topics = readFileSync(new URL('../fixtures/topics.txt', import.meta.url), 'utf8');

let direct: StaticEmbedder;
let onnx: Embedder;
let reference: PreTrainedTokenizer;
let vocabulary: string[];

beforeAll(async () => {
  const d = await createEmbedder();
  if (!(d instanceof StaticEmbedder)) throw new Error('the built-in model did not load on the direct path');
  direct = d;
  onnx = await createEmbedder({ runtime: 'onnx' });
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = defaultModelPath();
  reference = await AutoTokenizer.from_pretrained('chunkscope-static-en');
  vocabulary = Object.keys((JSON.parse(readFileSync(`${MODEL_FOLDER}tokenizer.json`, 'utf8')) as { model: { vocab: object } }).model.vocab);
});
afterAll(async () => {
  await onnx?.dispose();
});

function referenceIds(text: string): number[] {
  return reference.encode(text, { add_special_tokens: false });
}

/** Ids, token strings and offsets of the direct path equal transformers.js' for `text`. */
function expectSameTokens(text: string): void {
  expect(direct.encode(text)).toEqual(referenceIds(text));
  const strings = reference.tokenize(text);
  expect(direct.tokenize(text)).toEqual(text === '' ? [] : tokenOffsets(text, strings));
}

function maxDifference(a: Float32Array[], b: Float32Array[]): number {
  let max = 0;
  a.forEach((v, i) => v.forEach((x, k) => (max = Math.max(max, Math.abs(x - b[i]![k]!)))));
  return max;
}

describe('direct tokenizer = transformers.js tokenizer', () => {
  it('on hand-picked cases: case, accents, CJK, emoji, punctuation, odd whitespace, the special tokens', () => {
    const cases = [
      "Don't e-mail the CAFÉ, naïve 😀 people!",
      'ΟΔΟΣ and İstanbul and STRASSE ß',
      '東京は雨。中文，한국어、カタカナ',
      '👨‍👩‍👧 🇫🇷 🙂🙂 e\u0301cole',
      '[UNK] [PAD][UNK]x [unk] [UN K] [[UNK]]',
      'a\u00a0b\u3000c\u2028d\ufeffe\u200bf\tg\nh',
      '¿Qué? «bien» — … 1,000.5% $30 #tag @user',
      '\u{10100}word\u{1F600}\ud800lone\udc00',
      '',
      '   ',
    ];
    for (const text of cases) expectSameTokens(text);
  });

  const pieces = () =>
    fc.oneof(
      fc.nat({ max: 30_001 }).map((i) => vocabulary[i] ?? 'the'),
      fc.tuple(fc.nat({ max: 30_001 }), fc.boolean()).map(([i, upper]) => ((upper ? vocabulary[i]?.toUpperCase() : vocabulary[i]) ?? 'x')),
      fc.constantFrom('café', 'Naïve', 'ÅNGSTRÖM', 'e\u0301', 'ΟΔΟΣ', 'İ', 'ß', 'ǅ', 'ﬁ', 'Ⅻ'),
      fc.constantFrom('東京', '中文字', '한국어', 'カタカナ', '。', '、', '，', '「引用」'),
      fc.constantFrom('😀', '👍🏽', '🇫🇷', '👨‍👩‍👧', '\u{10100}', '\u{1F9D1}\u200d\u{1F4BB}'),
      fc.constantFrom('[UNK]', '[PAD]', '[unk]', '[UN', 'K]', '[', ']'),
      fc.constantFrom('blorptastic', 'zqxv', 'debian', 'readline', 'x86_64', 'v1.2.3', 'foo@bar.org'),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
  const separators = () => fc.constantFrom(' ', '', '  ', '\n', '\t', '\u00a0', '\u3000', '\u2028', ', ', '. ', "'", '-', '\u200b');
  const documents = () =>
    fc.array(fc.tuple(pieces(), separators()), { maxLength: 24 }).map((parts) => parts.map(([p, s]) => p + s).join(''));

  it('on random Unicode: words of the vocabulary, accents, CJK, emoji, unknown words, the special tokens', () => {
    fc.assert(
      fc.property(documents(), (text) => {
        expectSameTokens(text);
      }),
      { numRuns: 600 },
    );
  });

  it('on arbitrary code points, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(direct.encode(text)).toEqual(referenceIds(text));
      }),
      { numRuns: 600 },
    );
  });

  it.skipIf(!HAVE_SHARED_CORPUS)(`on every line of the shared corpus, and on the whole of it ${NEEDS_SHARED_CORPUS}`, () => {
    const corpus = readSharedCorpus();
    let lines = 0;
    for (const line of corpus.split('\n')) {
      lines++;
      expect(direct.encode(line)).toEqual(referenceIds(line));
    }
    expect(lines).toBeGreaterThan(10_000);
    expect(direct.encode(corpus)).toEqual(referenceIds(corpus));
  });
});

describe('direct vectors = ONNX vectors', () => {
  it('within 1e-5 on real sentences, with unknown words, and zero for a text with no known word', async () => {
    const sentences = prepareSemantic(topics, { bufferSize: 0 }).inputs.texts;
    const texts = [...sentences, topics, 'zqxv 12345 blorptastic', 'Debian readline avahi, posix!', '東京 😀 café'];
    const [a, b] = [await direct.embed(texts), await onnx.embed(texts)];
    expect(maxDifference(a, b)).toBeLessThan(1e-5);
    expect(Array.from(a[sentences.length + 1]!).every((x) => x === 0)).toBe(true);
  });

  it.skipIf(!HAVE_SHARED_CORPUS)(`within 1e-5 on the shared corpus' sentences and three-sentence windows ${NEEDS_SHARED_CORPUS}`, async () => {
    const text = readSharedCorpus(200_000);
    for (const bufferSize of [0, 1]) {
      const texts = prepareSemantic(text, { bufferSize }).inputs.texts;
      expect(texts.length).toBeGreaterThan(1000);
      expect(maxDifference(await direct.embed(texts), await onnx.embed(texts))).toBeLessThan(1e-5);
    }
  });

  it('overlapping texts (sliding windows) embedded in one call equal each text embedded alone', async () => {
    const sentence = fc.oneof(
      fc.array(fc.nat({ max: 30_001 }).map((i) => vocabulary[i] ?? 'the'), { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
      fc.constantFrom('ΟΔΟΣ ΣΑΣ.', 'zqxv blorp', '[UNK] word', 'end[PAD]', 'x', '東京 😀', 'Bar.baz', ' leading space'),
    );
    const separator = fc.constantFrom(' ', '\n', '\n\n', '', '\t', '\u00a0');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(sentence, separator), { minLength: 3, maxLength: 14 }), async (parts) => {
        const pieces = parts.map(([text, sep]) => text + sep);
        const windows = pieces.slice(0, -2).map((_, i) => pieces.slice(i, i + 3).join('').trim()).filter((t) => t !== '');
        if (windows.length === 0) return;
        const together = await direct.embed(windows);
        // Alone: a text that no window contains comes before each, so nothing is carried from one window to the next.
        const alone: Float32Array[] = [];
        for (const w of windows) alone.push((await direct.embed(['\u0001 sentinel \u0001', w]))[1]!);
        expect(maxDifference(together, alone)).toBeLessThan(1e-6);
        together.forEach((v, i) => expect(v.every((x) => x === 0)).toBe(alone[i]!.every((x) => x === 0)));
      }),
      { numRuns: 200 },
    );
  });

  it('a window that drops only whitespace (untrimmed windows) equals the text embedded alone', async () => {
    // The dropped piece trims to '': its sum is zero, whatever the embedder embedded before (the warm-up included).
    const windows = [' the cat sat on the mat', 'the cat sat on the mat today', '\n the market rose', 'the market rose sharply'];
    for (let round = 0; round < 2; round++) {
      const together = await direct.embed(windows);
      const alone: Float32Array[] = [];
      for (const w of windows) alone.push((await direct.embed(['\u0001 sentinel \u0001', w]))[1]!);
      expect(maxDifference(together, alone)).toBeLessThan(1e-6);
    }
  });

  it("late chunking: the token rows are the ONNX graph's last_hidden_state rows", async () => {
    const [a, b] = [await direct.embedTokens(topics), await onnx.embedTokens(topics)];
    expect(a.tokens).toEqual(b.tokens);
    expect(maxDifference(a.vectors, b.vectors)).toBe(0);
  });
});

describe('semantic chunks are the same on both paths', () => {
  const strip = (chunks: Chunk[]) => chunks.map((c) => ({ start: c.start, end: c.end, text: c.text }));
  const distances = (chunks: Chunk[]) => chunks.map((c) => Number(c.metadata.distanceBefore ?? -1));

  async function expectSameChunks(text: string): Promise<void> {
    for (const compat of ['none', 'langchain', 'llamaindex'] as const) {
      const a = await chunk(text, { strategy: 'semantic', compat }, { embed: (t) => direct.embed(t) });
      const b = await chunk(text, { strategy: 'semantic', compat }, { embed: (t) => onnx.embed(t) });
      expect(strip(a)).toEqual(strip(b));
      distances(a).forEach((d, i) => expect(Math.abs(d - distances(b)[i]!)).toBeLessThan(1e-5));
    }
  }

  it('on the topics fixture, in every compat mode', async () => {
    await expectSameChunks(topics);
  });

  it.skipIf(!HAVE_SHARED_CORPUS)(`on 200 KB of the shared corpus ${NEEDS_SHARED_CORPUS}`, async () => {
    await expectSameChunks(readSharedCorpus(200_000));
  });
});

describe('what the direct path refuses (the model then runs on ONNX)', () => {
  const tokenizerJson = () => JSON.parse(readFileSync(`${MODEL_FOLDER}tokenizer.json`, 'utf8')) as Record<string, unknown>;
  const config = { unk_token: '[UNK]' };

  it('a tokenizer.json with another normalizer, pre-tokenizer, model or post-processor', () => {
    const variants: [string, unknown][] = [
      ['normalizer', { type: 'NFKC' }],
      ['pre_tokenizer', { type: 'Whitespace' }],
      ['post_processor', { type: 'TemplateProcessing' }],
      ['model', { type: 'WordPiece', vocab: {}, unk_token: '[UNK]' }],
    ];
    expect('refused' in readStaticTokenizer(tokenizerJson() as never, config)).toBe(false);
    for (const [key, value] of variants) {
      const refused = readStaticTokenizer({ ...tokenizerJson(), [key]: value } as never, config);
      expect(refused).toHaveProperty('refused');
    }
    expect(readStaticTokenizer(tokenizerJson() as never, { unk_token: '<unk>' })).toHaveProperty('refused');
  });

  it('an ONNX file that is not the static-table graph', () => {
    const bytes = new Uint8Array(readFileSync(`${MODEL_FOLDER}onnx/model_quantized.onnx`));
    expect(readStaticTable(bytes)).toMatchObject({ rows: 30_002, dims: 100 });
    // The same file with its Mul node renamed to Add: same bytes otherwise.
    const mul = bytes.findIndex((_, i) => bytes[i] === 0x4d && bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6c && bytes[i - 1] === 3 && bytes[i - 2] === 0x22);
    const changed = bytes.slice();
    changed.set([0x41, 0x64, 0x64], mul);
    expect(readStaticTable(changed)).toMatchObject({ refused: expect.stringMatching(/not the static-table graph: node 3 is Add/) });
  });
});

describe('the encoder finds words in place', () => {
  it('lowercasing leaves every whitespace and punctuation code point as it is (so words are found before it)', () => {
    const space = /^\s$/u;
    const punctuation = /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u;
    let checked = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!space.test(c) && !punctuation.test(c)) continue;
      checked++;
      if (c.toLowerCase() !== c) expect.fail(`U+${cp.toString(16)} lowercases to ${JSON.stringify(c.toLowerCase())}`);
    }
    expect(checked).toBeGreaterThan(800);
  });

  it("gives the ids of the token strings (the path that lowercases whole pieces), capital sigma and [UNK] included", () => {
    const ids = new Map(Object.entries((JSON.parse(readFileSync(`${MODEL_FOLDER}tokenizer.json`, 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab));
    const unk = ids.get('[UNK]')!;
    const words = fc.oneof(fc.constantFrom(...vocabulary.slice(0, 400)), fc.constantFrom('ΣΟΦΙΑ', 'ΌΣΟΣ Σ', 'İstanbul', 'Straße', 'ÉCOLE', '[UNK]', '[PAD]', '[UN', 'x[PAD]y'), fc.string({ unit: 'grapheme', maxLength: 6 }));
    const texts = fc.array(fc.tuple(words, fc.constantFrom(' ', '', '. ', '\n', ',', '\u00a0')), { maxLength: 16 }).map((p) => p.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(texts, (text) => {
        expect(direct.encode(text)).toEqual(direct['tokenizer'].tokens(text).map((t) => ids.get(t) ?? unk));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the vocabulary table', () => {
  it('holds the own words of a tokenizer.json with their ids: names of Object.prototype are words like others', () => {
    const json = JSON.parse(readFileSync(`${MODEL_FOLDER}tokenizer.json`, 'utf8')) as Parameters<typeof readStaticTokenizer>[0] & { model: { vocab: Record<string, number> } };
    json.model.vocab = JSON.parse('{"__proto__": 7, "constructor": 8, "the": 2, "[UNK]": 1, "[PAD]": 0}') as Record<string, number>;
    const tokenizer = readStaticTokenizer(json, { unk_token: '[UNK]' });
    if ('refused' in tokenizer) throw new Error(tokenizer.refused);
    // "__proto__" is a key of its own (JSON.parse makes it one) but never a word: "_" is punctuation.
    expect(tokenizer.encode('constructor the toString hasOwnProperty')).toEqual([8, 2, 1, 1]);
    expect(tokenizer.vocabSize).toBe(5);
  });
});
