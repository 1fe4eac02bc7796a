import { documentCache, outlineBytes } from '../../documentCache';
import type { DocumentStructure, RangeSplitter, SplitSpan, StrategyImplementation, StructureSection } from '../../registry';
import { splitLangchainMarkdownHeaders } from '../../structure/langchainMarkdownHeader';
import { splitLlamaindexTsMarkdown } from '../../compat/llamaindex';
import { buildOutline, headingPathAt, type MarkdownOutline } from '../../structure/markdown';
import { splitMarkdown } from '../../structure/markdownSplit';
import type { ChunkContext, Range } from '../../types';

/**
 * Markdown split at its headings (src/core/structure): breadcrumbs on every chunk, tables kept whole with their
 * header (large ones in row groups repeating it), code fences never cut unless alone too big. Compat modes:
 * LangChain's MarkdownHeaderTextSplitter and LlamaIndex's MarkdownNodeParser (neither applies a size).
 */
export const implementation: StrategyImplementation & RangeSplitter = {
  split(text, ctx) {
    const { options } = ctx;
    // LlamaIndex's parser is a line scan (milliseconds per MiB): its spans take their breadcrumbs from its own
    // Header_n metadata rather than from the markdown outline (seconds per MiB to parse).
    if (options.compat === 'llamaindex') return llamaindexSpans(text);
    const outline = outlineOf(text);
    if (options.compat === 'langchain') return langchainSpans(text, ctx, outline);
    return splitNative(text, ctx, outline);
  },
  // Parent–child: children of a parent are cut with the whole document's outline (no re-parse of each slice, and
  // breadcrumbs from the whole document).
  splitRange(text: string, range: Range, ctx: ChunkContext) {
    return splitNative(text, ctx, outlineOf(text), range);
  },
  structure(text, ctx) {
    return markdownStructure(text, ctx.options.headingDepth ?? 3);
  },
};

function splitNative(text: string, ctx: ChunkContext, outline: MarkdownOutline, range?: Range): SplitSpan[] {
  const { options } = ctx;
  return splitMarkdown(text, {
    maxDepth: options.headingDepth ?? 3,
    size: options.size,
    overlap: options.overlap,
    unit: ctx.unit,
    rowsAsText: options.rowsAsText ?? false,
    minFragment: options.minFragment ?? null,
    signal: ctx.signal,
    onProgress: ctx.onProgress,
    outline,
    ...(range ? { range } : {}),
  });
}

/** Sections at headings of depth <= maxDepth (the text before the first one included), covering the document. */
export function markdownStructure(text: string, maxDepth: number): DocumentStructure {
  const outline = outlineOf(text);
  const cuts = outline.headings.filter((h) => h.depth <= maxDepth);
  const sections: StructureSection[] = [];
  if (cuts.length === 0 || cuts[0]!.start > 0) sections.push({ start: 0, end: cuts[0]?.start ?? text.length, headingPath: [] });
  cuts.forEach((h, i) => sections.push({ start: h.start, end: cuts[i + 1]?.start ?? text.length, headingPath: headingPathAt(outline, h.start) }));
  const title = outline.headings.find((h) => h.depth === 1)?.title;
  return { sections, headingPathAt: (offset) => headingPathAt(outline, offset), ...(title ? { title } : {}) };
}

// Parsing costs seconds per MB and split(), structure() and the headers all need the outline of the same text:
// it lives in the engine's per-document cache (the page re-splits the same document on every slider move).
function outlineOf(text: string): MarkdownOutline {
  return documentCache.getOrCompute(text, 'markdown.outline', () => buildOutline(text), () => outlineBytes(text));
}

function langchainSpans(text: string, ctx: ChunkContext, outline: MarkdownOutline): SplitSpan[] {
  const depth = ctx.options.headingDepth ?? 3;
  const headersToSplitOn = Array.from({ length: depth }, (_, i) => ['#'.repeat(i + 1), `Header ${i + 1}`] as const);
  const docs = splitLangchainMarkdownHeaders(text, {
    headersToSplitOn,
    stripHeaders: ctx.options.stripHeaders ?? true,
    returnEachLine: ctx.options.returnEachLine ?? false,
  });
  return docs.map((d) => ({
    start: d.start,
    end: d.end,
    content: d.content,
    headingPath: headingPathAt(outline, d.start),
    contentType: 'text' as const,
    // LangChain's own metadata keys ("Header 1", ...), as a pipeline using it would see them.
    metadata: d.metadata,
  }));
}

// LlamaIndex TS's MarkdownNodeParser (the TypeScript package, which differs from the Python one: see
// src/core/compat/llamaindex/DIFFERENCES.md); its Header_1 ... Header_n keys as a pipeline using it would see them.
function llamaindexSpans(text: string): SplitSpan[] {
  return splitLlamaindexTsMarkdown(text).map((n) => ({
    ...n,
    headingPath: Object.keys(n.metadata)
      .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)))
      .map((k) => n.metadata[k]!),
    contentType: 'text' as const,
  }));
}
