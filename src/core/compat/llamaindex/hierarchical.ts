import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { deletionMap, type Piece } from './pieces';
import { splitSentenceLlamaindex } from './sentenceSplitter';

/** HierarchicalNodeParser.from_defaults: chunk sizes 2048, 512, 128 and a SentenceSplitter overlap of 20 at every level. */
export const HIERARCHICAL_DEFAULTS = { chunkSizes: [2048, 512, 128], chunkOverlap: 20 } as const;

/**
 * LlamaIndex's HierarchicalNodeParser (`from_defaults(chunk_sizes, chunk_overlap)`) built on LlamaIndex TS's
 * SentenceSplitter: @llamaindex/core 0.6.23 has no HierarchicalNodeParser, so this is its algorithm (LlamaIndex
 * Python's) with the TS package's splitter, which is what the generated llamaindex-ts program composes:
 *
 * - level 0: SentenceSplitter({ chunkSize: levels[0], chunkOverlap }).splitText(document);
 * - level k + 1: the same with levels[k + 1] on the text of each node of level k (its string: LlamaIndex's, which
 *   may not be a source span), so nodes overlap within a level and a node that already fits is its own only child;
 * - every node of a level is a child of the node it was cut from; leaves are the last level.
 *
 * The list is in pre-order (each node followed by its descendants), as Chunkscope's retrieval units are; LlamaIndex
 * lists level by level, which is the same nodes sorted by (level, metadata.position). An empty document gives one
 * empty node per level (SentenceSplitter's `[""]`).
 */
export function llamaindexHierarchical(source: string, ctx: ChunkContext, levels: readonly number[], chunkOverlap: number): SplitSpan[] {
  const out: SplitSpan[] = [];
  const total = Math.max(1, source.length);
  const cut = (root: Piece, level: number, parent: number | null): void => {
    const spans = splitSentenceLlamaindex(source, { ...ctx, onProgress: undefined }, { chunkSize: levels[level]!, chunkOverlap }, root);
    const last = level === levels.length - 1;
    for (const span of spans) {
      if (level === 0) ctx.onProgress?.(span.start / total);
      const index = out.length;
      out.push({ ...span, level, parent, leaf: last });
      if (last) continue;
      // A node whose string is not its span (punctuation the secondary regex lost) is cut as that string, each
      // character placed where it is in the span when it can be.
      const root: Piece = span.content === undefined ? { start: span.start, end: span.end } : { start: span.start, end: span.end, text: span.content };
      if (root.text !== undefined) root.at = deletionMap(source, span.start, span.end, root.text);
      cut(root, level + 1, index);
    }
  };
  cut({ start: 0, end: source.length }, 0, null);
  return out;
}
