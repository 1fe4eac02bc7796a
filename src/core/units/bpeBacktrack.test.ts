/**
 * The backtracking merge (bpeBacktrack.ts) against the heap merge and js-tiktoken: it rests on every token being
 * the BPE of its own bytes, so that is checked for every bundled encoding, and then both merges must give the same
 * ids on long pieces of few letters (where backtracking happens most), emoji, CJK and random bytes.
 */
import fc from 'fast-check';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { describe, expect, test } from 'vitest';
import { byteString } from './bpe';
import { loadTiktokenUnit, TOKEN_ENCODINGS } from './tiktoken';

/** A run of `length` characters drawn from `alphabet` by a seeded generator. */
function run(alphabet: string, length: number, seed: number): string {
  const chars = [...alphabet];
  let x = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += chars[(x >>> 8) % chars.length];
  }
  return out;
}

const longPiece = fc.oneof(
  fc
    .tuple(fc.constantFrom('ab', 'aeiou', 'xyzzy', 'qwertyuiopasdfghjklzxcvbnm', 'THEtheAnd', 'é字', '😀👍🏽', '字中文的是', 'ñá', 'абв'), fc.integer({ min: 1, max: 3000 }), fc.integer())
    .map(([alphabet, length, seed]) => run(alphabet, length, seed)),
  // Any bytes, as one piece: most pairs are rare, so prefixes and backtracking are exercised differently.
  fc.string({ unit: 'binary', minLength: 1, maxLength: 600 }),
);

describe('BacktrackingMerge', () => {
  for (const name of TOKEN_ENCODINGS) {
    test(`${name}: every token is the BPE of its own bytes (what the merge rests on)`, async () => {
      const unit = await loadTiktokenUnit(name);
      expect(unit.bpe.backtracking().tokensNotSelfEncoded()).toEqual([]);
    });

    test(`${name}: the same ids as the heap merge on long pieces (200 pieces)`, async () => {
      const unit = await loadTiktokenUnit(name);
      const merge = unit.bpe.backtracking();
      fc.assert(
        fc.property(longPiece, (s) => {
          expect(merge.encode(byteString(s))).toEqual(unit.bpe.encodeByHeap(s));
        }),
        { numRuns: 200 },
      );
    });
  }

  test('cl100k_base: a run of letters is one piece, and both merges give js-tiktoken\'s ids', async () => {
    const unit = await loadTiktokenUnit('cl100k_base');
    const reference = new Tiktoken(((await import('js-tiktoken/ranks/cl100k_base')) as { default: TiktokenBPE }).default);
    for (const s of [run('qwertyuiopasdfghjklzxcvbnm', 2000, 7), run('ab', 1500, 3), 'a'.repeat(1200), '😀'.repeat(300)]) {
      const expected = reference.encode(s, [], []);
      expect(unit.bpe.backtracking().encode(byteString(s))).toEqual(expected);
      expect(unit.bpe.encodeByHeap(s)).toEqual(expected);
    }
  });

  test('a giant piece goes through backtracking and keeps the heap merge\'s ids', async () => {
    const unit = (await loadTiktokenUnit('cl100k_base')).withEmptyCaches();
    const s = run('qwertyuiopasdfghjklzxcvbnm', 300_000, 11);
    const heap = unit.bpe.encodeByHeap(s);
    const backtracked = unit.bpe.backtrackedPieces;
    expect(unit.encode(s)).toEqual(heap);
    expect(unit.count(s)).toBe(heap.length);
    expect(unit.bpe.backtrackedPieces).toBe(backtracked + 2);

  });
});
