import type { Range } from '../core/types';
import { cosineSimilarity } from '../core/vectors';
import type { EmbedCallOptions, Embedder } from './types';

/**
 * Late chunking (jina-ai's "late chunking"): embed the whole document once with a long-context model, then give
 * each chunk the normalized mean of the token vectors that fall in its span. The chunk vector then carries context
 * from the rest of the document (a pronoun's referent, the topic of the section), which embedding the chunk text
 * alone ("naive" chunk embeddings) loses.
 *
 * Spans are UTF-16 offsets into the document (the chunk contract's offsets, and the offsets `Embedder.tokenize`
 * and `Embedder.embedTokens` give), so no token-index bookkeeping is needed here: a token belongs to a chunk when
 * their spans overlap. A token cut by a chunk boundary (a boundary in the middle of a word) counts for both chunks.
 */

/**
 * One vector per chunk: the mean of the vectors of the tokens whose span overlaps the chunk's span, normalized to
 * length 1. A chunk that no token overlaps (only whitespace, or an empty span), or whose tokens all have zero vectors
 * (the built-in model's unknown words), gets a zero vector: it has no direction, and core's `cosineSimilarity` says NaN.
 *
 * `vectors[i]` is the vector of `tokens[i]`. Tokens in text order (starts and ends non-decreasing, as a tokenizer
 * gives them) take O(tokens + chunks · log tokens + overlapping tokens · dims); tokens out of order are still handled,
 * by looking at every token for every chunk.
 */
export function lateChunkVectors(tokens: readonly Range[], vectors: readonly Float32Array[], chunks: readonly Range[]): Float32Array[] {
  if (tokens.length !== vectors.length) {
    throw new Error(`late chunking needs one vector per token: ${tokens.length} tokens, ${vectors.length} vectors`);
  }
  const dims = vectors[0]?.length ?? 0;
  const add = (sum: Float64Array, i: number) => {
    const vector = vectors[i]!;
    if (vector.length !== dims) throw new Error(`token ${i} has ${vector.length} dimensions, expected ${dims}`);
    for (let d = 0; d < dims; d++) sum[d]! += vector[d]!;
  };
  const inOrder = tokens.every((token, i) => i === 0 || (token.start >= tokens[i - 1]!.start && token.end >= tokens[i - 1]!.end));
  return chunks.map((chunk) => {
    const sum = new Float64Array(dims);
    if (inOrder) {
      // The first token that ends after the chunk starts (ends are non-decreasing), then every token starting before
      // the chunk ends. A zero-width token counts when it lies strictly inside the chunk.
      for (let i = firstEndingAfter(tokens, chunk.start); i < tokens.length && tokens[i]!.start < chunk.end; i++) add(sum, i);
    } else {
      // Offsets out of text order (a tokenizer whose offsets could not all be recovered): look at every token.
      tokens.forEach((token, i) => {
        if (token.start < chunk.end && token.end > chunk.start) add(sum, i);
      });
    }
    // The mean's divisor does not change the direction: normalizing the sum gives the normalized mean.
    return normalized(sum);
  });
}

/** Index of the first token whose end is after `offset` (tokens.length when none). */
function firstEndingAfter(tokens: readonly Range[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]!.end > offset) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** `values` scaled to length 1 as a Float32Array; all zeros (no direction) when its length is 0 or not finite. */
export function normalized(values: ArrayLike<number>): Float32Array {
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += values[i]! * values[i]!;
  const out = new Float32Array(values.length);
  const norm = Math.sqrt(squares);
  if (!(norm > 0) || !Number.isFinite(norm)) return out;
  for (let i = 0; i < values.length; i++) out[i] = values[i]! / norm;
  return out;
}

/**
 * Late-chunked vectors for `chunks` of `text` with a model: one `embedTokens` call over the whole text (the embedder
 * windows texts longer than its maximum input), then `lateChunkVectors`.
 */
export async function embedLate(
  embedder: Pick<Embedder, 'embedTokens'>,
  text: string,
  chunks: readonly Range[],
  options?: EmbedCallOptions,
): Promise<Float32Array[]> {
  const { tokens, vectors } = await embedder.embedTokens(text, options);
  return lateChunkVectors(tokens, vectors, chunks);
}

/** Each chunk's similarity with a query: embedded on its own (naive) and late-chunked, as the late-chunking panel shows. */
export interface QuerySimilarities {
  /** NaN where the chunk is blank (not embedded) or its vector has no direction. */
  naive: Float64Array;
  /** NaN where the chunk's late-chunked vector has no direction. */
  late: Float64Array;
}

/**
 * For a query the user types: each chunk's cosine similarity with the query, under naive chunk embeddings (the chunk
 * text embedded alone; blank chunks are not embedded) and under late-chunked ones (`embedLate` over the whole text).
 * `tokens` gives the whole text's token vectors: the embedding worker passes one that keeps them per document
 * version, so a new query re-embeds only the query and the chunks.
 */
export async function querySimilarities(
  embedder: Pick<Embedder, 'embed' | 'embedTokens'>,
  query: string,
  text: string,
  chunks: readonly Range[],
  tokens: Pick<Embedder, 'embedTokens'> = embedder,
): Promise<QuerySimilarities> {
  const [queryVector] = await embedder.embed([query]);
  const texts = chunks.map((c) => text.slice(c.start, c.end));
  const nonBlank = texts.map((t) => t.trim() !== '');
  const naiveVectors = await embedder.embed(texts.filter((_, i) => nonBlank[i]));
  const lateVectors = await embedLate(tokens, text, chunks);
  const naive = new Float64Array(chunks.length).fill(NaN);
  let k = 0;
  chunks.forEach((_, i) => {
    if (nonBlank[i]) naive[i] = cosineSimilarity(queryVector!, naiveVectors[k++]!);
  });
  const late = Float64Array.from(lateVectors, (v) => cosineSimilarity(queryVector!, v));
  return { naive, late };
}
