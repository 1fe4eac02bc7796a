import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { descendingOrder, ValueStats } from './breakpoints';

// descendingOrder replaces a comparison sort of the indices; it must give exactly that order, ties included.
function byComparison(values: Float64Array): number[] {
  const idx: number[] = [];
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) idx.push(i);
  return idx.sort((a, b) => values[b]! - values[a]! || a - b);
}

const special = fc.constantFrom(0, -0, 1, -1, 0.5, Infinity, -Infinity, NaN, 5e-324, -5e-324, 1e-300, 1 + 2 ** -52, 1 - 2 ** -53);
// Values that share their high 32 bits (a tie the native key sort leaves to the comparison).
const nearOne = fc.integer({ min: 0, max: 2 ** 20 }).map((k) => 1 + k * 2 ** -52);

describe('descendingOrder', () => {
  it('equals sorting the non-NaN indices by value descending, then index ascending', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(special, nearOne, fc.double()), { maxLength: 300 }), (list) => {
        const values = Float64Array.from(list);
        expect(Array.from(descendingOrder(values))).toEqual(byComparison(values));
      }),
      { numRuns: 400 },
    );
  });

  it('on 30,000 distances with repeats and NaN gaps', () => {
    const values = new Float64Array(30_000);
    let seed = 7;
    for (let i = 0; i < values.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      values[i] = i % 97 === 0 ? NaN : i % 13 === 0 ? 0.25 : seed / 2 ** 31;
    }
    expect(Array.from(descendingOrder(values))).toEqual(byComparison(values));
  });
});

describe('ValueStats.descendingAbove', () => {
  it('is the part of the descending order above the threshold, on a first split and on every later one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(special, nearOne, fc.double()), { maxLength: 300 }), fc.array(fc.oneof(special, fc.double()), { minLength: 1, maxLength: 4 }), (list, thresholds) => {
        const values = Float64Array.from(list);
        const stats = new ValueStats(values);
        for (const threshold of thresholds) {
          const expected = byComparison(values).filter((i) => values[i]! > threshold);
          expect(Array.from(stats.descendingAbove(threshold)).filter((i) => values[i]! > threshold)).toEqual(expected);
          // What suppressedCuts reads: the values above the threshold first, in that order.
          expect(Array.from(stats.descendingAbove(threshold)).slice(0, expected.length)).toEqual(expected);
        }
      }),
      { numRuns: 400 },
    );
  });
});
