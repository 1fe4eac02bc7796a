import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWhitespaceCode, meterFor } from './measure';
import { getUnit } from './units';
import type { UnitName } from './types';

const docs = fc
  .array(fc.constantFrom('word', ' ', '  ', '\n', '\n\n', '\t', '😀', '中文', 'é', "don't", '123456', '...', '\u00a0', ' \n'), { maxLength: 60 })
  .map((p) => p.join(''));

describe('span meters', () => {
  for (const name of ['chars', 'words', 'cl100k_base'] as UnitName[]) {
    it(`${name}: exact(a, b) is the unit's count of the slice; words and chars estimates are exact`, async () => {
      const unit = await getUnit(name);
      fc.assert(
        fc.property(docs, fc.nat(), fc.nat(), (s, x, y) => {
          const a = s.length ? x % (s.length + 1) : 0;
          const b = s.length ? y % (s.length + 1) : 0;
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const meter = meterFor(unit, s);
          const truth = unit.count(s.slice(lo, hi));
          // Estimate first: for tokens it builds the document's pre-token table, which exact() then uses.
          const estimate = meter.estimate(lo, hi);
          if (meter.exactEstimates) expect(estimate).toBe(truth);
          else expect(Math.abs(estimate - truth)).toBeLessThanOrEqual(3);
          expect(meter.exact(lo, hi)).toBe(truth);
          expect(meter.exact(0, hi)).toBe(unit.count(s.slice(0, hi)));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('cl100k_base: the estimate is the difference of its edge values when its ends lie in different pre-token pieces', async () => {
    const unit = await getUnit('cl100k_base');
    fc.assert(
      fc.property(docs, fc.nat(), fc.nat(), (s, x, y) => {
        const a = x % (s.length + 1);
        const b = y % (s.length + 1);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const meter = meterFor(unit, s);
        const edges = meter.edges!;
        const p = edges.pieceAt(lo);
        const q = edges.pieceAt(hi - 1);
        if (p < q) expect(edges.endValue(hi, q) - edges.startValue(lo, p)).toBe(meter.estimate(lo, hi));
      }),
      { numRuns: 500 },
    );
  });

  it('uses the same whitespace as JavaScript \\s', () => {
    for (let c = 0; c < 0x10000; c++) expect(isWhitespaceCode(c)).toBe(/\s/.test(String.fromCharCode(c)));
  });
});
