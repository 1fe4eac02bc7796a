/**
 * Differential property test: the fixed strategy in compat mode `chonkie` against the real FastChunker of
 * @chonkiejs/core 0.0.11 (over @chonkiejs/chunk's WASM). For every case: the same chunk texts in the same order
 * (`content`), the chunk contract (`text === source.slice(start, end)`), and the package's offsets kept exactly, as
 * start/end where they point at its text, else in metadata.referenceOffsets.
 */
import { FastChunker } from '@chonkiejs/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, validateOptions } from '../../index';
import type { ChunkOptions } from '../../types';

const fragment = fc.oneof(
  { arbitrary: fc.constantFrom('lorem', 'ipsum', 'a', 'the', 'Überstraße', 'naïve', 'café', 'x'.repeat(30)), weight: 8 },
  { arbitrary: fc.constantFrom(' ', '\n', '\n\n', '\r\n', '\t', '. ', '.', '?', '? ', '!', ', '), weight: 8 },
  { arbitrary: fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧', '你好', '日本語のテキスト。', '한국어', '—', '€'), weight: 3 },
  // A byte order mark (TextDecoder drops one at the start of a piece) and lone surrogates (written as U+FFFD).
  { arbitrary: fc.constantFrom('\ufeff', '\ud83d', '\ude00'), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 4 }), weight: 1 },
);
const documents = fc.oneof(
  { arbitrary: fc.array(fragment, { maxLength: 80 }).map((p) => p.join('')), weight: 12 },
  { arbitrary: fc.constantFrom('', ' ', '\n\n', '\ufeffBOM first.'), weight: 1 },
);
const sizes = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 120 }), fc.constant(undefined));

async function expectSameAsPackage(text: string, size: number | undefined): Promise<void> {
  const reference = (await FastChunker.create(size === undefined ? {} : { chunkSize: size })).chunk(text);
  const options: ChunkOptions = { strategy: 'fixed', compat: 'chonkie', ...(size === undefined ? {} : { size }) };
  const ours = await chunk(text, options);
  expect(ours.map((c) => c.content)).toEqual(reference.map((c) => c.text));
  ours.forEach((c, i) => {
    expect(c.text).toBe(text.slice(c.start, c.end));
    const theirs = { start: reference[i]!.startIndex, end: reference[i]!.endIndex };
    const note = c.metadata.referenceOffsets as { start: number; end: number } | undefined;
    expect(note ?? { start: c.start, end: c.end }).toEqual(theirs);
    expect(c.metadata.oversize === true).toBe(c.size > validateOptions(options).size);
  });
}

describe('compat chonkie: FastChunker (fixed strategy, bytes)', () => {
  it('resolves to FastChunker defaults: 4096 UTF-8 bytes, no overlap', () => {
    expect(validateOptions({ strategy: 'fixed', compat: 'chonkie' })).toMatchObject({ size: 4096, overlap: 0, unit: 'bytes' });
    expect(() => validateOptions({ strategy: 'fixed', compat: 'chonkie', unit: 'chars' })).toThrow(/FastChunker counts UTF-8 bytes/);
    expect(() => validateOptions({ strategy: 'fixed', compat: 'chonkie', overlap: 2 })).toThrow(/FastChunker has no overlap/);
  });

  it('known cases: a hard split inside an emoji, delimiters, the last piece whole', async () => {
    await expectSameAsPackage('Hello world. How are you? 😀😀😀 fine.\nThanks', 10);
    await expectSameAsPackage('😀', 1);
    await expectSameAsPackage('\ufeffA. \ufeffB. \ufeffC.', 5);
    const [first] = await chunk('Hello world. How are you?', { strategy: 'fixed', compat: 'chonkie', size: 14 });
    expect(first!.text).toBe('Hello world.');
  });

  it('property: the same chunks as @chonkiejs/core FastChunker on random documents and sizes', async () => {
    await fc.assert(fc.asyncProperty(documents, sizes, async (text, size) => expectSameAsPackage(text, size)), { numRuns: 400 });
  });
});
