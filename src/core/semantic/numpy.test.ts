import { describe, expect, it } from 'vitest';
import numpyCases from './fixtures/numpy-cases.json';
import { percentileForChunkCount } from './breakpoints';
import { npGradient, npMean, npPercentile, npStd, npSum } from './numpy';

// Expected values are worked by hand; where the last bit matters, the value numpy 2.4 printed (repr) is given.
describe('numpy percentile (linear)', () => {
  it('interpolates at (n - 1)·p/100', () => {
    expect(npPercentile([5, 1, 3, 2, 4], 25)).toBe(2); // index 1 of [1..5]
    expect(npPercentile([5, 1, 3, 2, 4], 75)).toBe(4); // index 3
    expect(npPercentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(npPercentile([1, 2], 50)).toBe(1.5);
    expect(npPercentile([1, 2, 3, 4], 100)).toBe(4);
    expect(npPercentile([1, 2, 3, 4], 0)).toBe(1);
    expect(npPercentile([7], 95)).toBe(7);
  });

  it('interpolates from the upper neighbour when the fraction is >= 0.5, as numpy does', () => {
    // sorted [0.1, 0.2, 0.5, 0.9], index 2.85: 0.9 - 0.4·0.15; numpy prints 0.8399999999999999
    expect(npPercentile([0.1, 0.5, 0.2, 0.9], 95)).toBe(0.8399999999999999);
    // index 3.9: from below 0.343 + 0.453·0.9 would be 0.7506999999999999; numpy gives 0.7507
    expect(npPercentile([0.253, 0.258, 0.312, 0.343, 0.796], 97.5)).toBe(0.7507);
  });
});

describe('numpy sum, mean and std', () => {
  const values = [0.99, 0.78, 0.34, 0.21, 0.67, 0.84, 0.93, 0.34, 0.88, 0.69, 0.48, 0.99, 0.23, 0.73, 0.08, 0.17, 0.91, 0.21, 0.76, 0.6];

  it('sums pairwise (8 accumulators), not left to right', () => {
    // a left-to-right loop gives 11.830000000000002; np.sum gives 11.83
    expect(npSum(values)).toBe(11.83);
    expect(npMean(values)).toBe(0.5915);
    expect(npStd(values)).toBe(0.29813210159256587);
  });

  it('population std of simple values', () => {
    expect(npStd([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2); // mean 5, squared deviations sum 32, /8 = 4
    expect(npMean([1, 2, 3, 4])).toBe(2.5);
  });
});

describe('numpy gradient', () => {
  it('central differences inside, one-sided at the ends', () => {
    // [1, 4, 9, 16]: ends 4-1 = 3 and 16-9 = 7; inside (9-1)/2 = 4 and (16-4)/2 = 6
    expect(Array.from(npGradient([1, 4, 9, 16]))).toEqual([3, 4, 6, 7]);
    expect(Array.from(npGradient([2, 5]))).toEqual([3, 3]);
  });

  it('needs two values', () => {
    expect(npGradient([1]).length).toBe(0);
  });
});

describe("LangChain's number_of_chunks map", () => {
  it('maps k linearly from (gaps -> 0) to (1 -> 100), clamped', () => {
    expect(percentileForChunkCount(1, 6)).toBe(100);
    expect(percentileForChunkCount(6, 6)).toBe(0);
    expect(percentileForChunkCount(7, 6)).toBe(0);
    expect(percentileForChunkCount(2, 6)).toBe(80); // (100 / -5)·(2 - 6)
    expect(percentileForChunkCount(3, 1)).toBe(100);
  });
});

describe('numpy, bit for bit, on seeded random arrays (values printed by numpy 2.4)', () => {
  const { cases } = (numpyCases as unknown) as {
    cases: { values: number[]; percentiles: Record<string, number>; mean: number; std: number; gradientP95?: number; gradientSum?: number }[];
  };

  it.each(cases.map((c) => [c.values.length, c] as const))('%i values', (_n, c) => {
    for (const [p, expected] of Object.entries(c.percentiles)) expect(npPercentile(c.values, Number(p))).toBe(expected);
    expect(npMean(c.values)).toBe(c.mean);
    expect(npStd(c.values)).toBe(c.std);
    if (c.gradientP95 !== undefined) {
      const g = npGradient(c.values);
      expect(npPercentile(g, 95)).toBe(c.gradientP95);
      expect(npSum(g)).toBe(c.gradientSum);
    }
  });
});
