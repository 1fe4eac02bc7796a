import { describe, expect, it } from 'vitest';
import { chunk, getUnit } from '../../index';
import type { ChunkOptions } from '../../types';

const texts = async (text: string, options: ChunkOptions) =>
  (await chunk(text, { strategy: 'fixed', ...options })).map((c) => c.text);

describe('fixed splitter', () => {
  it('makes windows of N characters, each starting `overlap` before the previous end', async () => {
    expect(await texts('abcdefghij', { size: 4, overlap: 1 })).toEqual(['abcd', 'defg', 'ghij']);
    expect(await texts('abcdefghij', { size: 5, overlap: 0 })).toEqual(['abcde', 'fghij']);
  });

  it('never cuts a surrogate pair', async () => {
    // "ab😀cd": a window of 3 would end between the two halves of 😀, so it ends before it.
    expect(await texts('ab😀cd', { size: 3, overlap: 0 })).toEqual(['ab', '😀c', 'd']);
  });

  it('does not trim windows but skips windows of whitespace only', async () => {
    // Windows [0,3) "ab ", [3,6) " \n " (blank: skipped), [6,9) "  c", [9,10) "d".
    expect(await texts('ab  \n   cd', { size: 3, overlap: 0 })).toEqual(['ab ', '  c', 'd']);
  });

  it('makes windows of N words', async () => {
    expect(await texts('one two  three four five', { size: 2, overlap: 1, unit: 'words' })).toEqual([
      'one two',
      'two  three',
      'three four',
      'four five',
    ]);
  });

  it('makes windows of N tokens on token boundaries', async () => {
    const unit = await getUnit('cl100k_base');
    const text = 'one two three four five';
    expect(unit.tokenize!(text).map((t) => text.slice(t.start, t.end))).toEqual(['one', ' two', ' three', ' four', ' five']);
    expect(await texts(text, { size: 2, overlap: 0, unit: 'cl100k_base' })).toEqual(['one two', ' three four', ' five']);
  });
});

describe('fixed splitter: words in any language', () => {
  it('counts Japanese, Chinese and Thai words with Intl.Segmenter', async () => {
    const ja = '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。';
    const chunks = await chunk(ja, { strategy: 'fixed', unit: 'words', size: 5, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((c) => c.text).join('')).toBe(ja); // no gaps: each window ends where the next word starts
    for (const c of chunks) {
      expect(c.text).toBe(ja.slice(c.start, c.end));
      expect(c.size).toBeLessThanOrEqual(5);
    }
    expect((await texts('我爱北京天安门', { unit: 'words', size: 2, overlap: 0 }))).toEqual(['我爱', '北京天安门']);
    expect((await texts('สวัสดีครับ ผมชื่อสมชาย', { unit: 'words', size: 2, overlap: 0 }))).toEqual(['สวัสดีครับ', 'ผมชื่อ', 'สมชาย']);
  });

  it('keeps punctuation and emoji, German compounds are one word', async () => {
    expect(await texts('«Hallo», sagte er. Donaudampfschifffahrt! 😀 ok.', { unit: 'words', size: 2, overlap: 0 })).toEqual([
      '«Hallo», sagte',
      'er. Donaudampfschifffahrt!',
      '😀 ok.',
    ]);
    expect(await texts('... !!!', { unit: 'words', size: 2, overlap: 0 })).toEqual(['... !!!']);
  });
});
