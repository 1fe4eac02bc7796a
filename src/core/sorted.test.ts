import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, sortedIncludes, upperBound } from './sorted';

describe('binary searches over ascending numbers', () => {
  it('find what a scan from the left finds', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 })), fc.integer({ min: -25, max: 25 }), (values, x) => {
        const a = Int32Array.from(values.sort((p, q) => p - q));
        const scan = (ok: (v: number) => boolean) => {
          const i = a.findIndex(ok);
          return i < 0 ? a.length : i;
        };
        expect(lowerBound(a, x)).toBe(scan((v) => v >= x));
        expect(upperBound(a, x)).toBe(scan((v) => v > x));
        expect(sortedIncludes(a, x)).toBe(a.includes(x));
      }),
    );
  });
});
