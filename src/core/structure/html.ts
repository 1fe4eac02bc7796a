import { Parser } from 'htmlparser2';
import type { Range } from '../types';
import type { OutlineTable } from './markdown';

/**
 * A flat outline of an HTML document with exact UTF-16 offsets into the raw source, from htmlparser2's event
 * parser (no DOM: this runs in the worker and in Node). htmlparser2 reports `startIndex`/`endIndex` as JavaScript
 * string indexes (UTF-16 code units; `endIndex` inclusive) — tested with emoji in html.test.ts.
 *
 * Where an element ends: after its explicit close tag; an element closed implicitly (`<p>a<p>b`, `<li>`, a `<td>`
 * closed by `</table>`, the end of the document) ends where the tag that closed it starts.
 */

export interface HtmlHeading extends Range {
  /** 1..6 from h1..h6. */
  depth: number;
  /** Text content, entities decoded, whitespace collapsed, trimmed (img alt text included). */
  title: string;
  /**
   * From where the heading's section starts to the start of the next heading's section of the same or a higher
   * level (or the end). The section starts at the heading, or earlier at the opening tags of wrappers that open
   * right before it (`<section>`, `<article>`, `<div>`, `<header>`, `<hgroup>`, ... with only whitespace between),
   * so that a chunk never ends with the next section's opening tag.
   */
  section: Range;
  /** Index in `headings` of the nearest enclosing heading (a lower depth), -1 for none. */
  parent: number;
}

/** A `<table>`: the markdown outline's table shape (format 'html'), plus its nesting. */
export interface HtmlTable extends OutlineTable {
  format: 'html';
  /** Index in `tables` of the table this one is nested in (inside a cell), -1 for none. */
  parentTable: number;
}

/** An element that starts a block: a cut between blocks is a natural chunk boundary. */
export interface HtmlBlock extends Range {
  name: string;
}

export interface HtmlOutline {
  /** The `<title>` text, when the document has one. */
  title?: string;
  /** Headings h1–h6 in order, except those inside a table, `<pre>`, `<template>`, `<svg>`/`<math>`, `<head>` or
   * another heading: those cannot start a section without cutting what holds them. */
  headings: HtmlHeading[];
  /** Every `<table>` in source order (nested ones too). */
  tables: HtmlTable[];
  /** Code blocks: `<pre>` elements, and `<code>` elements outside `<pre>` whose text spans several lines. Not nested. */
  code: Range[];
  /** Block-level elements (see BLOCK_ELEMENTS) in source order; they nest. Table internals are not blocks. */
  blocks: HtmlBlock[];
  /** Tags, comments and the doctype: sorted, disjoint. A cut inside one would split markup. */
  markup: Range[];
}

