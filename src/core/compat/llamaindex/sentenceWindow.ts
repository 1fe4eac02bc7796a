import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { llamaindexSentences } from './sentences';

/** SentenceWindowNodeParser's defaults in @llamaindex/core 0.6.x. */
export const SENTENCE_WINDOW_DEFAULTS = { windowSize: 3, windowMetadataKey: 'window', originalTextMetadataKey: 'originalText' } as const;

/**
 * LlamaIndex TS's SentenceWindowNodeParser (@llamaindex/core 0.6.23) over one Document, with source offsets:
 *
 * - one node per sentence of its sentence tokenizer (./sentences.ts) with `trimSentences` on: each sentence is
 *   trimmed (JavaScript trim), and a sentence that trims to nothing is kept as an empty node (the text after the
 *   last delimiter when it is only whitespace: `"Hello. "` gives `"Hello."` and `""`); "" gives no node;
 * - metadata `window`: the texts of the `windowSize` nodes before, the node and the `windowSize` after, joined with
 *   one space (not a source span: what was between the sentences is replaced by " "); `originalText`: the node's
 *   text.
 *
 * Here `window` is Chunkscope's own (the window's source span, from the first sentence's start to the last one's
 * end), so the package's window string is `metadata.windowText`; `metadata.originalText` is the package's key.
 * start/end are the trimmed sentence's exact source range (the package's startCharIdx is the first occurrence of
 * the text in the document, wrong for a repeated sentence); `content` is the package's string where it is not that
 * range's text (a URI that keeps an abbreviation placeholder).
 */
export function llamaindexSentenceWindows(source: string, ctx: ChunkContext, windowSize: number): SplitSpan[] {
  const nodes: { start: number; end: number; text: string }[] = [];
  for (const piece of llamaindexSentences(source)) {
    const raw = piece.text ?? source.slice(piece.start, piece.end);
    const text = raw.trim();
    // The source range trimmed the same way (the piece's own range when the package's string is not the source's).
    const span = source.slice(piece.start, piece.end);
    const lead = span.length - span.trimStart().length;
    const start = Math.min(piece.end, piece.start + lead);
    const end = Math.max(start, piece.end - (span.length - span.trimEnd().length));
    nodes.push({ start, end, text });
  }
  ctx.onProgress?.(0.5);
  const out: SplitSpan[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const first = Math.max(0, i - windowSize);
    const last = Math.min(nodes.length - 1, i + windowSize);
    const windowText = nodes
      .slice(first, last + 1)
      .map((n) => n.text)
      .join(' ');
    const unit: SplitSpan = {
      start: node.start,
      end: node.end,
      level: 0,
      parent: null,
      leaf: true,
      window: { start: nodes[first]!.start, end: Math.max(nodes[first]!.start, nodes[last]!.end) },
      metadata: { windowText, originalText: node.text },
    };
    if (node.text !== source.slice(node.start, node.end)) unit.content = node.text;
    out.push(unit);
  }
  return out;
}
