import { inclusiveRange, lastStartingAtOrBefore, trimRange } from '../ranges';
import { RunGuard } from '../merge';
import type { Range, Unit } from '../types';
import { buildOutline, headingPathAt, type MarkdownOutline, type OutlineTable } from './markdown';
import { splitStructured, structureRun, type StructureOutline, type StructureSpan, type WholeBlock } from './pipeline';
import { rowsAsText, serializedTables } from './sections';

// The span types live with the pipeline; existing callers import them from here.
export type { StructureContentType, StructureSpan } from './pipeline';

export interface MarkdownSplitOptions {
  /** Split at headings of depth 1..maxDepth (default 6); deeper headings stay inside their section. */
  maxDepth?: number;
  size: number;
  overlap: number;
  unit: Unit;
  /** Table chunks' content as "column: value" lines per row (rows separated by a blank line), after the caption
   * line when the chunk holds the caption. */
  rowsAsText?: boolean;
  signal?: { aborted: boolean };
  onProgress?: (fraction: number) => void;
  /** The document's outline when the caller already has it (parsing dominates the cost). */
  outline?: MarkdownOutline;
  /** Split only this part of the text (a parent unit), with the whole document's outline and breadcrumbs. */
  range?: Range;
  /** Text pieces smaller than this (in the unit) merge with a neighbour in their section (absorbFragments);
   * default size / 4; 0 keeps them. */
  minFragment?: number | null;
}

// Shared with the HTML splitter (and imported from here by existing callers).
export { rowsAsText, TINY_SECTION_FRACTION } from './sections';

/**
 * Split markdown at headings (depth <= maxDepth). Each section that fits is one chunk; tiny sections merge forward
 * (see TINY_SECTION_FRACTION); an oversize section is packed with the core packer over its top-level markdown
 * blocks, then blank lines, lines, words and grapheme clusters — never cutting inside a code block or a table that
 * fits on its own. A table too large on its own becomes row groups whose content repeats the header row and the
 * delimiter row (the span is the rows' source range; the first group also spans the header rows). The caption of
 * a split table stays in the text before it and is carried on each group as `caption`.
 */
export function splitMarkdown(text: string, options: MarkdownSplitOptions): StructureSpan[] {
  const maxDepth = options.maxDepth ?? 6;
  const outline = options.outline ?? buildOutline(text);
  const run = structureRun(text, options, new RunGuard({ signal: options.signal, onProgress: options.onProgress }, text.length));
  const bounds = options.range ?? { start: 0, end: text.length };
  // With a range (a parent unit), only the outline's parts that overlap it matter: per-call work stays
  // proportional to the range, not to the document.
  const local = options.range ? restrictOutline(outline, bounds) : outline;
  // With rowsAsText a table must also fit once serialized (a table alone in a chunk gets that content).
  const { serializedRows, fitsSerialized } = serializedTables<OutlineTable>(options);

  // What a span holds when it is exactly one code block or one table (with or without its caption).
  const wholeBlocks: WholeBlock<OutlineTable>[] = local.code.map((c) => ({ range: trimRange(text, c), type: 'code' }));
  for (const t of local.tables) {
    wholeBlocks.push({ range: trimRange(text, t), type: 'table', table: t });
    if (t.caption) wholeBlocks.push({ range: trimRange(text, { start: Math.min(t.caption.start, t.start), end: t.end }), type: 'table', table: t });
  }
  const read: StructureOutline<OutlineTable> = {
    sections: sectionRanges(text, outline, maxDepth, options.range),
    headingEnds: new Map(local.headings.map((h) => [h.start, h.end])),
    code: outline.code,
    atomic: atomicRanges(local, run.fits, fitsSerialized),
    blockLevels: [(start, end) => piecesBetween(start, end, outline.blocks)],
    wholeBlocks,
    // Oversize tables are cut into row groups; the text around them is packed.
    holes: local.tables
      .filter((t) => t.start >= bounds.start && t.end <= bounds.end && (!run.fits(t) || !fitsSerialized(t, false)))
      .map((t) => ({ start: t.start, end: t.end, table: t })),
  };
  return splitStructured(run, read, {
    headingPathAt: (offset) => headingPathAt(outline, offset),
    describe(span, table) {
      if (table && options.rowsAsText && table.rows.length > 0) {
        // The caption line is kept in the content when it fits; it is always in `caption`.
        const rows = serializedRows(table);
        const withCaption = table.caption && span.start <= table.caption.start && fitsSerialized(table, true);
        span.content = withCaption ? `${table.caption!.text}\n\n${rows}` : rows;
      }
    },
    rowGroups: (table) => tableRowGroups(text, outline, table, options),
  });
}

/**
 * Sections: the preamble, then one per heading of depth <= maxDepth (depth 0 = preamble); with a range, only those
 * inside it, clipped to it (a parent unit may be a piece of a section).
 */
