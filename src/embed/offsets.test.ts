import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenOffsets } from './offsets';

describe('tokenOffsets', () => {
  it('finds WordPiece and SentencePiece tokens, case and accents folded', () => {
    const text = 'Unbelievable CAFÉ prices';
    const ranges = tokenOffsets(text, ['un', '##bel', '##ie', '##vable', 'cafe', '▁prices']);
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Un', 'bel', 'ie', 'vable', 'CAFÉ', 'prices']);
  });

  it('gives an unknown token the word it stands for', () => {
    const text = 'a ☃☃ snowman';
    const ranges = tokenOffsets(text, ['a', '[UNK]', 'snowman']);
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['a', '☃☃', 'snowman']);
    const tail = tokenOffsets('hello ☃☃ there', ['hello', '[UNK]']);
    expect(tail[1]).toEqual({ start: 6, end: 8 });
  });

  it('always gives ordered, non-overlapping ranges inside the text, one per token', () => {
    const word = fc.string({ minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 20 }), fc.array(fc.oneof(word, fc.constant('[UNK]')), { maxLength: 20 }), (words, tokens) => {
        const text = words.join(' ');
        const ranges = tokenOffsets(text, tokens);
        expect(ranges).toHaveLength(tokens.length);
        let last = 0;
        for (const r of ranges) {
          expect(r.start).toBeGreaterThanOrEqual(last);
          expect(r.end).toBeGreaterThanOrEqual(r.start);
          expect(r.end).toBeLessThanOrEqual(text.length);
          last = r.end;
        }
      }),
    );
  });

  it('maps whitespace-split lowercase words exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-zé]{1,8}$/), { minLength: 1, maxLength: 30 }), (words) => {
        const text = words.join('  ');
        const ranges = tokenOffsets(text, words.map((w) => w.toLowerCase()));
        expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(words);
      }),
    );
  });
});
