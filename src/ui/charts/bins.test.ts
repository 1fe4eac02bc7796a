import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countBins } from './bins';

describe('countBins', () => {
  it('puts each value in the bin whose range holds it; the top edge goes to the last bin', () => {
    expect(countBins([0, 1, 9, 10, 19, 20, 25], [0, 10, 20])).toEqual([
      { x0: 0, x1: 10, count: 3 },
      { x0: 10, x1: 20, count: 3 },
    ]);
  });

  it('counts every value inside the edges exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 })), fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 2, maxLength: 30 }), (values, edges) => {
        const t = [...edges].sort((a, b) => a - b);
        const bins = countBins(values, t);
        const inside = values.filter((v) => v >= t[0]! && v <= t[t.length - 1]!);
        expect(bins.reduce((s, b) => s + b.count, 0)).toBe(inside.length);
        for (const b of bins.slice(0, -1)) expect(b.count).toBe(inside.filter((v) => v >= b.x0 && v < b.x1).length);
      }),
    );
  });
});
