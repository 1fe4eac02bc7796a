import { describe, expect, it } from 'vitest';
import { chunk } from '../../index';
import type { ChunkOptions } from '../../types';

const spans = async (text: string, options: ChunkOptions) =>
  (await chunk(text, { strategy: 'recursive', ...options })).map((c) => [c.start, c.end, c.text]);
const texts = async (text: string, options: ChunkOptions) =>
  (await chunk(text, { strategy: 'recursive', ...options })).map((c) => c.text);

describe('recursive splitter', () => {
  const text = 'One two three.\n\nFour five six seven.\nEight nine.';

  it('keeps paragraphs whole when they fit and cuts a too-long one at lines', async () => {
    // "One two three." (14) fits 20. The second paragraph (32) does not, so it is cut at "\n" into
    // "Four five six seven." (20) and "Eight nine." (11), which together (32) exceed 20.
    expect(await spans(text, { size: 20, overlap: 0 })).toEqual([
      [0, 14, 'One two three.'],
      [16, 36, 'Four five six seven.'],
      [37, 48, 'Eight nine.'],
    ]);
  });

  it('packs small paragraphs together up to the size', async () => {
    expect(await texts('a b\n\nc d\n\ne f', { size: 8, overlap: 0 })).toEqual(['a b\n\nc d', 'e f']);
  });

  it('falls back to words, and overlaps by whole words', async () => {
    expect(await texts('aaa bbb ccc ddd', { size: 7, overlap: 3 })).toEqual(['aaa bbb', 'bbb ccc', 'ccc ddd']);
  });

  it('cuts an unbroken run between characters, never inside a surrogate pair or an emoji sequence', async () => {
    expect(await texts('abcdefgh', { size: 3, overlap: 0 })).toEqual(['abc', 'def', 'gh']);
    // 👨‍👩‍👧 is 8 UTF-16 code units and one grapheme: it cannot be cut, so it stands alone, flagged.
    const family = '👨‍👩‍👧';
    const chunks = await chunk(`ab${family}cd`, { strategy: 'recursive', size: 3, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual(['ab', family, 'cd']);
    expect(chunks.map((c) => c.metadata.oversize ?? false)).toEqual([false, true, false]);
  });

  it('places a kept separator at the start or the end of a piece, or leaves it between chunks', async () => {
    const s = 'A b. C d. E f.';
    const separators = ['.', ''];
    expect(await texts(s, { size: 6, overlap: 0, separators, keepSeparator: 'end' })).toEqual(['A b.', 'C d.', 'E f.']);
    expect(await texts(s, { size: 6, overlap: 0, separators, keepSeparator: 'start' })).toEqual(['A b', '. C d', '. E f.']);
    expect(await texts(s, { size: 6, overlap: 0, separators, keepSeparator: 'none' })).toEqual(['A b', 'C d', 'E f']);
    // Inside a chunk the separator is always there: text is a slice of the source.
    expect(await texts(s, { size: 100, overlap: 0, separators, keepSeparator: 'none' })).toEqual([s]);
  });

  it('uses a language preset: python splits before top-level definitions first', async () => {
    const code = 'import os\n\nclass A:\n    def f(self):\n        return 1\n\ndef g():\n    return 2\n';
    // The preset's first separator "\nclass " cuts before the class (the rest, 65 chars, is too long); inside
    // that piece "\ndef " cuts before g (42 + 21 chars do not fit together); the indented def is not a cut.
    expect(await texts(code, { size: 45, overlap: 0, language: 'python' })).toEqual([
      'import os',
      'class A:\n    def f(self):\n        return 1',
      'def g():\n    return 2',
    ]);
  });

  it('accepts guarded regular-expression separators', async () => {
    const s = 'alpha; beta;; gamma;;; delta';
    expect(await texts(s, { size: 12, overlap: 0, separators: [';+ ', ''], separatorsAreRegex: true, keepSeparator: 'none' })).toEqual([
      'alpha; beta',
      'gamma',
      'delta',
    ]);
  });

  it('counts the size in the chosen unit', async () => {
    const s = 'one two three four five six seven';
    expect(await texts(s, { size: 3, overlap: 1, unit: 'words' })).toEqual([
      'one two three',
      'three four five',
      'five six seven',
    ]);
  });
});
