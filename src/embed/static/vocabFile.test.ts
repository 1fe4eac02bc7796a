import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultModelPath } from '../index';
import { compileVocabFile } from './compileVocabFile';
import { loadStaticEmbedder, StaticEmbedder } from './embedder';
import { readStaticTokenizer, staticTokenizerFrom, type StaticTokenizer, type TokenizerJson } from './tokenizer';
import { decodeVocabFile, encodeVocabFile, VOCAB_FILE } from './vocabFile';

// The built-in model's precompiled vocabulary table: fresh (compiled from the tokenizer.json beside it), and giving
// the same ids as the tokenizer built from that JSON, on any text.

const FOLDER = join(defaultModelPath(), 'chunkscope-static-en');
const read = (name: string) => new Uint8Array(readFileSync(join(FOLDER, name)));
const fromJson = readStaticTokenizer(
  JSON.parse(readFileSync(join(FOLDER, 'tokenizer.json'), 'utf8')) as TokenizerJson,
  JSON.parse(readFileSync(join(FOLDER, 'tokenizer_config.json'), 'utf8')) as { unk_token?: unknown },
) as StaticTokenizer;
const fromFile = staticTokenizerFrom(decodeVocabFile(read(VOCAB_FILE)));
const vocabulary = Object.keys((JSON.parse(readFileSync(join(FOLDER, 'tokenizer.json'), 'utf8')) as { model: { vocab: object } }).model.vocab);

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the built-in model vocabulary table', () => {
  it('is the one compiled from the tokenizer.json and tokenizer_config.json beside it (npm run model:vocab-table)', () => {
    const fresh = compileVocabFile(read);
    if ('refused' in fresh) throw new Error(fresh.refused);
    expect(Buffer.from(read(VOCAB_FILE)).equals(Buffer.from(fresh.bytes))).toBe(true);
    expect(Object.keys(decodeVocabFile(read(VOCAB_FILE)).header.compiledFrom)).toEqual(['tokenizer.json', 'tokenizer_config.json']);
  });

  it('holds every vocabulary word with its id, and the unknown and added tokens', () => {
    expect(fromFile.vocabSize).toBe(fromJson.vocabSize);
    const words = vocabulary.join(' ');
    expect(fromFile.encode(words)).toEqual(fromJson.encode(words));
    expect(fromFile.encode('[PAD] zzqxyzzy [UNK]')).toEqual(fromJson.encode('[PAD] zzqxyzzy [UNK]'));
  });

  it('gives the same ids as the JSON-built tokenizer on any text (property)', () => {
    const word = fc.constantFrom(...vocabulary.slice(0, 3000));
    const text = fc.oneof(
      fc.array(fc.oneof(word, fc.string({ unit: 'binary' }), fc.constantFrom(' ', '\n', '. ', 'É', 'Σ', '東京', '😀', '[UNK]')), { maxLength: 30 }).map((p) => p.join('')),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(fromFile.encode(t)).toEqual(fromJson.encode(t));
      }),
      { numRuns: 400 },
    );
  });

  it('survives a round trip through encodeVocabFile with the same bytes', () => {
    const decoded = decodeVocabFile(read(VOCAB_FILE));
    expect(Buffer.from(encodeVocabFile(decoded, decoded.header.compiledFrom)).equals(Buffer.from(read(VOCAB_FILE)))).toBe(true);
  });

  it('refuses bytes that are not a table, or are cut short, with the reason', () => {
    const bytes = read(VOCAB_FILE);
    expect(() => decodeVocabFile(new TextEncoder().encode('{"model":{}}'))).toThrow(/not a vocabulary table/);
    expect(() => decodeVocabFile(bytes.subarray(0, bytes.length - 1000))).toThrow(/characters of words|malformed/);
    expect(() => decodeVocabFile(bytes.subarray(0, 2000))).toThrow(/truncated or malformed/);
  });

  it('loads a model folder without the table from its tokenizer.json, to the same vectors', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'chunkscope-vocab-'));
    temporary.push(copy);
    cpSync(FOLDER, copy, { recursive: true });
    rmSync(join(copy, VOCAB_FILE));
    const info = { id: 'builtin', label: 'built-in', maxTokens: Infinity };
    const [withTable, withoutTable] = await Promise.all([loadStaticEmbedder(FOLDER, info), loadStaticEmbedder(copy, info)]);
    if (!(withTable instanceof StaticEmbedder) || !(withoutTable instanceof StaticEmbedder)) throw new Error('not on the direct path');
    const texts = ['Café au lait, naïve résumé!', 'The quick brown fox. It jumps over the lazy dog.', 'zzqxyzzy 東京 😀'];
    expect(await withoutTable.embed(texts)).toEqual(await withTable.embed(texts));
  });
});