/** Elements whose boundaries are block boundaries (content flow), for the packer's first levels. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'details', 'dialog', 'dd', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr',
  'html', 'li', 'main', 'menu', 'nav', 'noscript', 'ol', 'p', 'pre', 'script', 'section', 'style', 'summary',
  'table', 'template', 'title', 'ul',
]);

/** Headings inside these are not section starts. */
const NO_SECTION_INSIDE = new Set(['table', 'pre', 'template', 'svg', 'math', 'head', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const HEADING = /^h([1-6])$/;

/** Collapse runs of whitespace (NBSP included) to one space and trim. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

interface OpenElement {
  name: string;
  start: number;
  openEnd: number;
  /** Text collected for headings, captions, cells and the title. */
  text?: string[];
  headingDepth?: number;
  /** Tables: index in `tables`; rows: the row being built. */
  table?: number;
  rowCells?: string[];
  inThead?: boolean;
  hasTh?: boolean;
}

interface TableDraft {
  table: HtmlTable;
  /** All rows with their cells, header candidate flags, in order. */
  rows: { range: Range; cells: string[]; inThead: boolean; hasTh: boolean }[];
}

/** What the one pass over the parser's events builds, and the open elements it tracks. */
interface OutlineWalk {
  text: string;
  headings: HtmlHeading[];
  drafts: TableDraft[];
  code: Range[];
  blocks: HtmlBlock[];
  markup: Range[];
  title: string | undefined;
  stack: OpenElement[];
  /** Elements whose text is being collected (headings, caption, cells, title): text goes to all of them. */
  collecting: OpenElement[];
  /** How many open elements forbid a section start. */
  noSection: number;
  /** Open <pre> count (code inside pre is not a separate block). */
  preDepth: number;
  theadDepth: number;
  tableStack: number[];
}

/** Parse `text` and build its outline in one pass. */
export function buildHtmlOutline(text: string): HtmlOutline {
  const walk: OutlineWalk = {
    text, headings: [], drafts: [], code: [], blocks: [], markup: [], title: undefined,
    stack: [], collecting: [], noSection: 0, preDepth: 0, theadDepth: 0, tableStack: [],
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        openElement(walk, name, attribs, parser.startIndex, Math.min(text.length, parser.endIndex + 1));
      },
      ontext(chunk) {
        for (const c of walk.collecting) c.text!.push(chunk);
      },
      onclosetag(name, isImplied) {
        closeElement(walk, name, isImplied, parser.startIndex, parser.endIndex);
      },
      oncomment() {
        addMarkup(walk.markup, parser.startIndex, Math.min(text.length, parser.endIndex + 1));
      },
      onprocessinginstruction() {
        addMarkup(walk.markup, parser.startIndex, Math.min(text.length, parser.endIndex + 1));
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(text);
  parser.end();

  const { headings, blocks, code, markup, title } = walk;
  linkSections(text, headings, markup);
  // Blocks were pushed at their close: order them by start (outer before inner at the same start).
  blocks.sort((a, b) => a.start - b.start || b.end - a.end);
  code.sort((a, b) => a.start - b.start);
  const tables = walk.drafts.map((d) => finishTable(text, d));
  return { ...(title !== undefined ? { title } : {}), headings, tables, code: disjointOuter(code), blocks, markup };
}

function addMarkup(markup: Range[], start: number, end: number): void {
  const last = markup[markup.length - 1];
  if (last && start < last.end) return;
  if (end > start) markup.push({ start, end });
}

/** An opening tag: its markup, the text it collects, a table or row it starts, the depths it raises. */
function openElement(walk: OutlineWalk, name: string, attribs: Record<string, string>, start: number, openEnd: number): void {
  const { stack, collecting, drafts, tableStack } = walk;
  addMarkup(walk.markup, start, openEnd);
  const el: OpenElement = { name, start, openEnd };
  const heading = HEADING.exec(name);
  if (heading) {
    el.headingDepth = walk.noSection === 0 ? Number(heading[1]) : 0;
    el.text = [];
  } else if (name === 'title' || name === 'caption' || name === 'td' || name === 'th' || name === 'code') {
    el.text = [];
  }
  // Text of separate blocks or cells (a table nested in a cell) stays separate words.
  if (collecting.length > 0 && (BLOCK_ELEMENTS.has(name) || name === 'td' || name === 'th' || name === 'tr')) {
    for (const c of collecting) c.text!.push(' ');
  }
  if (name === 'img' || name === 'br') {
    // Alt text stands for the image in a heading; a line break separates words.
    const alt = name === 'img' ? attribs.alt : undefined;
    for (const c of collecting) c.text!.push(name === 'br' ? ' ' : ` ${alt ?? ''} `);
  }
  if (name === 'table') {
    const index = drafts.length;
    drafts.push({
      table: {
        start, end: start, format: 'html', headerRow: { start, end: start }, headerText: '', rows: [], columns: [], cells: [],
        parentTable: tableStack.length > 0 ? tableStack[tableStack.length - 1]! : -1,
      },
      rows: [],
    });
    el.table = index;
    tableStack.push(index);
  }
  if (name === 'tr') {
    el.rowCells = [];
    el.inThead = walk.theadDepth > 0;
    el.hasTh = false;
  }
  if (name === 'th') {
    const row = nearest(stack, 'tr');
    if (row) row.hasTh = true;
  }
  if (name === 'thead') walk.theadDepth++;
  if (NO_SECTION_INSIDE.has(name)) walk.noSection++;
  if (name === 'pre') walk.preDepth++;
  stack.push(el);
  if (el.text) collecting.push(el);
}

/** A closing tag (explicit or implied): where the element ends, and what it adds to the outline. */
function closeElement(walk: OutlineWalk, name: string, isImplied: boolean, tagStart: number, tagEnd: number): void {
  const { text, stack, collecting } = walk;
  const el = stack.pop();
  if (!el || el.name !== name) {
    // htmlparser2 closes what it opened, innermost first; anything else is a parser surprise: keep going.
    if (el) stack.push(el);
    return;
  }
  // Explicit close: after its `>`; implied: where the tag that closed it starts (never before the open tag's end).
  const closeEnd = isImplied ? tagStart : tagEnd + 1;
  const end = Math.min(text.length, Math.max(el.openEnd, closeEnd));
  if (!isImplied) addMarkup(walk.markup, tagStart, end);
  if (el.text) collecting.splice(collecting.lastIndexOf(el), 1);
  const collected = el.text ? collapseWhitespace(el.text.join('')) : '';

  if (NO_SECTION_INSIDE.has(name)) walk.noSection--;
  if (name === 'pre') walk.preDepth--;
  if (name === 'thead') walk.theadDepth--;
  if (BLOCK_ELEMENTS.has(name)) walk.blocks.push({ name, start: el.start, end });
  addClosedElement(walk, el, name, end, collected);
}

/** What a closed element adds: a heading, the title, a code block, a caption, a cell, a row or a table's end. */
function addClosedElement(walk: OutlineWalk, el: OpenElement, name: string, end: number, collected: string): void {
  const { text, drafts, tableStack } = walk;
  if (el.headingDepth) {
    walk.headings.push({ start: el.start, end, depth: el.headingDepth, title: collected, section: { start: el.start, end: text.length }, parent: -1 });
  } else if (name === 'title') {
    if (walk.title === undefined) walk.title = collected;
  } else if (name === 'pre') {
    walk.code.push({ start: el.start, end });
  } else if (name === 'code' && walk.preDepth === 0 && /[\r\n]/.test(text.slice(el.openEnd, end))) {
    walk.code.push({ start: el.start, end });
  } else if (name === 'caption') {
    const t = tableStack.length > 0 ? drafts[tableStack[tableStack.length - 1]!]!.table : undefined;
    if (t && !t.caption) t.caption = { start: el.start, end, text: collected };
  } else if (name === 'td' || name === 'th') {
    const row = nearest(walk.stack, 'tr');
    if (row) row.rowCells!.push(collected);
  } else if (name === 'tr') {
    const t = tableStack[tableStack.length - 1];
    if (t !== undefined) drafts[t]!.rows.push({ range: { start: el.start, end }, cells: el.rowCells!, inThead: el.inThead!, hasTh: el.hasTh! });
  } else if (name === 'table') {
    drafts[el.table!]!.table.end = end;
    tableStack.pop();
  }
}

/** Each heading's section: its start moved back over wrapper tags, its end at the next heading of its level or higher. */
function linkSections(text: string, headings: HtmlHeading[], markup: readonly Range[]): void {
  // Section starts move back over the wrapper tags opened right before each heading.
  headings.forEach((h, i) => {
    h.section.start = sectionStart(text, markup, h.start, i > 0 ? headings[i - 1]!.end : 0);
  });
  // Sections: one pass with a stack of open headings (a section runs to the next heading of the same or a higher level).
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.depth >= h.depth) headings[open.pop()!]!.section.end = h.section.start;
    h.parent = open.length > 0 ? open[open.length - 1]! : -1;
    open.push(i);
  });
}

