import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity, dot } from './vectors';

const vector = (dims: number) => fc.array(fc.float({ min: -100, max: 100, noNaN: true }), { minLength: dims, maxLength: dims });

describe('dot and cosineSimilarity', () => {
  it('computes the cosine of two vectors; NaN without a direction; refuses different dimensions', () => {
    expect(dot([1, 2, 3], [4, 5, 6])).toBe(32);
    expect(cosineSimilarity([1, 2, 2], [2, 1, 2])).toBeCloseTo(8 / 9, 12);
    expect(cosineSimilarity([1, 0], [-3, 0])).toBe(-1);
    expect(cosineSimilarity(new Float32Array([0, 0]), new Float32Array([1, 0]))).toBeNaN();
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/1 and 2 dimensions/);
    expect(() => dot([1], [])).toThrow(/1 and 0 dimensions/);
  });

  it('is symmetric, scale-free and within [-1, 1] up to rounding, for any vectors with a direction', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }).chain((d) => fc.tuple(vector(d), vector(d), fc.double({ min: 0.01, max: 100, noNaN: true }))), ([a, b, k]) => {
        const c = cosineSimilarity(a, b);
        if (dot(a, a) === 0 || dot(b, b) === 0) {
          expect(c).toBeNaN();
        } else {
          expect(c).toBe(dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b)));
          expect(cosineSimilarity(b, a)).toBe(c);
          expect(Math.abs(c)).toBeLessThanOrEqual(1 + 1e-9);
          expect(cosineSimilarity(a.map((x) => x * k), b)).toBeCloseTo(c, 6);
        }
      }),
    );
  });

  it('sums left to right in double precision (the order numpy-reproducing callers rely on)', () => {
    // 1e16 + 1 - 1e16 is 0 left to right in doubles (the 1 is lost), 1 in exact arithmetic.
    expect(dot([1e16, 1, -1e16], [1, 1, 1])).toBe(0);
  });
});
