import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNITS } from '../../core/units';
import { compactNumber, unitLabel } from './format';

describe('compactNumber', () => {
  it('keeps three significant digits', () => {
    expect([10_000, 15_234, 152_345, 999_499, 1_523_456, 26_194].map(compactNumber)).toEqual(['10.0k', '15.2k', '152k', '999k', '1.52M', '26.2k']);
    // Where rounding carries into the next magnitude: still three digits.
    expect([99_950_000, 99_996, 999_950, 9_999_999].map(compactNumber)).toEqual(['100M', '100k', '1.00M', '10.0M']);
  });
  it('property: at most 5 characters from 10,000 up to a billion, and within 1% of the value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 999_000_000 }), (n) => {
        const shown = compactNumber(n);
        expect(shown.length).toBeLessThanOrEqual(5);
        const value = Number(shown.slice(0, -1)) * (shown.endsWith('M') ? 1e6 : 1e3);
        expect(Math.abs(value - n) / n).toBeLessThan(0.01);
      }),
    );
  });
});

describe('unitLabel', () => {
  it('is each unit descriptor\'s label: chars, words, bytes, and tokens for every encoding', () => {
    expect(UNITS.map((u) => unitLabel(u.name))).toEqual(['chars', 'words', 'bytes', 'tokens', 'tokens', 'tokens', 'tokens', 'tokens']);
  });
});
