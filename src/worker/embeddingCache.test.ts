import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedRecordProblem } from './embeddingCache';

const texts = ['One sentence.', 'Another one.', 'A third.'];
const good = (dims: number) => ({ texts: [...texts], dims, vectors: Float32Array.from({ length: texts.length * dims }, (_, i) => Math.sin(i)), savedAt: 1 });

describe('a cached embedding record read back', () => {
  it('is accepted when it has the document\'s texts and texts × dims finite values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1024 }), (dims) => {
        expect(storedRecordProblem(good(dims), texts)).toBeNull();
      }),
    );
  });

  it('is refused when damaged: negative or fractional dims, NaN or Infinity, wrong lengths, wrong types', () => {
    const damaged: [string, unknown][] = [
      ['negative dims', { ...good(4), dims: -4 }],
      ['zero dims', { ...good(4), dims: 0 }],
      ['fractional dims', { ...good(4), dims: 2.5 }],
      ['huge dims', { ...good(4), dims: 1e9 }],
      ['dims as text', { ...good(4), dims: '4' }],
      ['vectors too short', { ...good(4), vectors: new Float32Array(11) }],
      ['vectors too long', { ...good(4), vectors: new Float32Array(13) }],
      ['vectors as a plain array', { ...good(4), vectors: Array.from(good(4).vectors) }],
      ['texts missing', { ...good(4), texts: undefined }],
      ['one text less', { ...good(4), texts: texts.slice(1) }],
      ['null', null],
      ['a string', 'vectors'],
    ];
    for (const [what, record] of damaged) expect(storedRecordProblem(record, texts), what).not.toBeNull();
  });

  it('property: one non-finite value anywhere makes the record refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity), (dims, at, bad) => {
        const record = good(dims);
        record.vectors[at % record.vectors.length] = bad;
        expect(storedRecordProblem(record, texts)).toBe('values that are not numbers');
      }),
    );
  });
});
