/**
 * The cases of @chonkiejs/core's own tests (packages/core/tests/{recursive,token,sentence}.test.ts in
 * chonkie-inc/chonkiejs), restated as fixtures: the expected lists are what the package returns for them (text,
 * startIndex, endIndex), written out, plus the documented quirks. Each case also runs the package itself.
 */
import { describe, expect, test } from 'vitest';
import { chunk } from '../../index';
import { validateOptions } from '../../options';
import type { ChunkOptions } from '../../types';
import { referenceChunks, type ChonkieCase } from './fixtures/harness';

type Expected = [text: string, start: number, end: number][];

async function expectChunks(text: string, c: ChonkieCase, expected: Expected): Promise<void> {
  const options: ChunkOptions = { strategy: c.strategy, compat: 'chonkie' };
  if (c.size !== undefined) options.size = c.size;
  if (c.overlap !== undefined) options.overlap = c.overlap;
  if (c.unit !== undefined) options.unit = c.unit;
  const ours = await chunk(text, options);
  const reported = ours.map((ch) => {
    const r = ch.metadata.referenceOffsets as { start: number; end: number } | undefined;
    return [ch.content, r?.start ?? ch.start, r?.end ?? ch.end];
  });
  expect(reported).toEqual(expected);
  expect((await referenceChunks(text, c)).map((r) => [r.text, r.startIndex, r.endIndex])).toEqual(expected);
  for (const ch of ours) expect(ch.text).toBe(text.slice(ch.start, ch.end));
}

describe('Chonkie defaults in compat mode', () => {
  test('sizes and overlaps are the package defaults when none is given', () => {
    expect(validateOptions({ strategy: 'recursive', compat: 'chonkie' })).toMatchObject({ size: 512, overlap: 0, unit: 'chars' });
    expect(validateOptions({ strategy: 'token', compat: 'chonkie' })).toMatchObject({ size: 512, overlap: 0, unit: 'chars' });
    expect(validateOptions({ strategy: 'sentence', compat: 'chonkie' })).toMatchObject({ size: 2048, overlap: 0, unit: 'chars' });
    expect(validateOptions({ strategy: 'sentence', compat: 'chonkie', size: 100 })).toMatchObject({ size: 100, overlap: 0 });
    expect(validateOptions({ strategy: 'token', compat: 'chonkie', unit: 'cl100k_base', size: 8, overlap: 2 })).toMatchObject({ size: 8, overlap: 2 });
  });

  test('what Chonkie cannot take is refused in one line', () => {
    expect(() => validateOptions({ strategy: 'recursive', compat: 'chonkie', overlap: 10 })).toThrow(/RecursiveChunker has no overlap/);
    expect(() => validateOptions({ strategy: 'recursive', compat: 'chonkie', separators: ['\n'] })).toThrow(/own rules/);
    expect(() => validateOptions({ strategy: 'sentence', compat: 'chonkie', unit: 'words' })).toThrow(/character tokenizer/);
    expect(() => validateOptions({ strategy: 'token', compat: 'chonkie', size: 10, overlap: 10 })).toThrow(/smaller than size/);
    expect(() => validateOptions({ strategy: 'paragraph', compat: 'chonkie' })).toThrow(/compat chonkie applies to recursive, sentence, fixed, token only/);
  });
});

describe('RecursiveChunker (upstream cases)', () => {
  test('short text: one chunk', async () => {
    await expectChunks('This is a short text.', { strategy: 'recursive', size: 100 }, [['This is a short text.', 0, 21]]);
  });
  test('paragraphs, then sentences, reconstruct the text', async () => {
    await expectChunks('First paragraph.\n\nSecond paragraph.\n\nThird paragraph.', { strategy: 'recursive', size: 50 }, [
      ['First paragraph.\n\nSecond paragraph.\n\nThird', 0, 42],
      [' paragraph.', 42, 53],
    ]);
    await expectChunks('First sentence. Second sentence. Third sentence.', { strategy: 'recursive', size: 30 }, [
      ['First sentence. Second', 0, 22],
      [' sentence. Third sentence.', 22, 48],
    ]);
  });
  test('indices', async () => {
    await expectChunks('Hello world. How are you? I am fine.', { strategy: 'recursive', size: 20 }, [
      ['Hello world. How', 0, 16],
      [' are you? I am', 16, 30],
      [' fine.', 30, 36],
    ]);
  });
  test('a run without delimiters is cut into token windows', async () => {
    const a = 'A'.repeat(200);
    await expectChunks(a, { strategy: 'recursive', size: 50 }, [0, 50, 100, 150].map((s) => [a.slice(s, s + 50), s, s + 50]));
  });
  test('empty text and delimiters only', async () => {
    await expectChunks('', { strategy: 'recursive' }, []);
    await expectChunks('\n\n\n\n', { strategy: 'recursive', size: 10 }, [['\n\n\n\n', 0, 4]]);
  });
  test('QUIRK: UTF-8 byte offsets used as string indexes (size 30, the sentence twice)', async () => {
    const text = 'Ünïcödé text — “quotes” here. Ünïcödé text — “quotes” here.';
    const expected: Expected = [
      ['Ünïcödé tex  — “ uot', 0, 20],
      [' s” here. Ünï ödé t  ', 20, 41],
      ['ext — “quotes” here.', 39, 59],
    ];
    await expectChunks(text, { strategy: 'recursive', size: 30 }, expected);
    const ours = await chunk(text, { strategy: 'recursive', compat: 'chonkie', size: 30 });
    // Not substrings of the source: `text` is where the characters came from, metadata keeps the package's offsets.
    expect(text.includes(ours[0]!.content)).toBe(false);
    expect(ours.map((c) => [c.start, c.end, c.text])).toEqual([
      [0, 20, 'Ünïcödé text — “quot'],
      [21, 39, 's” here. Ünïcödé t'],
      [39, 59, 'ext — “quotes” here.'],
    ]);
    expect(ours.map((c) => c.metadata.referenceOffsets)).toEqual([{ start: 0, end: 20 }, { start: 20, end: 41 }, undefined]);
    // The second chunk's reported end (41) runs past where the third starts (39).
    expect(ours[2]!.content).toBe(text.slice(39, 59));
  });
  test('QUIRK: the whitespace level collapses runs of spaces', async () => {
    await expectChunks('a  b   c d', { strategy: 'recursive', size: 3 }, [
      ['a', 0, 1],
      [' b', 1, 3],
      [' c', 3, 5],
      [' d', 5, 7],
    ]);
  });
});

