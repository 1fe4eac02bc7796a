import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shortenFileName } from './fileName';

describe('shortenFileName', () => {
  it('keeps a name that fits; else at most `max` code points with its start and end', () => {
    expect(shortenFileName('notes.md', 10)).toBe('notes.md');
    expect(shortenFileName('abcdefghijklmnopqrstuvwxyz.txt', 12)).toBe('abcdefgh…txt');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.integer({ min: 4, max: 1200 }), (name, max) => {
        const short = shortenFileName(name, max);
        expect(Array.from(short).length).toBeLessThanOrEqual(Math.max(max, 0));
        if (Array.from(name).length <= max) expect(short).toBe(name);
        else expect(short.includes('…')).toBe(true);
      }),
    );
  });
});
