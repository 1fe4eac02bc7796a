import { documentCache, outlineBytes } from '../../documentCache';
import type { StrategyImplementation } from '../../registry';
import { buildHtmlOutline, type HtmlOutline } from '../../structure/html';
import { DEFAULT_HTML_HEADING_DEPTH, htmlStructure, splitHtml } from '../../structure/htmlSplit';

/**
 * HTML split at headings h1..h{headingDepth} with breadcrumbs (src/core/structure/htmlSplit.ts): exact offsets into
 * the raw source, tables and <pre> kept whole when they fit, large tables in row groups repeating the header row.
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    return splitHtml(text, {
      size: options.size,
      overlap: options.overlap,
      unit: ctx.unit,
      maxDepth: options.headingDepth ?? DEFAULT_HTML_HEADING_DEPTH,
      rowsAsText: options.rowsAsText ?? false,
      minFragment: options.minFragment ?? null,
      rawHtml: options.rawHtml ?? false,
      signal: ctx.signal,
      onProgress: ctx.onProgress,
      outline: outlineOf(text),
    });
  },
  structure(text, ctx) {
    return htmlStructure(text, ctx.options.headingDepth ?? DEFAULT_HTML_HEADING_DEPTH, outlineOf(text));
  },
};

// split(), structure() and contextual headers all need the outline of the same text, and the page re-splits the
// same document on every slider move: it lives in the engine's per-document cache.
function outlineOf(text: string): HtmlOutline {
  return documentCache.getOrCompute(text, 'html.outline', () => buildHtmlOutline(text), () => outlineBytes(text));
}
