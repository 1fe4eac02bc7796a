/**
 * Invariants every native strategy keeps, on random documents (words, \n, \n\n, \r\n, tabs, emoji and ZWJ
 * sequences, CJK, long unbroken runs, empty strings), random size/overlap and every unit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, getUnit } from './index';
import type { Chunk, StrategyName, UnitName } from './types';

const fragments = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'a', 'I', 'Zürich', 'naïve') },
  { weight: 4, arbitrary: fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '\r\n', '\r\n\r\n', '\t', ' \n \n') },
  { weight: 2, arbitrary: fc.constantFrom('. ', '! ', '? ', ', ', '.', '。', '؟ ') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '👨‍👩‍👧', '🇩🇪', '👍🏽', 'é', 'e\u0301', '中文文本', '日本語の文。', '한국어', 'Привет', 'مرحبا') },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(70), 'ab'.repeat(40), '中'.repeat(50), '😀'.repeat(20), '-'.repeat(60)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  // Lone surrogate halves: invalid UTF-16 that pasted text can still contain.
  { weight: 1, arbitrary: fc.constantFrom('\ud83d', '\ude00x', 'a\udbff') },
);
const documents = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\n', '\r\n \t') },
  { weight: 12, arbitrary: fc.array(fragments, { maxLength: 120 }).map((parts) => parts.join('')) },
);

const sizing = fc
  .integer({ min: 1, max: 120 })
  .chain((size) => fc.record({ size: fc.constant(size), overlap: fc.integer({ min: 0, max: size - 1 }) }));

const isWs = (ch: string) => /\s/.test(ch);

async function checkInvariants(text: string, chunks: Chunk[], unitName: UnitName, size: number, overlap: number) {
  const unit = await getUnit(unitName);
  const covered = new Uint8Array(text.length);
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.start).toBeGreaterThanOrEqual(0);
    expect(c.end).toBeGreaterThan(c.start);
    expect(c.end).toBeLessThanOrEqual(text.length);
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(c.content).toBe(c.text);
    expect(c.size).toBe(unit.count(c.text));
    if (c.size > size) expect(c.metadata.oversize).toBe(true);
    else expect(c.metadata.oversize).toBeUndefined();
    for (let k = c.start; k < c.end; k++) covered[k] = 1;
    if (i > 0) {
      const prev = chunks[i - 1]!;
      expect(c.start).toBeGreaterThan(prev.start);
      expect(c.end).toBeGreaterThan(prev.end);
      if (c.start < prev.end) expect(unit.count(text.slice(c.start, prev.end))).toBeLessThanOrEqual(overlap);
    }
  });
  for (let k = 0; k < text.length; k++) {
    if (!covered[k] && !isWs(text[k]!)) {
      throw new Error(`non-whitespace ${JSON.stringify(text[k])} at ${k} lies in no chunk`);
    }
  }
}

const UNITS: UnitName[] = ['chars', 'words', 'bytes', 'cl100k_base'];
const CASES = Number(process.env.CHUNKSCOPE_PROPERTY_RUNS ?? 150);

for (const strategy of ['recursive', 'character', 'sentence', 'paragraph', 'fixed'] as StrategyName[]) {
  describe(`${strategy} invariants`, () => {
    for (const unit of UNITS) {
      it(`holds with unit ${unit}`, async () => {
        await fc.assert(
          fc.asyncProperty(documents, sizing, async (text, { size, overlap }) => {
            const options = { strategy, unit, size, overlap };
            const chunks = await chunk(text, options);
            await checkInvariants(text, chunks, unit, size, overlap);
            if (text.trim() === '') expect(chunks).toEqual([]);
            // Deterministic: same input, same chunks and ids.
            expect(await chunk(text, options)).toEqual(chunks);
          }),
          { numRuns: CASES },
        );
      });
    }
  });
}

describe('token invariants', () => {
  for (const unit of ['cl100k_base', 'o200k_base'] as UnitName[]) {
    it(`holds with unit ${unit}`, async () => {
      await fc.assert(
        fc.asyncProperty(documents, sizing, async (text, { size, overlap }) => {
          const options = { strategy: 'token' as const, unit, size, overlap };
          const chunks = await chunk(text, options);
          await checkInvariants(text, chunks, unit, size, overlap);
          expect(await chunk(text, options)).toEqual(chunks);
        }),
        { numRuns: CASES },
      );
    });
  }
});

describe('separator options keep the invariants', () => {
  const separatorLists = fc.constantFrom(['\n\n', '\n', ' ', ''], ['\n', ''], [' ', ''], ['\r\n', '\t', ''], ['\n\n']);
  for (const strategy of ['recursive', 'character'] as StrategyName[]) {
    it(`${strategy} with random whitespace separators and keepSeparator`, async () => {
      await fc.assert(
        fc.asyncProperty(
          documents,
          sizing,
          separatorLists,
          fc.constantFrom('start', 'end', 'none') as fc.Arbitrary<'start' | 'end' | 'none'>,
          fc.constantFrom('chars', 'cl100k_base') as fc.Arbitrary<UnitName>,
          async (text, { size, overlap }, separators, keepSeparator, unit) => {
            const chunks = await chunk(text, { strategy, unit, size, overlap, separators: [...separators], keepSeparator });
            await checkInvariants(text, chunks, unit, size, overlap);
          },
        ),
        { numRuns: CASES },
      );
    });
  }

  it('recursive with regular-expression separators', async () => {
    const patterns = fc.constantFrom(['\\n{2,}', '[.!?。] ', '\\s', ''], ['(?:\\r\\n|\\n)+', ''], ['[\\p{P}]', ''], ['\\d+', ' ', '']);
    await fc.assert(
      fc.asyncProperty(
        documents,
        sizing,
        patterns,
        fc.constantFrom('start', 'end') as fc.Arbitrary<'start' | 'end'>,
        async (text, { size, overlap }, separators, keepSeparator) => {
          const options = { strategy: 'recursive' as const, size, overlap, separators: [...separators], separatorsAreRegex: true, keepSeparator };
          const chunks = await chunk(text, options);
          await checkInvariants(text, chunks, 'chars', size, overlap);
        },
      ),
      { numRuns: CASES },
    );
  });

  it('recursive keeps non-whitespace separators when they are kept at the start or end', async () => {
    await fc.assert(
      fc.asyncProperty(
        documents,
        sizing,
        fc.constantFrom('start', 'end') as fc.Arbitrary<'start' | 'end'>,
        async (text, { size, overlap }, keepSeparator) => {
          const separators = ['. ', ',', '。', ''];
          const chunks = await chunk(text, { strategy: 'recursive', size, overlap, separators, keepSeparator });
          await checkInvariants(text, chunks, 'chars', size, overlap);
        },
      ),
      { numRuns: CASES },
    );
  });
});
