import { RunGuard, type Level } from '../merge';
import type { DocumentStructure, StructureSection } from '../registry';
import type { Range, Unit } from '../types';
import { buildHtmlOutline, htmlHeadingPathAt, type HtmlBlock, type HtmlOutline, type HtmlTable } from './html';
import { htmlVisibleText, spanVisibleText } from './htmlText';
import { splitStructured, structureRun, type StructureOutline, type StructureSpan } from './pipeline';
import { rowsAsText, serializedTables } from './sections';
import { inclusiveRange, trimRange } from '../ranges';

export interface HtmlSplitOptions {
  /** Split at headings h1..h{maxDepth} (default 3, the strategy's headingDepth); deeper headings stay inside. */
  maxDepth?: number;
  size: number;
  overlap: number;
  unit: Unit;
  /** Table chunks' content as "column: value" lines per row (rows separated by a blank line). */
  rowsAsText?: boolean;
  signal?: { aborted: boolean };
  onProgress?: (fraction: number) => void;
  /** An outline already built for `text` (the strategy's structure() and split() can share one). */
  outline?: HtmlOutline;
  /** Text pieces smaller than this (in the unit) merge with a neighbour in their section; default size / 4, 0 = off. */
  minFragment?: number | null;
  /** Content = the raw HTML of the span (default false: its visible text, htmlVisibleText). */
  rawHtml?: boolean;
}

/** Elements never chunked: their spans are skipped (the document title still comes from `<title>`). */
const IGNORED_ELEMENTS = new Set(['head', 'script', 'style']);

export const DEFAULT_HTML_HEADING_DEPTH = 3;

/** Block nesting deeper than this is cut at lines and words instead (each nesting level is one packer level). */
const MAX_BLOCK_LEVELS = 32;

/**
 * Split HTML at headings (h1..h{maxDepth}), with exact offsets into the raw source. Each section that fits is one
 * chunk; tiny sections merge into their next sibling (TINY_SECTION_FRACTION, as for markdown); an oversize section
 * is packed by the core packer at block element boundaries (outermost blocks first, then their children), then
 * blank lines, lines, words and grapheme clusters — never cutting inside a tag or comment, nor inside a `<table>`
 * or `<pre>` that fits on its own. A table larger than the size becomes row groups: the first group spans the
 * table's start (caption, header) and its content is the header row, a line break and its rows; every later
 * group's `content` is `prefix` (the header row's source text and a line break) followed by its source span.
 */
export function splitHtml(text: string, options: HtmlSplitOptions): StructureSpan[] {
  const maxDepth = options.maxDepth ?? DEFAULT_HTML_HEADING_DEPTH;
  const guard = new RunGuard({ signal: options.signal, onProgress: options.onProgress }, text.length);
  guard.check();
  const outline = options.outline ?? buildHtmlOutline(text);
  guard.check();
  const run = structureRun(text, options, guard);
  // With rowsAsText a table alone in a chunk gets serialized content, so it must fit serialized too.
  const { serializedRows, fitsSerialized } = serializedTables<HtmlTable>(options);

  // Row-grouped tables: too large (as source or serialized), not nested in another row-grouped table.
  const bigTables: HtmlTable[] = [];
  for (const t of outline.tables) {
    const outer = bigTables[bigTables.length - 1];
    if (outer && t.start < outer.end) continue;
    if (!run.fits(t) || !fitsSerialized(t, false)) bigTables.push(t);
  }
  const bigSet = new Set(bigTables);

  const blockLevel: Level = (start, end) => blockPieces(outline.blocks, start, end);
  const read: StructureOutline<HtmlTable> = {
    sections: sectionRanges(text, outline, maxDepth),
    headingEnds: new Map(outline.headings.map((h) => [h.section.start, h.end])),
    code: outline.code,
    // No cut inside a tag, nor inside a table or code block that fits.
    atomic: atomicRanges(outline, run.fits, (t) => !bigSet.has(t) && fitsSerialized(t, true)),
    // One packer level per nesting level of block elements (outermost first).
    blockLevels: new Array<Level>(Math.min(MAX_BLOCK_LEVELS, blockNesting(outline.blocks) + 1)).fill(blockLevel),
    // What a span holds when it is exactly one code block or one table.
    wholeBlocks: [
      ...outline.code.map((c) => ({ range: trimRange(text, c), type: 'code' as const })),
      ...outline.tables.map((t) => ({ range: trimRange(text, t), type: 'table' as const, table: t })),
    ],
    holes: skippedRanges(outline, bigTables),
  };
  // Pieces of the stretch being settled that are markup alone (no visible text).
  const markupOnly = new Set<StructureSpan>();
  return splitStructured(run, read, {
    headingPathAt: (offset) => htmlHeadingPathAt(outline, offset),
    describe(span, table) {
      if (table && options.rowsAsText && table.rows.length > 0) {
        const rows = serializedRows(table);
        span.content = table.caption && fitsSerialized(table, true) ? `${table.caption.text}\n\n${rows}` : rows;
      } else if (!options.rawHtml) {
        // What a pipeline indexes: the span's visible text (tags out), unless raw HTML is asked for.
        span.content = spanVisibleText(text, span, outline.markup, span.contentType === 'code');
        if (span.content === '') markupOnly.add(span);
      }
    },
    settle(pieces) {
      const kept = joinMarkupOnly(pieces, (piece) => markupOnly.has(piece), (offset) => htmlHeadingPathAt(outline, offset));
      markupOnly.clear();
      return kept;
    },
    rowGroups: (table) => tableRowGroups(text, outline, table, options, guard),
  });
}

