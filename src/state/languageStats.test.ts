import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { getUnit } from '../core/units';
import { multilingual } from '../ui/samples/multilingual';
import { detectLanguageWindows } from '../core/languageWindows';
import { languageRows, selectLanguageRows, wordCount } from './languageStats';
import type { PaintableResult } from './resultsSlice';

/** The painted-result fields languageRows reads, from the real engine and real cl100k counts. */
async function painted(text: string, size: number) {
  const chunks = await chunk(text, { strategy: 'recursive', size, overlap: 0, unit: 'chars' });
  const cl100k = await getUnit('cl100k_base');
  const result = {
    text,
    unit: 'chars',
    starts: Int32Array.from(chunks.map((c) => c.start)),
    ends: Int32Array.from(chunks.map((c) => c.end)),
  } as unknown as PaintableResult;
  return { result, tokens: { counts: chunks.map((c) => cl100k.count(c.text)), encoding: 'cl100k_base' }, chunks };
}

describe('per-language token figures', () => {
  it('find the sample’s languages and what a 512-character chunk holds in each', async () => {
    const { result, tokens, chunks } = await painted(multilingual, 100);
    const { rows, mixed, other } = languageRows(result, tokens, detectLanguageWindows(multilingual), 512);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    for (const code of ['eng', 'fra', 'deu', 'spa', 'jpn', 'cmn', 'kor']) expect(byCode.has(code), code).toBe(true);
    // franc-min takes the short Russian paragraph for Bulgarian (a trigram detector on ~150 characters of Cyrillic).
    const cyrillic = byCode.get('rus') ?? byCode.get('bul');
    expect(cyrillic).toBeDefined();
    expect(byCode.get('eng')!.name).toBe('English');
    // English packs more characters into a token than Japanese or Russian (the English rows here also hold the
    // sample's emoji section, so tokens per word are not compared).
    expect(byCode.get('eng')!.charsPerToken).toBeGreaterThan(byCode.get('jpn')!.charsPerToken);
    expect(byCode.get('eng')!.charsPerToken).toBeGreaterThan(cyrillic!.charsPerToken);
    // Every chunk is counted once, under one language; the sums are the chunks' own.
    expect(rows.reduce((n, r) => n + r.chunks, 0) + mixed + other).toBe(chunks.length);
    expect(mixed).toBeLessThan(chunks.length / 4);
    for (const r of rows) {
      expect(r.charsPerToken).toBeCloseTo(r.chars / r.tokens, 10);
      // Characters: the size in words is the size over the language's characters per word.
      expect(r.sizeInWords!).toBeCloseTo(512 / (r.chars / r.words), 10);
    }
  });

  it('one language for a document in one language', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: the ferry leaves at seven, whatever the weather, and the harbour master writes it down.`).join('\n\n');
    const { result, tokens } = await painted(text, 300);
    const { rows, mixed } = languageRows(result, tokens, detectLanguageWindows(text), 300);
    expect(mixed).toBe(0);
    expect(rows[0]!.tokens).toBe(tokens.counts.reduce((a, b) => a + b, 0));
    expect(rows.map((r) => r.code)).toEqual(['eng']);
    expect(rows[0]!.tokensPerWord).toBeGreaterThan(1);
    expect(rows[0]!.tokensPerWord).toBeLessThan(1.6);
  });

  it('leaves out chunks that mix languages, and says how many', async () => {
    const { result, tokens, chunks } = await painted(multilingual, 1000);
    const { rows, mixed, other } = languageRows(result, tokens, detectLanguageWindows(multilingual), 1000);
    expect(mixed).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + r.chunks, 0) + mixed + other).toBe(chunks.length);
  });

  it('lists only languages with at least 2% of the tokens (a stray quote is counted, not listed)', async () => {
    const english = Array.from({ length: 80 }, (_, i) => `Paragraph ${i}: the ferry leaves at seven, whatever the weather, and the harbour master writes it down.`);
    english.splice(40, 0, 'Die Fähre legt um sieben ab, bei jedem Wetter, und die Fischer verkaufen ihren Fang am Kai.');
    const text = english.join('\n\n');
    const { result, tokens } = await painted(text, 120);
    const { rows, other } = languageRows(result, tokens, detectLanguageWindows(text), 120);
    expect(rows.map((r) => r.code)).toEqual(['eng']);
    expect(other).toBeGreaterThan(0);
  });

  it('the panel waits for the worker’s counts and language windows, takes its words, and a new size only redoes the size column', async () => {
    const { result, tokens } = await painted(multilingual, 100);
    const painted1 = { ...result, jobId: 7, unit: 'chars', sizes: new Float64Array(result.starts.length) } as PaintableResult;
    expect(selectLanguageRows({ result: painted1, tokens: null, config: { size: 512 } })).toBeNull();
    const noWords = { jobId: 7, tokens: Int32Array.from(tokens.counts), encoding: 'cl100k_base' };
    expect(selectLanguageRows({ result: painted1, tokens: noWords, config: { size: 512 } })).toBeNull();
    // One "word" per chunk from the worker: the rows count what the worker said, not the page's own segmentation.
    const words = new Int32Array(result.starts.length).fill(1);
    expect(selectLanguageRows({ result: painted1, tokens: { ...noWords, words }, config: { size: 512 } })).toBeNull();
    const fromWorker = { ...noWords, words, languages: detectLanguageWindows(multilingual) };
    const at512 = selectLanguageRows({ result: painted1, tokens: fromWorker, config: { size: 512 } })!;
    for (const r of at512.rows) expect(r.words).toBe(r.chunks);
    const at1024 = selectLanguageRows({ result: painted1, tokens: fromWorker, config: { size: 1024 } })!;
    expect(at1024.rows.map((r) => [r.code, r.words, r.tokens])).toEqual(at512.rows.map((r) => [r.code, r.words, r.tokens]));
    at1024.rows.forEach((r, i) => expect(r.sizeInWords!).toBeCloseTo(2 * at512.rows[i]!.sizeInWords!));
  });

  it('counts words as the words unit does (Japanese has words, not one run)', () => {
    expect(wordCount('フェリーは天気に関係なく七時に出航します。')).toBeGreaterThan(5);
    expect(wordCount('The ferry leaves at seven.')).toBe(5);
  });
});
