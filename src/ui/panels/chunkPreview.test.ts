import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkPreview, ELLIPSIS } from './chunkPreview';

describe('chunkPreview', () => {
  it('marks the shared head and tail of a chunk', () => {
    const segs = chunkPreview('abcdefghij', 3, 2);
    expect(segs).toEqual([
      { text: 'abc', overlap: 'prev' },
      { text: 'defgh', overlap: null },
      { text: 'ij', overlap: 'next' },
    ]);
  });

  it('clamps overlaps larger than the chunk', () => {
    const segs = chunkPreview('abc', 10, 10);
    expect(segs.map((s) => s.text).join('')).toBe('abc');
    expect(segs.every((s) => s.overlap === 'prev')).toBe(true);
  });

  it('elides the middle of a long chunk but keeps both overlaps', () => {
    const text = 'H'.repeat(20) + 'm'.repeat(1000) + 'T'.repeat(20);
    const segs = chunkPreview(text, 20, 20, { maxChars: 100 });
    expect(segs[0]).toEqual({ text: 'H'.repeat(20), overlap: 'prev' });
    expect(segs[segs.length - 1]).toEqual({ text: 'T'.repeat(20), overlap: 'next' });
    expect(segs.some((s) => s.text === ELLIPSIS)).toBe(true);
  });

  it('without elision, the segments spell the chunk exactly', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.nat(250), fc.nat(250), (text, p, n) => {
        const segs = chunkPreview(text, p, n, { maxChars: 1000 });
        expect(segs.map((s) => s.text).join('')).toBe(text);
        // Overlap marks appear in order: prev, then own text, then next.
        const order = segs.map((s) => (s.overlap === 'prev' ? 0 : s.overlap === null ? 1 : 2));
        expect([...order].sort()).toEqual(order);
      }),
    );
  });
});
