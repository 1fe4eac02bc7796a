import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowOffsets, rowsInView } from './rowWindow';

describe('rowsInView (the chunk list renders these rows only)', () => {
  it('holds every row that overlaps the viewport, and at most `overscan` rows more on each side', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(34, 104, 122, 236), { maxLength: 300 }),
        fc.nat(40_000),
        fc.integer({ min: 0, max: 2000 }),
        fc.nat(8),
        (sizes, topSeed, height, overscan) => {
          const offsets = rowOffsets(sizes.length, (i) => sizes[i]!);
          const total = offsets[sizes.length]!;
          const top = total === 0 ? 0 : topSeed % total;
          const { first, last } = rowsInView(offsets, top, height, overscan);
          if (sizes.length === 0) {
            expect(last).toBe(-1);
            return;
          }
          const overlapping = sizes.map((_, i) => i).filter((i) => offsets[i + 1]! > top && offsets[i]! < top + height);
          for (const i of overlapping) expect(i >= first && i <= last).toBe(true);
          const lo = overlapping.length ? overlapping[0]! : first;
          const hi = overlapping.length ? overlapping[overlapping.length - 1]! : last;
          expect(lo - first).toBeLessThanOrEqual(overscan);
          expect(last - hi).toBeLessThanOrEqual(overscan);
          expect(first).toBeGreaterThanOrEqual(0);
          expect(last).toBeLessThan(sizes.length);
        },
      ),
    );
  });

  it('sums the heights into row tops', () => {
    expect([...rowOffsets(3, (i) => [104, 34, 122][i]!)]).toEqual([0, 104, 138, 260]);
  });
});
