import { lowerBound } from '../core/sorted';
import type { Chunk, Range } from '../core/types';
import { findEmbedderModel } from '../embed/hub';
import { truncation } from '../embed/truncation';
import { BUILTIN_MODEL } from './embeddingPort';

// Semantic jobs only, after their chunks are painted: the chunk worker loads this module then (runEmbedderTokens),
// so the model list (../embed/hub) is not in its first chunk.

/**
 * Each chunk's length in the model's tokens (`starts`/`ends`: the document's tokens) and the document offset where
 * the model stops reading it (-1: it reads all of it).
 */
export function embedderTokenCounts(
  chunks: readonly Chunk[],
  tokens: { starts: Int32Array; ends: Int32Array },
  model: string,
  maxTokens: number,
): { counts: Int32Array; truncatedAt: Int32Array } {
  const { starts, ends } = tokens;
  const counts = new Int32Array(chunks.length);
  const truncatedAt = new Int32Array(chunks.length).fill(-1);
  const special = findEmbedderModel(model)?.specialTokens ?? (model === BUILTIN_MODEL ? 0 : 2);
  const limit = Number.isFinite(maxTokens) && maxTokens > 0 ? maxTokens : Infinity;
  chunks.forEach((c, i) => {
    const first = lowerBound(starts, c.start);
    const end = lowerBound(starts, c.end);
    const spans: Range[] = [];
    for (let k = first; k < end && ends[k]! <= c.end; k++) spans.push({ start: starts[k]! - c.start, end: ends[k]! - c.start });
    const t = truncation(c.text, spans, limit, special);
    counts[i] = t.tokens;
    if (t.truncatedAt !== null) truncatedAt[i] = c.start + t.truncatedAt;
  });
  return { counts, truncatedAt };
}
