import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Range } from '../core/types';
import { truncation } from './truncation';

/** Words and punctuation as separate tokens with their offsets (what a WordPiece pre-tokenizer gives for plain words). */
function wordTokens(text: string): Range[] {
  return [...text.matchAll(/\w+|[^\w\s]/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

describe('truncation', () => {
  const text = 'one two three four.';
  const tokens = wordTokens(text); // one, two, three, four, "."

  it('says nothing is cut when the chunk fits, counting the special tokens', () => {
    expect(truncation(text, tokens, 5)).toEqual({ tokens: 5, truncatedAt: null });
    expect(truncation(text, tokens, 7, 2)).toEqual({ tokens: 7, truncatedAt: null });
    expect(truncation(text, tokens, Infinity)).toEqual({ tokens: 5, truncatedAt: null });
    expect(truncation('', [], 1)).toEqual({ tokens: 0, truncatedAt: null });
  });

  it('gives the offset of the first token the model does not read', () => {
    expect(truncation(text, tokens, 2)).toEqual({ tokens: 5, truncatedAt: 8 }); // "three four." unread
    expect(text.slice(8)).toBe('three four.');
    // [CLS] and [SEP] take two of the four places: only "one two" is read.
    expect(truncation(text, tokens, 4, 2)).toEqual({ tokens: 7, truncatedAt: 8 });
    expect(truncation(text, tokens, 4)).toEqual({ tokens: 5, truncatedAt: 18 }); // only the full stop
    // No room at all: nothing of the chunk is read.
    expect(truncation(text, tokens, 2, 2)).toEqual({ tokens: 7, truncatedAt: 0 });
  });

  it('counts a character split over several tokens as unread when the cut falls inside it', () => {
    // Byte-level tokenizers give a 4-byte emoji several tokens with the same span.
    const emoji = 'hi 😀!';
    const byteTokens: Range[] = [
      { start: 0, end: 2 },
      { start: 3, end: 5 },
      { start: 3, end: 5 },
      { start: 3, end: 5 },
      { start: 5, end: 6 },
    ];
    expect(truncation(emoji, byteTokens, 3)).toEqual({ tokens: 5, truncatedAt: 3 });
    expect(truncation(emoji, byteTokens, 4)).toEqual({ tokens: 5, truncatedAt: 5 });
  });

  it('refuses offsets outside the chunk and a maximum that is not positive', () => {
    expect(() => truncation('short', [{ start: 10, end: 14 }], 1)).toThrow(/within the chunk/);
    expect(() => truncation(text, tokens, 0)).toThrow(/positive/);
    expect(() => truncation(text, tokens, 4, -1)).toThrow(/whole number/);
  });
});

describe('truncation invariants', () => {
  it('the model reads exactly the tokens that end by truncatedAt, and they fit', () => {
    const textArb = fc.array(fc.constantFrom('word', 'a', 'longer', ',', '.', '🙂', 'é', ' ', '  ', '\n'), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3 }), (text, maxTokens, specialTokens) => {
        const tokens = wordTokens(text);
        const { tokens: count, truncatedAt } = truncation(text, tokens, maxTokens, specialTokens);
        expect(count).toBe(tokens.length + specialTokens);
        const room = Math.max(0, maxTokens - specialTokens);
        if (truncatedAt === null) {
          expect(tokens.length).toBeLessThanOrEqual(room);
        } else {
          expect(tokens.length).toBeGreaterThan(room);
          expect(truncatedAt).toBeGreaterThanOrEqual(0);
          expect(truncatedAt).toBeLessThanOrEqual(text.length);
          // Tokens before the cut are read (and fit); the rest of the chunk is not.
          const read = tokens.filter((t) => t.end <= truncatedAt);
          expect(read.length).toBe(room);
          expect(tokens.filter((t) => t.start >= truncatedAt)).toHaveLength(tokens.length - room);
        }
      }),
    );
  });
});