/** Opening tags of the elements that wrap a section (a heading right inside one starts the section at the tag). */
const WRAPPER_OPEN = /^<(section|article|div|header|hgroup|main|aside|nav)\b/i;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
}

/**
 * Where the section of the heading at `headingStart` starts: at the earliest of a run of wrapper opening tags that
 * ends right before the heading (whitespace between allowed), never before `floor` (the previous heading's end).
 */
function sectionStart(text: string, markup: readonly Range[], headingStart: number, floor: number): number {
  let at = headingStart;
  for (;;) {
    let p = at;
    while (p > floor && isBlank(text.charCodeAt(p - 1))) p--;
    // The markup range ending at p (markup is sorted and disjoint, so ends are sorted too).
    let lo = 0;
    let hi = markup.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (markup[mid]!.end <= p) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const m = found >= 0 ? markup[found]! : undefined;
    if (!m || m.end !== p || m.start < floor || !WRAPPER_OPEN.test(text.slice(m.start, m.start + 8))) return at;
    at = m.start;
  }
}

function nearest(stack: readonly OpenElement[], name: string): OpenElement | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const el = stack[i]!;
    if (el.name === name) return el;
    if (el.name === 'table') return undefined; // a row of an enclosing table is not this cell's row
  }
  return undefined;
}

/**
 * The header row is the first row of `<thead>`, else the first row holding a `<th>`, else the first row (as the
 * markdown outline takes for HTML tables). Body rows are all the other rows, in order (a title row above the header
 * row included); rows of nested tables belong to those tables.
 */
function finishTable(text: string, draft: TableDraft): HtmlTable {
  const { table, rows } = draft;
  if (rows.length === 0) return table;
  let header = rows.findIndex((r) => r.inThead);
  if (header < 0) header = rows.findIndex((r) => r.hasTh);
  if (header < 0) header = 0;
  const head = rows[header]!;
  const body = rows.filter((_, i) => i !== header);
  table.headerRow = head.range;
  table.headerText = text.slice(head.range.start, head.range.end);
  table.columns = head.cells;
  table.rows = body.map((r) => r.range);
  table.cells = body.map((r) => r.cells);
  return table;
}

/** Ranges sorted by start without those inside an earlier one. */
function disjointOuter(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) continue;
    out.push(r);
  }
  return out;
}

/**
 * Titles of the headings whose sections contain `offset`, outermost first. An offset inside a heading element, or in
 * the wrapper tags its section starts with, belongs to that heading's section.
 */
export function htmlHeadingPathAt(outline: Pick<HtmlOutline, 'headings'>, offset: number): string[] {
  // Section starts are in order: each is at or after the previous heading's end.
  const { headings } = outline;
  let lo = 0;
  let hi = headings.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (headings[mid]!.section.start <= offset) {
      last = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const path: string[] = [];
  for (let i = last; i >= 0; i = headings[i]!.parent) path.push(headings[i]!.title);
  return path.reverse();
}