/**
 * Markup alone (closing tags, a wrapper's opening tag) has no text: it joins the text piece before it, or at the
 * start of a section the one after it; else it is dropped.
 */
function joinMarkupOnly(pieces: readonly StructureSpan[], isMarkupOnly: (s: StructureSpan) => boolean, headingPathAt: (offset: number) => string[]): StructureSpan[] {
  const kept: StructureSpan[] = [];
  let pendingStart: number | null = null;
  for (const piece of pieces) {
    if (isMarkupOnly(piece)) {
      const prev = kept[kept.length - 1];
      if (prev && prev.contentType === 'text' && pendingStart === null) prev.end = Math.max(prev.end, piece.end);
      else pendingStart ??= piece.start;
      continue;
    }
    if (pendingStart !== null && piece.contentType === 'text') {
      piece.start = pendingStart;
      piece.headingPath = headingPathAt(piece.start);
    }
    pendingStart = null;
    kept.push(piece);
  }
  return kept;
}

/** Skipped while packing, outermost only: row-grouped tables (cut on their own) and head, script, style (never chunked). */
function skippedRanges(outline: HtmlOutline, bigTables: readonly HtmlTable[]): (Range & { table?: HtmlTable })[] {
  const holes: (Range & { table?: HtmlTable })[] = [
    ...bigTables.map((t) => ({ start: t.start, end: t.end, table: t })),
    ...outline.blocks.filter((b) => IGNORED_ELEMENTS.has(b.name)).map((b) => ({ start: b.start, end: b.end })),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
  const outermost: typeof holes = [];
  for (const h of holes) if (outermost.length === 0 || h.start >= outermost[outermost.length - 1]!.end) outermost.push(h);
  return outermost;
}

/** The sections at headings of depth <= maxDepth, covering the document: the text before the first is depth 0. */
function sectionRanges(text: string, outline: HtmlOutline, maxDepth: number): (Range & { depth: number })[] {
  const cuts = outline.headings.filter((h) => h.depth <= maxDepth);
  const sections: (Range & { depth: number })[] = [];
  if (cuts.length === 0 || cuts[0]!.section.start > 0) sections.push({ start: 0, end: cuts[0]?.section.start ?? text.length, depth: 0 });
  cuts.forEach((h, i) => sections.push({ start: h.section.start, end: cuts[i + 1]?.section.start ?? text.length, depth: h.depth }));
  return sections;
}

/**
 * The document's structure for retrieval units and contextual headers: sections at headings of depth <= maxDepth
 * (without gaps, the text before the first heading included when there is any), heading ancestry at any offset,
 * and the title (`<title>`, else the first h1).
 */
export function htmlStructure(text: string, maxDepth = DEFAULT_HTML_HEADING_DEPTH, outline = buildHtmlOutline(text)): DocumentStructure {
  const sections: StructureSection[] = sectionRanges(text, outline, maxDepth).map((s) => ({
    start: s.start,
    end: s.end,
    headingPath: htmlHeadingPathAt(outline, s.start),
  }));
  const title = outline.title || outline.headings.find((h) => h.depth === 1)?.title;
  return {
    sections,
    headingPathAt: (offset) => htmlHeadingPathAt(outline, offset),
    ...(title ? { title } : {}),
  };
}


/** Index of the first block starting at or after `at` (blocks sorted by start), from `lo`. */
function firstStartingAtOrAfter(blocks: readonly Range[], at: number, lo = 0): number {
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * [start, end) cut at the boundaries of the outermost block elements lying inside it (a block equal to the range
 * itself is looked into: its children are the pieces). A block that crosses the range's end is looked into too.
 * Contiguous pieces: the text between blocks is a piece of its own.
 */
function blockPieces(blocks: readonly HtmlBlock[], start: number, end: number): Range[] {
  const cuts: number[] = [];
  let k = firstStartingAtOrAfter(blocks, start);
  while (k < blocks.length && blocks[k]!.start < end) {
    const b = blocks[k]!;
    if (b.end <= end && b.end > b.start && !(b.start === start && b.end === end)) {
      cuts.push(b.start, b.end);
      k = firstStartingAtOrAfter(blocks, b.end, k + 1);
    } else {
      k++;
    }
  }
  const out: Range[] = [];
  let at = start;
  for (const c of cuts) {
    if (c > at && c < end) {
      out.push({ start: at, end: c });
      at = c;
    }
  }
  out.push({ start: at, end });
  return out;
}

/** The deepest nesting of block elements (1 for blocks with no block inside another). */
function blockNesting(blocks: readonly HtmlBlock[]): number {
  const open: number[] = [];
  let deepest = 0;
  for (const b of blocks) {
    while (open.length > 0 && open[open.length - 1]! <= b.start) open.pop();
    open.push(b.end);
    deepest = Math.max(deepest, open.length);
  }
  return deepest;
}

/**
 * Ranges no cut may fall inside, sorted and disjoint: tables (kept whole: not row-grouped) and code blocks that
 * fit the size, and every tag or comment that fits.
 */
function atomicRanges(outline: HtmlOutline, fits: (r: Range) => boolean, keepTable: (t: HtmlTable) => boolean): Range[] {
  const ranges: Range[] = [];
  for (const c of outline.code) if (fits(c)) ranges.push(c);
  for (const t of outline.tables) if (keepTable(t) && fits(t)) ranges.push(t);
  for (const m of outline.markup) if (fits(m)) ranges.push(m);
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  // Union of overlapping ranges (touching ones stay apart: the boundary between two tags is a fine cut).
  const out: Range[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}


/**
 * Row groups of a table too large for one chunk (no overlap). Group spans run from a row's start to the next
 * group's first row (trimmed), so everything between rows (`</tbody><tbody>`) is covered; the first group starts at
 * the table's start, the last ends at its end. Content: see splitHtml.
 */
function tableRowGroups(text: string, outline: HtmlOutline, table: HtmlTable, options: HtmlSplitOptions, guard: RunGuard): StructureSpan[] {
  const headingPath = htmlHeadingPathAt(outline, table.start);
  const base = { headingPath, contentType: 'table' as const, ...(table.caption ? { caption: table.caption.text } : {}) };
  const { rows } = table;
  if (rows.length === 0) {
    const only: StructureSpan = { start: table.start, end: table.end, oversize: true, ...base };
    if (!options.rawHtml && !options.rowsAsText) only.content = htmlVisibleText(text.slice(table.start, table.end));
    return [only];
  }
  const between = text.slice(table.headerRow.end, rows[0]!.start);
  const lineBreak = between.includes('\r\n') ? '\r\n' : between.includes('\r') && !between.includes('\n') ? '\r' : '\n';
  const prefix = table.headerText + lineBreak;
  const spanStart = (first: number): number => (first === 0 ? table.start : rows[first]!.start);
  const spanEnd = (last: number): number =>
    last === rows.length - 1 ? table.end : trimRange(text, { start: rows[last]!.start, end: rows[last + 1]!.start }).end;
  const header = table.headerRow;
  const contentOf = (first: number, last: number): string => {
    if (options.rowsAsText) return rowsAsText(table, inclusiveRange(first, last));
    const from = rows[first]!.start;
    const to = spanEnd(last);
    // A title row above the header row puts the header inside the first group's rows: it is said once, first.
    if (from < header.start && header.end <= to) {
      const after = trimRange(text, { start: header.end, end: to }).start;
      return prefix + text.slice(from, trimRange(text, { start: from, end: header.start }).end) + lineBreak + text.slice(after, to);
    }
    return prefix + text.slice(from, to);
  };
  const measure = (s: string): number => options.unit.count(s);
  const out: StructureSpan[] = [];
  let first = 0;
  while (first < rows.length) {
    guard.check();
    let last = first;
    while (last + 1 < rows.length && measure(contentOf(first, last + 1)) <= options.size) last++;
    const content = contentOf(first, last);
    const span: StructureSpan = { start: spanStart(first), end: spanEnd(last), content, ...base };
    // The first group's own text holds the header row; a later group's content is the injected header + its text.
    if (first > 0 && !options.rowsAsText && content === prefix + text.slice(span.start, span.end)) span.prefix = prefix;
    if (!options.rowsAsText && !options.rawHtml) {
      // Visible text: the header row's text on its own line, then the rows' (the injected part stays a prefix).
      const header = htmlVisibleText(prefix);
      const rowsText = first === 0 ? htmlVisibleText(content.slice(prefix.length)) : spanVisibleText(text, span, outline.markup);
      span.content = `${header}\n${rowsText}`;
      if (span.prefix !== undefined) span.prefix = `${header}\n`;
    }
    if (measure(content) > options.size) span.oversize = true;
    out.push(span);
    first = last + 1;
  }
  return out;
}

