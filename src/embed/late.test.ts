import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Range } from '../core/types';
import { compareQuery, cosineSimilarity, lateChunkVectors, normalized } from './late';

// "one two three four": four words; vectors chosen so that means normalize to exact decimals (3-4-5 triangles).
const TEXT = 'one two three four';
const TOKENS: Range[] = [
  { start: 0, end: 3 }, // one
  { start: 4, end: 7 }, // two
  { start: 8, end: 13 }, // three
  { start: 14, end: 18 }, // four
];
const VECTORS = [
  new Float32Array([3, 0, 0]),
  new Float32Array([0, 4, 0]),
  new Float32Array([0, 0, 0]), // an unknown word (the built-in model's zero row)
  new Float32Array([0, 0, 2]),
];
const close = (actual: Float32Array, expected: number[]) => expected.forEach((v, i) => expect(actual[i]).toBeCloseTo(v, 6));

describe('lateChunkVectors', () => {
  it('gives each chunk the normalized mean of the token vectors inside its span', () => {
    const [first, second] = lateChunkVectors(TOKENS, VECTORS, [
      { start: 0, end: 8 }, // "one two " → (3 + 0, 0 + 4, 0) / 2 → (0.6, 0.8, 0)
      { start: 8, end: 18 }, // "three four" → (0, 0, 2) / 2 → (0, 0, 1): the unknown word adds nothing
    ]);
    close(first!, [0.6, 0.8, 0]);
    close(second!, [0, 0, 1]);
    expect(TEXT.slice(8, 18)).toBe('three four');
  });

  it('counts a word cut by a boundary in both chunks', () => {
    // "one tw" | "o three four": "two" overlaps both.
    const [left, right] = lateChunkVectors(TOKENS, VECTORS, [
      { start: 0, end: 6 },
      { start: 6, end: 18 },
    ]);
    close(left!, [0.6, 0.8, 0]);
    close(right!, [0, 0.8944272, 0.4472136]); // (0, 4, 2) / √20
  });

  it('gives a zero vector to a chunk without tokens or with only unknown words', () => {
    const [space, unknown, empty] = lateChunkVectors(TOKENS, VECTORS, [
      { start: 3, end: 4 }, // the space between "one" and "two"
      { start: 8, end: 13 }, // "three": zero vector
      { start: 10, end: 10 },
    ]);
    expect(Array.from(space!)).toEqual([0, 0, 0]);
    expect(Array.from(unknown!)).toEqual([0, 0, 0]);
    expect(Array.from(empty!)).toEqual([0, 0, 0]);
    expect(cosineSimilarity(space!, VECTORS[0]!)).toBeNaN();
  });

  it('refuses a vector count that does not match the tokens', () => {
    expect(() => lateChunkVectors(TOKENS, VECTORS.slice(1), [{ start: 0, end: 3 }])).toThrow(/one vector per token/);
  });

  it('equals a brute-force mean over every overlapping token (random tokens and chunks)', () => {
    const tokensArb = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 30 })
      .map((gapsAndLengths) => {
        let at = 0;
        return gapsAndLengths.map(([gap, length]) => {
          const token = { start: at + gap, end: at + gap + length };
          at = token.end;
          return token;
        });
      });
    const vectorArb = fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 4, maxLength: 4 }).map((v) => new Float32Array(v));
    fc.assert(
      fc.property(
        tokensArb.chain((tokens) =>
          fc.tuple(
            fc.constant(tokens),
            fc.array(vectorArb, { minLength: tokens.length, maxLength: tokens.length }),
            fc.array(
              fc.tuple(fc.nat(tokens.at(-1)!.end + 2), fc.nat(12)).map(([start, length]) => ({ start, end: start + length })),
              { maxLength: 6 },
            ),
          ),
        ),
        ([tokens, vectors, chunks]) => {
          const late = lateChunkVectors(tokens, vectors, chunks);
          chunks.forEach((chunk, c) => {
            const sum = [0, 0, 0, 0];
            tokens.forEach((token, t) => {
              if (token.start < chunk.end && token.end > chunk.start) vectors[t]!.forEach((x, d) => (sum[d]! += x));
            });
            const norm = Math.hypot(...sum);
            const expected = norm > 0 ? sum.map((x) => x / norm) : [0, 0, 0, 0];
            expected.forEach((x, d) => expect(late[c]![d]).toBeCloseTo(x, 5));
          });
        },
      ),
    );
  });
});

describe('cosine helpers', () => {
  it('computes cosine similarity and normalizes', () => {
    expect(cosineSimilarity([1, 2, 2], [2, 1, 2])).toBeCloseTo(8 / 9, 12);
    expect(cosineSimilarity([1, 0], [-3, 0])).toBe(-1);
    expect(cosineSimilarity([0, 0], [1, 0])).toBeNaN();
    expect(Array.from(normalized([3, 4]))).toEqual([0.6000000238418579, 0.800000011920929]); // 0.6, 0.8 in float32
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/1 and 2 dimensions/);
  });
});

describe('compareQuery', () => {
  it('gives each chunk its naive and late similarity and where each ranks it', () => {
    const query = [1, 0, 0];
    const naive = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ];
    const late = [
      [0.6, 0.8, 0],
      [0.8, 0.6, 0],
      [0, 0, 0],
    ];
    const rows = compareQuery(query, naive, late);
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(rows.map((r) => r.naive)).toEqual([1, 0, NaN]);
    expect(rows[0]!.late).toBeCloseTo(0.6, 12);
    expect(rows[1]!.late).toBeCloseTo(0.8, 12);
    expect(rows[2]!.late).toBeNaN();
    // Late chunking moves chunk 1 to the top; a chunk without a direction ranks last in both.
    expect(rows.map((r) => r.naiveRank)).toEqual([1, 2, 3]);
    expect(rows.map((r) => r.lateRank)).toEqual([2, 1, 3]);
  });

  it('keeps chunk order for ties and refuses lists of different lengths', () => {
    const rows = compareQuery([0, 1], [[1, 0], [1, 0]], [[0, 1], [0, 2]]);
    expect(rows.map((r) => r.naiveRank)).toEqual([1, 2]);
    expect(rows.map((r) => r.lateRank)).toEqual([1, 2]);
    expect(() => compareQuery([1], [[1]], [])).toThrow(/differ in number/);
  });
});
