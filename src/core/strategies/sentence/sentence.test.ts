import { describe, expect, it } from 'vitest';
import { chunk } from '../../index';
import type { ChunkOptions } from '../../types';

const texts = async (text: string, options: ChunkOptions) =>
  (await chunk(text, { strategy: 'sentence', ...options })).map((c) => c.text);

describe('sentence splitter', () => {
  const text = 'Hello there. How are you? I am fine.';

  it('packs whole sentences up to the size', async () => {
    // "Hello there. How are you?" is 25 chars; adding "I am fine." makes 36 > 30.
    expect(await texts(text, { size: 30, overlap: 0 })).toEqual(['Hello there. How are you?', 'I am fine.']);
  });

  it('overlaps in whole sentences', async () => {
    // "How are you?" (12 chars) fits an overlap of 15, and "How are you? I am fine." (23) fits the size.
    expect(await texts(text, { size: 30, overlap: 15 })).toEqual([
      'Hello there. How are you?',
      'How are you? I am fine.',
    ]);
    // An overlap of 11 cannot hold a whole sentence: none.
    expect(await texts(text, { size: 30, overlap: 11 })).toEqual(['Hello there. How are you?', 'I am fine.']);
  });

  it('segments any language Intl.Segmenter knows', async () => {
    expect(await texts('これはペンです。あれは本です。', { size: 10, overlap: 0, locale: 'ja' })).toEqual([
      'これはペンです。',
      'あれは本です。',
    ]);
    expect(await texts('Guten Tag. Wie geht es? Gut!', { size: 12, overlap: 0, locale: 'de' })).toEqual([
      'Guten Tag.',
      'Wie geht es?',
      'Gut!',
    ]);
  });

  it('cuts a sentence longer than the size at words', async () => {
    expect(await texts('This sentence is rather long. Short.', { size: 15, overlap: 0 })).toEqual([
      'This sentence',
      'is rather long.',
      'Short.',
    ]);
  });

  it('finds the same sentences in a long document as in its parts (windowed segmentation)', async () => {
    const paragraph = 'The committee met on Tuesday. It agreed on three points! Was the budget approved? Yes.\n';
    const doc = paragraph.repeat(400); // ~35 KB: segmented in windows
    const chunks = await chunk(doc, { strategy: 'sentence', size: 35, overlap: 0 });
    const expected = ['The committee met on Tuesday.', 'It agreed on three points!', 'Was the budget approved? Yes.'];
    expect(chunks.map((c) => c.text)).toEqual(Array.from({ length: 400 }, () => expected).flat());
  });
});
