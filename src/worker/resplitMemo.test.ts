import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { orphanBits } from '../core/eval/index';
import type { SemanticDetail } from '../core/types';
import { curveMemo, orphanMemo } from './resplitMemo';

const text = [
  '# Rivers',
  'Rivers carry water to the sea. They cut valleys over a long time.',
  'Setext title',
  '============',
  '<h2>Markets</h2>',
  'Markets sell bread and cheese. Some open early in the morning, others late',
].join('\n\n');

describe('orphanMemo', () => {
  it('gives orphanBits for every set of spans, whether remembered or new', async () => {
    const memo = orphanMemo(orphanBits);
    for (const size of [30, 45, 30, 80, 45]) {
      const chunks = await chunk(text, { strategy: 'recursive', unit: 'chars', size, overlap: 0 });
      expect(Array.from(memo(text, chunks))).toEqual(Array.from(orphanBits(text, chunks)));
    }
    // Another document: nothing remembered from the first one applies.
    const other = text.replace('Rivers carry', 'Lakes hold');
    const chunks = await chunk(other, { strategy: 'recursive', unit: 'chars', size: 30, overlap: 0 });
    expect(Array.from(memo(other, chunks))).toEqual(Array.from(orphanBits(other, chunks)));
  });

  it('equals orphanBits over any run of span sets on one text, spans with and without a heading alike', () => {
    const sentence = fc.constantFrom('Rivers carry water.', 'Markets open early', '# Rivers', 'Setext title\n====', '  ', 'Bread, cheese.');
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' ')),
        fc.array(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(null, 'own text', 'Markets')), { maxLength: 12 }), { minLength: 1, maxLength: 5 }),
        (text, runs) => {
          const memo = orphanMemo(orphanBits);
          for (const run of runs) {
            const spans = run.map(([a, b, heading]) => {
              const start = a % (text.length + 1);
              const end = start + (b % (text.length - start + 1));
              const slice = text.slice(start, end);
              // A span whose heading is its own text is heading-only; the same span without it is not.
              const title = heading === 'own text' ? slice.trim() : heading;
              return { start, end, text: slice, metadata: title === null ? {} : { headingPath: [title] } };
            });
            expect(Array.from(memo(text, spans))).toEqual(Array.from(orphanBits(text, spans)));
          }
        },
      ),
    );
  });
});

describe('curveMemo', () => {
  const detail = (distances: Float64Array): SemanticDetail => ({
    distances,
    values: distances,
    comparedWith: 'distance',
    threshold: 0.2,
    breakpoints: [1],
    sentences: [{ start: 0, end: 5 }, { start: 6, end: 9 }, { start: 10, end: 14 }],
    notes: [],
    embedded: 0,
    embedMs: 0,
    splitMs: 0,
    cached: true,
  });

  it('sends fresh copies of one analysis under one serial, and a new serial for a new analysis', () => {
    const memo = curveMemo();
    const d = detail(Float64Array.of(0.1, 0.3));
    const a = memo(d);
    const b = memo({ ...d, threshold: 0.25 });
    expect(b.analysis).toBe(a.analysis);
    expect(b.distances).not.toBe(a.distances); // each job's copy is transferred: never the same buffer twice
    expect(Array.from(b.distances)).toEqual([0.1, 0.3]);
    expect(Array.from(b.sentenceStarts)).toEqual([0, 6, 10]);
    expect(Array.from(b.sentenceEnds)).toEqual([5, 9, 14]);
    const c = memo(detail(Float64Array.of(0.2, 0.4)));
    expect(c.analysis).not.toBe(a.analysis);
    expect(Array.from(c.distances)).toEqual([0.2, 0.4]);
  });
});
