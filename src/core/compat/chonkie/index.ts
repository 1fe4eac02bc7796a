import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { recursiveReference } from './recursive';
export { chonkieFast, fastReference, CHONKIE_FAST_DELIMITERS, CHONKIE_FAST_SIZE } from './fast';
import { sentenceReference } from './sentence';
import { toSpans } from './spans';
import { tokenReference } from './token';

/*
 * Exact reproduction of @chonkiejs/core 0.0.11 (Chonkie's TypeScript package) for the recursive, token and sentence
 * strategies (each strategy's split() calls its function here in compat mode `chonkie`): RecursiveChunker,
 * TokenChunker and SentenceChunker with their default rules and delimiters, the size and overlap in the unit
 * (`chars` = Chonkie's default character tokenizer; a tiktoken encoding = a js-tiktoken tokenizer object). The same
 * chunk texts in the same order; `content` is the package's text where it is not the chunk's source range, and
 * metadata.referenceOffsets the package's offsets where they are wrong (spans.ts). Pure: the package itself is only
 * the reference of the tests.
 */

export { CHONKIE_RECURSIVE_SIZE } from './recursive';
export { CHONKIE_SENTENCE_OVERLAP, CHONKIE_SENTENCE_SIZE } from './sentence';
export { CHONKIE_TOKEN_OVERLAP, CHONKIE_TOKEN_SIZE } from './token';
export type { ChonkieOffsetsNote, ReferenceChunk } from './spans';
export { recursiveReference, sentenceReference, tokenReference };

/** RecursiveChunker: chunks over the size are single pieces no level could cut (flagged oversize). */
export function chonkieRecursive(text: string, ctx: ChunkContext): SplitSpan[] {
  return toSpans(text, recursiveReference(text, ctx), (c) => c.tokenCount > ctx.options.size);
}

/** TokenChunker. */
export function chonkieToken(text: string, ctx: ChunkContext): SplitSpan[] {
  return toSpans(text, tokenReference(text, ctx));
}

/** SentenceChunker: a sentence over the size is one oversize chunk. */
export function chonkieSentence(text: string, ctx: ChunkContext): SplitSpan[] {
  return toSpans(text, sentenceReference(text, ctx), (c) => c.tokenCount > ctx.options.size);
}
