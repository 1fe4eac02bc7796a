/**
 * TiktokenUnit.countSpan's shortcut (a span from a document piece's start to a piece's end, ending in a
 * non-whitespace character, counted from the document's pre-token table) against counting the slice itself.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadTiktokenUnit } from './tiktoken';

const fragment = fc.constantFrom('word', 'Word', ' ', '  ', '\n', '\n\n', '\r\n', '\t', '.', '."', "'s", "'ll", '123', '4567', '—', '😀', '字', 'é', '\u00a0', ' .', '?!', ',', 'a');
const doc = fc.array(fragment, { minLength: 1, maxLength: 60 }).map((p) => p.join(''));

describe('countSpan equals count(slice)', () => {
  for (const name of ['cl100k_base', 'o200k_base', 'gpt2'] as const) {
    test(`${name}: spans at piece boundaries and anywhere (600 documents)`, async () => {
      const unit = await loadTiktokenUnit(name);
      await fc.assert(
        fc.property(doc, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 24 }), (text, picks) => {
          const table = unit.preTokens(text);
          const bounds = [...table.starts, text.length];
          for (const [x, y] of picks) {
            // Half the spans on piece boundaries (the shortcut), half anywhere.
            const [a, b] = x % 2 === 0 ? [bounds[x % bounds.length]!, bounds[y % bounds.length]!] : [x % (text.length + 1), y % (text.length + 1)];
            const start = Math.min(a, b);
            const end = Math.max(a, b);
            expect(unit.countSpan(text, start, end, table), JSON.stringify(text.slice(start, end))).toBe(unit.count(text.slice(start, end)));
          }
        }),
        { numRuns: 1500 },
      );
    });
  }
});

describe('giant pieces: spans counted from the piece\'s token boundaries', () => {
  // Long runs without spaces, so with the threshold lowered most pieces are "giant" (GiantPiece).
  const run = fc
    .tuple(fc.constantFrom('a', 'ab', 'xyzzy', 'qwertyuiop', '😀', '😀👍🏽', '字é', '1', '.-', 'ñ'), fc.integer({ min: 1, max: 40 }))
    .map(([unit, times]) => unit.repeat(times));
  const giantDoc = fc.array(fc.oneof(run, fragment), { minLength: 1, maxLength: 30 }).map((p) => p.join(''));
  for (const name of ['cl100k_base', 'o200k_base', 'gpt2'] as const) {
    test(`${name}: countSpan equals count(slice), tokenize equals encode (800 documents)`, async () => {
      const unit = (await loadTiktokenUnit(name)).withEmptyCaches();
      unit.giantPiece = 6;
      await fc.assert(
        fc.property(giantDoc, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 24 }), (text, picks) => {
          const table = unit.preTokens(text);
          const ids = unit.tokenize(text).flatMap((t) => t.ids);
          expect(ids).toEqual(unit.encode(text));
          // Token boundaries (where the giant shortcut applies) and arbitrary offsets.
          const bounds = [...new Set([...unit.tokenize(text).map((t) => t.start), text.length])];
          for (const [x, y] of picks) {
            const [a, b] = x % 2 === 0 ? [bounds[x % bounds.length]!, bounds[y % bounds.length]!] : [x % (text.length + 1), y % (text.length + 1)];
            const start = Math.min(a, b);
            const end = Math.max(a, b);
            expect(unit.countSpan(text, start, end, table), JSON.stringify(text.slice(start, end))).toBe(unit.count(text.slice(start, end)));
          }
        }),
        { numRuns: 800 },
      );
    });
  }
});