describe('TokenChunker (upstream cases)', () => {
  test('short text, windows, overlap, indices at character boundaries', async () => {
    await expectChunks('Hello world', { strategy: 'token', size: 100 }, [['Hello world', 0, 11]]);
    const abc = 'abcdefghijklmnopqrstuvwxyz';
    await expectChunks(abc, { strategy: 'token', size: 10 }, [
      ['abcdefghij', 0, 10],
      ['klmnopqrst', 10, 20],
      ['uvwxyz', 20, 26],
    ]);
    await expectChunks(abc, { strategy: 'token', size: 10, overlap: 3 }, [
      ['abcdefghij', 0, 10],
      ['hijklmnopq', 7, 17],
      ['opqrstuvwx', 14, 24],
      ['vwxyz', 21, 26],
    ]);
    await expectChunks('abcdefghij', { strategy: 'token', size: 3 }, [
      ['abc', 0, 3],
      ['def', 3, 6],
      ['ghi', 6, 9],
      ['j', 9, 10],
    ]);
    await expectChunks('', { strategy: 'token' }, []);
  });
  test('emoji: one token per code point, UTF-16 offsets', async () => {
    await expectChunks('Hi 🦛 there', { strategy: 'token', size: 5 }, [
      ['Hi 🦛 ', 0, 6],
      ['there', 6, 11],
    ]);
  });
  test('QUIRK: with a real tokenizer, token indexes are reported as character offsets', async () => {
    const text = 'Tokens are not characters.';
    const ours = await chunk(text, { strategy: 'token', compat: 'chonkie', unit: 'cl100k_base', size: 2, overlap: 0 });
    const ref = await referenceChunks(text, { strategy: 'token', unit: 'cl100k_base', size: 2, overlap: 0 });
    expect(ours.map((c) => c.content)).toEqual(ref.map((r) => r.text));
    expect(ref.map((r) => [r.startIndex, r.endIndex])).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
    ]);
    expect(ours.map((c) => c.text)).toEqual(['Tokens are', ' not characters', '.']);
    expect(ours.map((c) => c.metadata.referenceOffsets)).toEqual(ref.map((r) => ({ start: r.startIndex, end: r.endIndex })));
  });
});

describe('SentenceChunker (upstream cases)', () => {
  test('short text, several sentences, size limits, indices', async () => {
    await expectChunks('This is a short sentence. It fits in one chunk.', { strategy: 'sentence', size: 500 }, [
      ['This is a short sentence. It fits in one chunk.', 0, 47],
    ]);
    await expectChunks('First sentence here. Second sentence here. Third sentence here.', { strategy: 'sentence', size: 30 }, [
      ['First sentence here. ', 0, 21],
      ['Second sentence here. ', 21, 43],
      ['Third sentence here.', 43, 63],
    ]);
    await expectChunks('First sentence is here. Second sentence follows. Third one too.', { strategy: 'sentence', size: 40 }, [
      ['First sentence is here. ', 0, 24],
      ['Second sentence follows. Third one too.', 24, 63],
    ]);
    await expectChunks('Short one. Another short. Third here. Fourth one.', { strategy: 'sentence', size: 20 }, [
      ['Short one. Another short. ', 0, 26],
      ['Third here. Fourth one.', 26, 49],
    ]);
  });
  test('empty and blank text', async () => {
    await expectChunks('', { strategy: 'sentence' }, []);
    await expectChunks('   ', { strategy: 'sentence' }, []);
  });
  test('overlap in whole sentences, dropped when it would not move forward', async () => {
    await expectChunks('First sentence here. Second sentence here. Third sentence here. Fourth sentence.', { strategy: 'sentence', size: 30, overlap: 10 }, [
      ['First sentence here. ', 0, 21],
      ['Second sentence here. ', 21, 43],
      ['Third sentence here. ', 43, 64],
      ['Fourth sentence.', 64, 80],
    ]);
    await expectChunks('One two three. Four five six. Seven eight nine. Ten eleven.', { strategy: 'sentence', size: 32, overlap: 16 }, [
      ['One two three. Four five six. ', 0, 30],
      // The overlap sentence alone: with the next sentence it would pass the size, so this chunk lies inside the first.
      ['Four five six. ', 15, 30],
      ['Seven eight nine. Ten eleven.', 30, 59],
    ]);
  });
  test('QUIRK: a sentence longer than the size is kept whole (oversize); short sentences merge', async () => {
    const text = 'Tiny. This sentence is much longer than sixteen characters. End.';
    await expectChunks(text, { strategy: 'sentence', size: 16 }, [[text, 0, 64]]);
    const [only] = await chunk(text, { strategy: 'sentence', compat: 'chonkie', size: 16 });
    expect(only!.metadata.oversize).toBe(true);
  });
});
