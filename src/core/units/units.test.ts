/**
 * Every registered unit keeps what its descriptor says (a new unit in UNITS is checked here without a new test):
 * its meter counts any slice of a source as the unit counts the slice, `additive` and `isLength` hold, a
 * tokenizer unit is that encoding, and the strategies that take a unit chunk in it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../index';
import { meterFor } from '../measure';
import { getUnit, UNIT_NAMES, UNITS, unitDescriptor } from './index';

const text = fc.array(fc.constantFrom('the', ' ', '\n', '. ', 'Zürich', '東京', '😀', '👍🏽', 'e\u0301', 'x'.repeat(40), '\ud83d'), { maxLength: 60 }).map((p) => p.join(''));
/** Splits between code points (an additive unit's sum holds there). */
const codePointCut = (s: string, k: number): number => {
  const i = k % (s.length + 1);
  return i > 0 && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xdc00 && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800 ? i - 1 : i;
};

describe('the unit registry', () => {
  it('names each unit once; UNIT_NAMES and unitDescriptor read it', () => {
    expect(new Set(UNIT_NAMES).size).toBe(UNITS.length);
    for (const u of UNITS) expect(unitDescriptor(u.name)).toBe(u);
    expect(unitDescriptor('graphemes')).toBeUndefined();
  });

  for (const descriptor of UNITS) {
    it(`${descriptor.name}: property: the meter is the unit's count of every slice; additive and isLength hold`, async () => {
      const unit = await getUnit(descriptor.name);
      expect(unit.name).toBe(descriptor.name);
      if (descriptor.tokenizer) expect(descriptor.tokenizer).toBe(descriptor.name);
      await fc.assert(
        fc.asyncProperty(text, fc.nat(), fc.nat(), async (source, x, y) => {
          const meter = meterFor(unit, source);
          const a = Math.min(x, y) % (source.length + 1);
          const b = Math.max(a, Math.max(x, y) % (source.length + 1));
          expect(meter.exact(a, b)).toBe(unit.count(source.slice(a, b)));
          if (meter.exactEstimates) expect(meter.estimate(a, b)).toBe(meter.exact(a, b));
          if (descriptor.isLength) expect(unit.count(source)).toBe(source.length);
          const cut = codePointCut(source, x);
          if (descriptor.additive) expect(unit.count(source)).toBe(unit.count(source.slice(0, cut)) + unit.count(source.slice(cut)));
        }),
        { numRuns: 60 },
      );
    });
  }

  it.each(UNIT_NAMES.map((u) => [u]))('%s: the recursive strategy chunks in it, sizes in the unit', async (name) => {
    const unit = await getUnit(name);
    const source = 'Zürich liegt am See. 東京は大きい都市です。 Emoji 😀 here.\n\nA second paragraph, longer than the first one.';
    const chunks = await chunk(source, { strategy: 'recursive', unit: name, size: 12, overlap: 2 });
    for (const c of chunks) {
      expect(c.text).toBe(source.slice(c.start, c.end));
      expect(c.size).toBe(unit.count(c.text));
      if (!c.metadata.oversize) expect(c.size).toBeLessThanOrEqual(12);
    }
  });
});