function sectionRanges(text: string, outline: MarkdownOutline, maxDepth: number, range: Range | undefined): (Range & { depth: number })[] {
  const cuts = outline.headings.filter((h) => h.depth <= maxDepth);
  const sections: (Range & { depth: number })[] = [];
  if (cuts.length === 0 || cuts[0]!.start > 0) sections.push({ start: 0, end: cuts[0]?.start ?? text.length, depth: 0 });
  cuts.forEach((h, i) => sections.push({ start: h.start, end: cuts[i + 1]?.start ?? text.length, depth: h.depth }));
  if (!range) return sections;
  return sections
    .filter((s) => s.end > range.start && s.start < range.end)
    .map((s) => ({ start: Math.max(s.start, range.start), end: Math.min(s.end, range.end), depth: s.depth }));
}

/** The outline's headings, code blocks and tables that overlap `bounds` (each list is sorted by start). */
function restrictOutline(outline: MarkdownOutline, bounds: Range): MarkdownOutline {
  const overlapping = <T extends Range>(items: readonly T[]): T[] => {
    const out: T[] = [];
    for (let i = Math.max(0, lastStartingAtOrBefore(items, bounds.start)); i < items.length && items[i]!.start < bounds.end; i++) {
      if (items[i]!.end > bounds.start) out.push(items[i]!);
    }
    return out;
  };
  return { headings: overlapping(outline.headings), code: overlapping(outline.code), tables: overlapping(outline.tables), blocks: outline.blocks };
}

/** Contiguous pieces of [start, end) cut at the starts of the given blocks. */
function piecesBetween(start: number, end: number, blocks: readonly Range[]): Range[] {
  const out: Range[] = [];
  let at = start;
  // Binary search to the first block after `start`: this runs for every range the packer cuts (O(log n), not O(n)).
  for (let i = lastStartingAtOrBefore(blocks, start) + 1; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.start >= end) break;
    out.push({ start: at, end: b.start });
    at = b.start;
  }
  out.push({ start: at, end });
  return out;
}

/** Ranges no cut may fall inside: code blocks and tables (with their captions) that fit the size on their own. */
function atomicRanges(
  outline: MarkdownOutline,
  fits: (r: Range) => boolean,
  fitsSerialized: (t: OutlineTable, withCaption: boolean) => boolean,
): Range[] {
  const ranges: Range[] = [];
  for (const c of outline.code) if (fits(c)) ranges.push({ start: c.start, end: c.end });
  for (const t of outline.tables) {
    const whole = { start: Math.min(t.caption?.start ?? t.start, t.start), end: t.end };
    if (fits(whole) && fitsSerialized(t, true)) ranges.push(whole);
    else if (fits(t) && fitsSerialized(t, false)) ranges.push({ start: t.start, end: t.end });
  }
  return ranges.sort((a, b) => a.start - b.start);
}


function tableRowGroups(
  text: string,
  outline: MarkdownOutline,
  table: OutlineTable,
  options: MarkdownSplitOptions,
): StructureSpan[] {
  const headingPath = headingPathAt(outline, table.start);
  const base = { headingPath, contentType: 'table' as const, ...(table.caption ? { caption: table.caption.text } : {}) };
  if (table.rows.length === 0) return [{ start: table.start, end: table.end, oversize: true, ...base }];
  // Header and rows are joined as in the source ("\n", "\r\n", or nothing between HTML rows on one line).
  const headerEnd = table.headerRow.start + table.headerText.length;
  const lineBreak = text.slice(headerEnd, table.rows[0]!.start).replace(/[^\r\n]/g, '') || (table.format === 'pipe' ? '\n' : '');
  // The first group also spans the header rows; the last one the table's closing text (`</table>`).
  const startOf = (first: number): number => (first === 0 ? table.start : table.rows[first]!.start);
  const endOf = (last: number): number => (last === table.rows.length - 1 ? table.end : table.rows[last]!.end);
  const prefix = table.headerText + lineBreak;
  const contentOf = (first: number, last: number): string =>
    options.rowsAsText ? rowsAsText(table, inclusiveRange(first, last)) : prefix + text.slice(table.rows[first]!.start, endOf(last));
  const measure = (s: string): number => options.unit.count(s);
  const out: StructureSpan[] = [];
  let first = 0;
  while (first < table.rows.length) {
    let last = first;
    while (last + 1 < table.rows.length && measure(contentOf(first, last + 1)) <= options.size) last++;
    const content = contentOf(first, last);
    const span: StructureSpan = { start: startOf(first), end: endOf(last), content, ...base };
    // Later groups repeat the header row before their own source text: the page draws it as injected text.
    if (!options.rowsAsText && first > 0) span.prefix = prefix;
    if (measure(content) > options.size) span.oversize = true;
    out.push(span);
    first = last + 1;
  }
  return out;
}

