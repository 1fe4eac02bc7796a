import type { DocumentStructure, SplitSpan } from './registry';
import type { Unit } from './types';

/**
 * Contextual headers: text put before each chunk's content (what a pipeline embeds) so a chunk carries where it
 * comes from, e.g. "Travel Policy > 5. International travel > 5.3 Per diem". The source span is unchanged.
 *
 * Template placeholders: {title} (the document title: its first level-1 heading or <title>, else the file name),
 * {path} (the heading path joined with " > "), {file} (the file path). A header that comes out blank is left out.
 * Titles longer than HEADER_TITLE_MAX characters are shortened with "…".
 */

export const PATH_JOINER = ' > ';
/**
 * A title longer than this is shortened in the header (not in metadata.headingPath): a setext "heading" made of a
 * whole paragraph would otherwise make every chunk's budget small, since the splitter leaves room for the largest.
 */
const HEADER_TITLE_MAX = 80;

function shorten(title: string): string {
  if (title.length <= HEADER_TITLE_MAX) return title;
  const cut = title.slice(0, HEADER_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return (space > HEADER_TITLE_MAX / 2 ? cut.slice(0, space) : cut) + '…';
}

export interface HeaderContext {
  template: string;
  title: string;
  file: string;
}

export function headerContext(template: string, structure: DocumentStructure | null, path: string | null): HeaderContext {
  const file = path ?? '';
  const baseName = file.split(/[\\/]/).pop() ?? '';
  return { template, title: structure?.title ?? baseName, file };
}

/** The header for a chunk with this heading path ('' when every placeholder is empty). */
export function renderHeader(ctx: HeaderContext, headingPath: readonly string[]): string {
  let empty = true;
  const out = ctx.template.replace(/\{(title|path|file)\}/g, (_, name: string) => {
    const value = name === 'title' ? shorten(ctx.title) : name === 'file' ? ctx.file : headingPath.map(shorten).join(PATH_JOINER);
    if (value !== '') empty = false;
    return value;
  });
  return empty ? '' : out;
}

/**
 * The largest header any chunk of this document can get, in the unit: the splitter cuts to `size` minus this, so
 * that content (header included) stays within the size. Structure strategies: over every section's path and every
 * heading's own path; otherwise the one header the document has.
 */
export function largestHeaderSize(ctx: HeaderContext, structure: DocumentStructure | null, unit: Unit): number {
  const paths: (readonly string[])[] = [[]];
  for (const s of structure?.sections ?? []) {
    paths.push(s.headingPath);
    // Deeper headings inside a section lengthen the path of chunks that start under them.
    paths.push(structure!.headingPathAt(Math.max(s.start, s.end - 1)));
  }
  let largest = 0;
  for (const p of paths) largest = Math.max(largest, unit.count(renderHeader(ctx, p)));
  return largest;
}

/** Put the header before each span's content; `prefix` records it (plus any prefix the splitter already set). */
export function withHeaders(source: string, spans: readonly SplitSpan[], ctx: HeaderContext): SplitSpan[] {
  return spans.map((span) => {
    const header = renderHeader(ctx, span.headingPath ?? []);
    if (header === '') return span;
    const content = span.content ?? source.slice(span.start, span.end);
    return { ...span, content: header + content, prefix: header + (span.prefix ?? '') };
  });
}
