import { meterFor } from '../measure';
import { inclusiveRange, lastStartingAtOrBefore, trimRange } from '../ranges';
import { cutFilterFor, packLevels, RunGuard, type Level, type MergeParams } from '../merge';
import type { SplitSpan } from '../registry';
import { separatorLevels } from '../segment/separators';
import type { Range, Unit } from '../types';
import { buildOutline, headingPathAt, type MarkdownOutline, type OutlineTable } from './markdown';
import { absorbFragments, joinLoneHeadings, mergeTinySections, minFragmentFor, rowsAsText, serializedTables, type FragmentRules } from './sections';

export type StructureContentType = 'text' | 'table' | 'code';

/** A chunk span of a structure-aware splitter: exact source offsets plus breadcrumbs and what the chunk holds. */
export interface StructureSpan extends SplitSpan {
  /** Ancestor heading titles at the span's first non-blank character, outermost first. */
  headingPath: string[];
  contentType: StructureContentType;
  /** Table chunks: the table's caption text, when it has one. */
  caption?: string;
}

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

/** Separators used inside an oversize section, after its markdown blocks: the recursive splitter's defaults. */
const FALLBACK_SEPARATORS = ['\n\n', '\n', ' ', ''];

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
  const meter = meterFor(options.unit, text);
  const params: MergeParams = {
    size: options.size,
    overlap: options.overlap,
    meter,
    guard: new RunGuard({ signal: options.signal, onProgress: options.onProgress }, text.length),
  };
  const sizeOf = (r: Range): number => {
    const t = trimRange(text, r);
    return t.start >= t.end ? 0 : meter.exact(t.start, t.end);
  };

  // Sections: the preamble, then one per heading of depth <= maxDepth (depth 0 = preamble).
  const cuts = outline.headings.filter((h) => h.depth <= maxDepth);
  const sections: (Range & { depth: number })[] = [];
  if (cuts.length === 0 || cuts[0]!.start > 0) sections.push({ start: 0, end: cuts[0]?.start ?? text.length, depth: 0 });
  cuts.forEach((h, i) => sections.push({ start: h.start, end: cuts[i + 1]?.start ?? text.length, depth: h.depth }));
  const bounds = options.range ?? { start: 0, end: text.length };
  if (options.range) {
    // Only the sections inside the range, clipped to it (a parent unit may be a piece of a section).
    const clipped = sections
      .filter((s) => s.end > bounds.start && s.start < bounds.end)
      .map((s) => ({ start: Math.max(s.start, bounds.start), end: Math.min(s.end, bounds.end), depth: s.depth }));
    sections.splice(0, sections.length, ...clipped);
  }

  // Merge tiny sections forward into their next siblings; a heading with no body joins the section after it.
  // With a range (a parent unit), only the outline's parts that overlap it matter: per-call work stays
  // proportional to the range, not to the document.
  const local = options.range ? restrictOutline(outline, bounds) : outline;
  const headingEnds = new Map(local.headings.map((h) => [h.start, h.end]));
  const headingOnly = (r: Range): boolean => {
    const t = trimRange(text, r);
    return (headingEnds.get(t.start) ?? -1) >= t.end;
  };
  const merged = mergeTinySections(sections, options.size, sizeOf, headingOnly);

  // With rowsAsText a table must also fit once serialized (a table alone in a chunk gets that content).
  const { serializedRows, fitsSerialized } = serializedTables<OutlineTable>(options);
  const fits = (r: Range): boolean => sizeOf(r) <= options.size;
  const atomic = atomicRanges(text, local, fits, fitsSerialized);
  const blockLevel: Level = (start, end) => piecesBetween(start, end, outline.blocks);
  const levels = [blockLevel, ...separatorLevels(text, FALLBACK_SEPARATORS, false, 'start', cutFilterFor(text, options.unit))].map((level) =>
    keepAtomic(level, atomic),
  );

  // What a span holds when it is exactly one code block or one table (with or without its caption).
  const kinds = new Map<string, { type: StructureContentType; table?: OutlineTable }>();
  const key = (r: Range): string => `${r.start}:${r.end}`;
  for (const c of local.code) kinds.set(key(trimRange(text, c)), { type: 'code' });
  for (const t of local.tables) {
    kinds.set(key(trimRange(text, t)), { type: 'table', table: t });
    if (t.caption) kinds.set(key(trimRange(text, { start: Math.min(t.caption.start, t.start), end: t.end })), { type: 'table', table: t });
  }

  // A heading left alone before a cut joins its body's first words (joinLoneHeadings).
  const wordLevels = separatorLevels(text, ['\\s+', ''], true, 'start').map((level) => keepAtomic(level, atomic));
  // A piece of a code block too large to keep whole is code too: no heading joins it, no fragment moves it.
  const insideCode = (r: Range): boolean => {
    const around = outline.code[lastStartingAtOrBefore(outline.code, r.start)];
    return around !== undefined && r.end <= around.end;
  };
  const joinHeadings = (spans: SplitSpan[]): SplitSpan[] =>
    joinLoneHeadings(text, spans, { headingOnly, headingStarts: headingEnds, keptWhole: (r) => kinds.has(key(r)) || insideCode(r), wordLevels, params });

  // Fragments join a neighbour; code blocks and tables (whole, or pieces of one too large) are left as they are.
  const fragments: FragmentRules = {
    size: options.size,
    minFragment: minFragmentFor(options.size, options.minFragment),
    sizeOf,
    whole: (s) => kinds.has(key(s)) || insideCode(s),
    headingOnly,
    cuttable: (at) => !insideAny(atomic, at) && !insideAny(outline.code, at),
  };

  const out: StructureSpan[] = [];
  const pushText = (found: SplitSpan[]): void => {
    for (const span of absorbFragments(text, joinHeadings(found), fragments)) {
      const kind = kinds.get(key(span));
      // A piece of a code block too large to keep whole is still code.
      const inCode = !kind && insideCode(span);
      const contentType = kind?.type ?? (inCode ? 'code' : 'text');
      const described: StructureSpan = { ...span, headingPath: headingPathAt(outline, span.start), contentType };
      if (kind?.table?.caption) described.caption = kind.table.caption.text;
      if (kind?.table && options.rowsAsText && kind.table.rows.length > 0) {
        // The caption line is kept in the content when it fits; it is always in `caption`.
        const rows = serializedRows(kind.table);
        const withCaption = kind.table.caption && span.start <= kind.table.caption.start && fitsSerialized(kind.table, true);
        described.content = withCaption ? `${kind.table.caption!.text}\n\n${rows}` : rows;
      }
      out.push(described);
    }
  };
  const oversizeTables = local.tables.filter(
    (t) => t.start >= bounds.start && t.end <= bounds.end && (!fits(t) || !fitsSerialized(t, false)),
  );
  let nextTable = 0;
  for (const section of merged) {
    params.guard.check();
    // Oversize tables inside the section are cut into row groups; the text around them is packed.
    const bigTables: OutlineTable[] = [];
    while (nextTable < oversizeTables.length && oversizeTables[nextTable]!.start < section.end) {
      bigTables.push(oversizeTables[nextTable]!);
      nextTable++;
    }
    let from = section.start;
    for (const table of bigTables) {
      const spans: SplitSpan[] = [];
      if (table.start > from) packLevels(text, from, table.start, levels, params, spans);
      pushText(spans);
      out.push(...tableRowGroups(text, outline, table, options));
      from = table.end;
    }
    const spans: SplitSpan[] = [];
    if (section.end > from) packLevels(text, from, section.end, levels, params, spans);
    pushText(spans);
  }
  return out;
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
  text: string,
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


/** Whether `at` lies strictly inside one of `ranges` (sorted by start, not overlapping). */
function insideAny(ranges: readonly Range[], at: number): boolean {
  const i = lastStartingAtOrBefore(ranges, at - 1);
  return i >= 0 && at < ranges[i]!.end;
}

/** A level whose cuts inside an atomic range are undone (the pieces on both sides are joined). */
function keepAtomic(level: Level, atomic: readonly Range[]): Level {
  if (atomic.length === 0) return level;
  return (start, end) => {
    const pieces = level(start, end);
    const out: Range[] = [];
    for (const p of pieces) {
      const prev = out[out.length - 1];
      const cut = p.start;
      // Atomic ranges fit the size, so they are never the range being cut here: a cut inside one is undone.
      if (prev && prev.end === cut && insideAny(atomic, cut)) {
        prev.end = p.end;
      } else {
        out.push({ start: p.start, end: p.end });
      }
    }
    return out;
  };
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

