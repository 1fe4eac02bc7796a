import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import type { Range } from '../core/types';
import { createEmbedder } from './index';
import { cosineSimilarity } from '../core/vectors';
import { embedLate, lateChunkVectors, normalized, querySimilarities } from './late';
import type { Embedder } from './types';

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

  it('gives the same vectors when the tokens come out of text order', () => {
    const order = [2, 0, 3, 1];
    const shuffled = lateChunkVectors(
      order.map((i) => TOKENS[i]!),
      order.map((i) => VECTORS[i]!),
      [{ start: 0, end: 8 }, { start: 6, end: 18 }],
    );
    close(shuffled[0]!, [0.6, 0.8, 0]);
    close(shuffled[1]!, [0, 0.8944272, 0.4472136]);
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

describe('normalized', () => {
  it('scales to length 1 in float32; no direction stays all zeros', () => {
    expect(Array.from(normalized([3, 4]))).toEqual([0.6000000238418579, 0.800000011920929]); // 0.6, 0.8 in float32
    expect(Array.from(normalized([0, 0]))).toEqual([0, 0]);
    expect(Array.from(normalized([Infinity, 1]))).toEqual([0, 0]);
  });
});

describe('querySimilarities (what the embedding worker answers the late-chunking panel)', () => {
  /** Words → fixed vectors; a text's vector is the sum of its words' (its tokens are its words). */
  const WORDS: Record<string, number[]> = { boat: [1, 0, 0], sail: [0.8, 0.6, 0], bread: [0, 1, 0], oven: [0, 0.6, 0.8], it: [0, 0, 0] };
  const words = (text: string) => [...text.matchAll(/\w+/g)];
  const vectorOf = (text: string) => {
    const sum = [0, 0, 0];
    for (const [w] of words(text)) (WORDS[w] ?? [0, 0, 0]).forEach((x, d) => (sum[d]! += x));
    return new Float32Array(sum);
  };
  const calls = { embed: [] as string[][], embedTokens: 0 };
  const embedder = {
    embed: async (texts: string[]) => (calls.embed.push(texts), texts.map(vectorOf)),
    embedTokens: async (text: string) => {
      calls.embedTokens++;
      const tokens = words(text).map((m) => ({ start: m.index, end: m.index + m[0].length }));
      return { tokens, vectors: tokens.map((t) => vectorOf(text.slice(t.start, t.end))) };
    },
  };
  const TEXT = 'boat sail  \n  bread oven it';
  const CHUNKS = [
    { start: 0, end: 9 }, // "boat sail"
    { start: 9, end: 14 }, // blank
    { start: 14, end: 24 }, // "bread oven"
    { start: 24, end: 27 }, // " it": a word without a direction
  ];

  it('gives each chunk its naive and late cosine with the query; blank chunks are not embedded', async () => {
    calls.embed = [];
    const { naive, late } = await querySimilarities(embedder, 'bread', TEXT, CHUNKS);
    expect(calls.embed).toEqual([['bread'], ['boat sail', 'bread oven', ' it']]);
    expect(naive[0]).toBeCloseTo(cosineSimilarity([0, 1, 0], [1.8, 0.6, 0]), 6);
    expect(naive[1]).toBeNaN();
    expect(naive[2]).toBeCloseTo(cosineSimilarity([0, 1, 0], [0, 1.6, 0.8]), 6);
    expect(naive[3]).toBeNaN();
    // These chunks start and end between tokens: late vectors point where naive ones do.
    expect(late[0]).toBeCloseTo(naive[0]!, 6);
    expect(late[1]).toBeNaN(); // no token in a blank span
    expect(late[2]).toBeCloseTo(naive[2]!, 6);
    expect(late[3]).toBeNaN();
  });

  it('late vectors see a word cut by a boundary from both sides; the token vectors come from `tokens` when given', async () => {
    calls.embedTokens = 0;
    const kept = await embedder.embedTokens(TEXT);
    const tokens = { embedTokens: async () => kept };
    // "boat sa" | "il": "sail" counts for both chunks late, but the naive "il" is an unknown word.
    const { naive, late } = await querySimilarities(embedder, 'sail', TEXT, [{ start: 0, end: 7 }, { start: 7, end: 9 }], tokens);
    expect(calls.embedTokens).toBe(1);
    expect(naive[1]).toBeNaN();
    expect(late[1]).toBeCloseTo(1, 6);
    expect(late[0]).toBeCloseTo(cosineSimilarity([0.8, 0.6, 0], [1.8, 0.6, 0]), 6);
  });
});

/**
 * The invariant, through the real embedder: a static model's token vectors do not depend on their context,
 * so the normalized mean over a chunk's tokens in the whole document is the chunk embedded on its own, whenever the
 * chunk starts and ends between tokens (its own tokenization is then the same tokens).
 */
describe('late chunking with the built-in static model equals naive chunk embeddings', () => {
  const DOCUMENT =
    'The chef chopped fresh onions and garlic for the soup. She added tomatoes, basil and olive oil to the pan.\n\n' +
    'The rocket launched from the station toward the moon; astronauts measured the orbit of the distant planet.\n' +
    'Fans cheered as the team won the league title, and the coach praised the defenders after the game!\n' +
    'Debian readline avahi posix 1234 5678.\n'; // a line of mostly unknown words and numbers (zero vectors)
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await createEmbedder({ model: 'builtin' });
  });
  afterAll(() => embedder.dispose());

  function largestDifference(a: Float32Array[], b: Float32Array[]): number {
    let worst = 0;
    a.forEach((vector, i) => vector.forEach((x, d) => (worst = Math.max(worst, Math.abs(x - b[i]![d]!)))));
    return worst;
  }

  it('for the chunks a splitter makes (recursive, overlapping)', async () => {
    const chunks = await chunk(DOCUMENT, { strategy: 'recursive', size: 60, overlap: 15 });
    expect(chunks.length).toBeGreaterThan(4);
    const naive = await embedder.embed(chunks.map((c) => c.text));
    const late = await embedLate(embedder, DOCUMENT, chunks);
    expect(late).toHaveLength(chunks.length);
    expect(largestDifference(late, naive)).toBeLessThan(1e-5);
    // Not trivially equal: the chunks point in different directions, and most have a direction at all.
    expect(late.filter((v) => Math.hypot(...v) > 0.99).length).toBeGreaterThan(chunks.length / 2);
    expect(cosineSimilarity(late[0]!, late[2]!)).toBeLessThan(0.99);
  });

  it('for any chunk boundaries between tokens (random cuts), on a document longer than one token window', async () => {
    const long = Array.from({ length: 130 }, () => DOCUMENT).join('');
    const { tokens, vectors } = await embedder.embedTokens(long);
    expect(tokens.length).toBeGreaterThan(8192); // the static model's window
    expect(vectors).toHaveLength(tokens.length);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: tokens.length - 1 }), { minLength: 1, maxLength: 40 }), async (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), tokens.length];
        const spans = bounds.slice(1).map((to, i) => ({ start: tokens[bounds[i]!]!.start, end: tokens[to - 1]!.end }));
        const naive = await embedder.embed(spans.map((span) => long.slice(span.start, span.end)));
        expect(largestDifference(lateChunkVectors(tokens, vectors, spans), naive)).toBeLessThan(1e-5);
      }),
      { numRuns: 15 },
    );
  });
});
