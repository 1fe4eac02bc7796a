import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignProposition } from './align';
import { cacheKey } from './cache';
import { repairBoundaryIds } from './features/boundaries/feature';

const words = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'river', 'stone', 'north', 'seven', 'the', 'and'), { minLength: 5, maxLength: 60 });

describe('alignment', () => {
  it('a proposition equal to a substring of the passage aligns exactly to it', () => {
    fc.assert(
      fc.property(words, fc.nat(), fc.nat(), (list, a, b) => {
        const source = list.join(' ') + '.';
        const from = a % source.length;
        const to = from + 1 + (b % (source.length - from));
        const proposition = source.slice(from, to);
        fc.pre(proposition.trim() !== '');
        const result = alignProposition(source, proposition, { start: 0, end: source.length });
        expect(result.status).toBe('exact');
        const [span] = result.support;
        expect(source.slice(span!.start, span!.end)).toBe(proposition.trim());
      }),
    );
  });

  it('text sharing no word with the source is unsupported', () => {
    fc.assert(
      fc.property(words, fc.array(fc.constantFrom('zebra', 'quartz', 'violin', 'kettle', 'meadow'), { minLength: 1, maxLength: 12 }), (list, invented) => {
        const source = list.join(' ') + '.';
        const result = alignProposition(source, invented.join(' ') + '.', { start: 0, end: source.length });
        expect(result).toMatchObject({ status: 'unsupported', support: [] });
      }),
    );
  });

  it('a case and whitespace variant is exact (normalised); a reordering of enough words is fuzzy', () => {
    const source = 'The River flows\n north   past seven stones. Then it turns.';
    expect(alignProposition(source, 'the river flows north past seven stones.', { start: 0, end: source.length })).toMatchObject({
      status: 'exact',
      match: 'normalized',
      support: [{ start: 0, end: source.indexOf('.') + 1 }],
    });
    const fuzzy = alignProposition(source, 'Seven stones: the river flows north past them.', { start: 0, end: source.length });
    expect(fuzzy.status).toBe('fuzzy');
    expect(fuzzy.score).toBeGreaterThanOrEqual(0.6);
  });
});

describe('cache keys', () => {
  const parts = fc.record({ provider: fc.string(), model: fc.string(), templateId: fc.string(), templateVersion: fc.nat(), input: fc.string() });
  it('change with the template version (and any other part), and are file-name safe', () => {
    fc.assert(
      fc.property(parts, fc.integer({ min: 1, max: 5 }), (p, bump) => {
        const key = cacheKey(p);
        expect(key).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
        expect(cacheKey({ ...p })).toBe(key);
        expect(cacheKey({ ...p, templateVersion: p.templateVersion + bump })).not.toBe(key);
        expect(cacheKey({ ...p, input: p.input + 'x' })).not.toBe(key);
        expect(cacheKey({ ...p, model: p.model + 'x' })).not.toBe(key);
      }),
    );
  });
});

describe('boundary id repair', () => {
  it('any id list gives increasing in-range cuts, and every id is either kept or counted', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.integer({ min: 1, max: 60 }), fc.array(fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double(), fc.string(), fc.constant(null))), (from, length, ids) => {
        const to = from + length;
        const { cuts, repaired } = repairBoundaryIds(ids, from, to);
        expect(cuts.length + repaired).toBe(ids.length);
        let last = from;
        for (const cut of cuts) {
          expect(Number.isInteger(cut)).toBe(true);
          expect(cut).toBeGreaterThan(last);
          expect(cut).toBeLessThan(to);
          last = cut;
        }
        // The groups [from, c1), [c1, c2) ... [ck, to) cover the window without gaps or overlap.
        const bounds = [from, ...cuts, to];
        for (let i = 1; i < bounds.length; i++) expect(bounds[i]!).toBeGreaterThan(bounds[i - 1]!);
      }),
    );
  });
});
