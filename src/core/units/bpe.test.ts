/**
 * The unit's own byte-pair encoder against js-tiktoken (the reference it replaces): the same token ids for the
 * corpus, for random Unicode (astral characters, lone surrogates, combining marks, special-token strings) and for
 * giant pre-token pieces, where our merge runs on a heap instead of js-tiktoken's quadratic scan.
 */
import fc from 'fast-check';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { describe, expect, test } from 'vitest';
import { HAVE_SHARED_CORPUS, NEEDS_SHARED_CORPUS, readSharedCorpus } from '../../testing/sharedData';
import type { TokenEncodingName } from '../types';
import { byteString } from './bpe';
import { loadTiktokenUnit, type TiktokenUnit } from './tiktoken';

const RANKS: Record<string, () => Promise<{ default: TiktokenBPE }>> = {
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  gpt2: () => import('js-tiktoken/ranks/gpt2'),
};

const references = new Map<TokenEncodingName, Tiktoken>();
async function setup(name: TokenEncodingName): Promise<{ unit: TiktokenUnit; reference: Tiktoken }> {
  const unit = await loadTiktokenUnit(name);
  let reference = references.get(name);
  if (!reference) {
    // A fresh js-tiktoken encoder, not the unit's lazily built one.
    reference = new Tiktoken((await RANKS[name]!()).default);
    references.set(name, reference);
  }
  return { unit, reference };
}

const fragment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  // Lone and paired surrogates, combining marks, format characters.
  fc.integer({ min: 0xd7f0, max: 0xe010 }).map((c) => String.fromCharCode(c)),
  fc.constantFrom(' ', '  ', '\n', '\n\n', '\r\n', '\t', ' \n ', '\u00a0', '\u3000', "'s", "'LL", '<|endoftext|>', '😀', '👨‍👩‍👧', 'é', 'e\u0301', '字', 'ครับ', '1234567', 'aaaaaaaa'),
);
const text = fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join(''));

describe('BytePairEncoder gives js-tiktoken\'s token ids', () => {
  for (const name of ['cl100k_base', 'o200k_base', 'gpt2'] as const) {
    test(`${name}: random Unicode (300 texts)`, async () => {
      const { unit, reference } = await setup(name);
      fc.assert(
        fc.property(text, (s) => {
          const expected = reference.encode(s, [], []);
          expect(unit.encode(s)).toEqual(expected);
          expect(unit.count(s)).toBe(expected.length);
        }),
        { numRuns: 300 },
      );
    });
  }

  test('giant pieces (heap merge): runs of letters, digits-free words, emoji, CJK, mixed bytes', async () => {
    const { unit, reference } = await setup('cl100k_base');
    const long = fc
      .tuple(fc.constantFrom('ab', 'aeiou', 'xyzzy', 'é字', '😀👍🏽', 'qwertyuiopasdfghjklzxcvbnm', 'ñ'), fc.integer({ min: 60, max: 700 }), fc.integer())
      .map(([alphabet, length, seed]) => {
        const chars = [...alphabet];
        let x = seed >>> 0;
        let out = '';
        for (let i = 0; i < length; i++) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          out += chars[x % chars.length];
        }
        return out;
      });
    fc.assert(
      fc.property(long, (s) => {
        expect(unit.encode(s)).toEqual(reference.encode(s, [], []));
      }),
      { numRuns: 20 },
    );
    for (const s of ['a'.repeat(1200), '😀'.repeat(300), 'ab'.repeat(500)]) expect(unit.encode(s)).toEqual(reference.encode(s, [], []));
  });

  test.skipIf(!HAVE_SHARED_CORPUS)(`cl100k_base: the first 256 KiB of the corpus, and decode round trip ${NEEDS_SHARED_CORPUS}`, async () => {
    const { unit, reference } = await setup('cl100k_base');
    const corpus = readSharedCorpus(256 * 1024);
    const ids = unit.encode(corpus);
    expect(ids).toEqual(reference.encode(corpus, [], []));
    expect(unit.decode(ids)).toBe(corpus);
    expect(unit.count(corpus)).toBe(ids.length);
  });

  test('decode and token byte lengths agree with js-tiktoken', async () => {
    const { unit, reference } = await setup('cl100k_base');
    const table = (reference as unknown as { textMap: Map<number, Uint8Array> }).textMap;
    for (const id of [0, 1, 255, 256, 1000, 50000, 100255]) {
      expect(unit.tokenByteLength(id)).toBe(table.get(id)!.length);
      expect(unit.decode([id])).toBe(reference.decode([id]));
    }
    expect(unit.decode([100257])).toBe('<|endoftext|>');
  });

  test('byteString is TextEncoder\'s UTF-8, one unit per byte', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => 'x' + String.fromCharCode(c))), (s) => {
        const bytes = new TextEncoder().encode(s);
        expect(byteString(s)).toBe(String.fromCharCode(...bytes));
      }),
      { numRuns: 300 },
    );
  });
});
