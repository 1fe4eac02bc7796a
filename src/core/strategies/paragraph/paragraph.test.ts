import { describe, expect, it } from 'vitest';
import { chunk } from '../../index';
import type { ChunkOptions } from '../../types';

const spans = async (text: string, options: ChunkOptions) =>
  (await chunk(text, { strategy: 'paragraph', ...options })).map((c) => [c.start, c.end, c.text]);

describe('paragraph splitter', () => {
  // Blank lines in three forms: \r\n\r\n, and a line holding only spaces.
  const text = 'Para one.\r\n\r\nPara two is here.\n  \nPara three.';

  it('packs whole paragraphs up to the size, whatever the line endings', async () => {
    expect(await spans(text, { size: 30, overlap: 0 })).toEqual([
      [0, 30, 'Para one.\r\n\r\nPara two is here.'],
      [34, 45, 'Para three.'],
    ]);
    expect(await spans(text, { size: 20, overlap: 0 })).toEqual([
      [0, 9, 'Para one.'],
      [13, 30, 'Para two is here.'],
      [34, 45, 'Para three.'],
    ]);
  });

  it('falls back to sentences, then words, for a paragraph larger than the size', async () => {
    // The first paragraph (37 chars) is cut into its sentences; those chunks are not packed with the next
    // paragraph, so a chunk never straddles a paragraph that had to be cut.
    expect((await spans('First sentence here. Second one here.\n\nEnd.', { size: 25, overlap: 0 })).map((s) => s[2])).toEqual([
      'First sentence here.',
      'Second one here.',
      'End.',
    ]);
    expect((await spans('Averyveryverylongword and more', { size: 12, overlap: 0 })).map((s) => s[2])).toEqual([
      'Averyveryver',
      'ylongword',
      'and more',
    ]);
  });

  it('does not cut at a single line break', async () => {
    expect(await spans('line one\nline two', { size: 100, overlap: 0 })).toEqual([[0, 17, 'line one\nline two']]);
  });
});
