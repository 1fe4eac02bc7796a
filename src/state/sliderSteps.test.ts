import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWideRange, proportionalStep, sliderPresets } from './sliderSteps';

describe('proportional slider steps', () => {
  it('moves by about 1/16 of the value on a power-of-two grid', () => {
    expect(proportionalStep(512, 1, 1, 4000)).toBe(544);
    expect(proportionalStep(512, -1, 1, 4000)).toBe(496);
    expect(proportionalStep(200, 1, 1, 4000)).toBe(208);
    expect(proportionalStep(256, -1, 1, 4000)).toBe(248);
    expect(proportionalStep(10, 1, 1, 4000)).toBe(11);
    expect(proportionalStep(1, -1, 1, 4000)).toBe(1);
    expect(proportionalStep(3990, 1, 1, 4000)).toBe(4000);
    expect(isWideRange(1, 4000)).toBe(true);
    expect(isWideRange(0, 1000)).toBe(false);
  });
  it('always moves the way asked (unless at the end), by at most a quarter, within bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), fc.boolean(), (v, up) => {
        const next = proportionalStep(v, up ? 1 : -1, 1, 4000);
        expect(next).toBeGreaterThanOrEqual(1);
        expect(next).toBeLessThanOrEqual(4000);
        if (up && v < 4000) expect(next).toBeGreaterThan(v);
        if (!up && v > 1) expect(next).toBeLessThan(v);
        expect(Math.abs(next - v)).toBeLessThanOrEqual(Math.max(1, v / 4));
      }),
    );
  });
});

describe('slider presets', () => {
  it('are the powers of two from 64 inside the range (the size slider 1..4,000: 64 … 2048)', () => {
    expect(sliderPresets(1, 4000)).toEqual([64, 128, 256, 512, 1024, 2048]);
    expect(sliderPresets(100, 600)).toEqual([128, 256, 512]);
    expect(sliderPresets(1, 50)).toEqual([]);
  });
});
