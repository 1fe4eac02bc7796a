import type { Nodes, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { lastStartingAtOrBefore } from '../ranges';
import type { Range } from '../types';

/**
 * A flat outline of a markdown document, with exact UTF-16 offsets. micromark reports `position.offset` as
 * JavaScript string indices, i.e. UTF-16 code units — the same offsets as the chunk contract (tested with emoji
 * and CJK in markdown.test.ts).
 */

export interface OutlineHeading extends Range {
  /** 1..6 (ATX `#` count; setext `===` is 1, `---` is 2). */
  depth: number;
  /** The heading's plain text (inline markup removed), trimmed. */
  title: string;
  /** From the heading's start to the start of the next heading of the same or a higher level (or the end). */
  section: Range;
  /** Index in `headings` of the nearest enclosing heading (a lower depth), -1 for none. */
  parent: number;
}

export interface OutlineCode extends Range {
  /** True for ``` / ~~~ fences, false for indented code. */
  fenced: boolean;
}

export interface OutlineTable extends Range {
  /** 'pipe': a GFM pipe table; 'html': a `<table>` HTML block (one without blank lines inside, as CommonMark ends an
   * HTML block at a blank line). */
  format: 'pipe' | 'html';
  /** The header row's source span (the first line of the table). */
  headerRow: Range;
  /** Pipe tables: the header row and the delimiter row as in the source (`| a | b |\n|---|---|`); HTML: the header `<tr>`. */
  headerText: string;
  /** Body rows' source spans (without the header row). */
  rows: Range[];
  /** Header cells' text, trimmed (the column names for "column: value" serialization). */
  columns: string[];
  /** Per body row, its cells' source text, trimmed. */
  cells: string[][];
  /**
   * A caption: a one-line paragraph ending on the line right above the table, or separated from it by one blank
   * line, whose text starts with "Table" and a number and/or ":" or "." (e.g. "Table 3: Rates", "**Table:** x").
   * Pandoc's caption-below form is not recognised.
   */
  caption?: Range & { text: string };
}

export interface MarkdownOutline {
  /** Top-level headings (direct children of the document), in order. Headings inside lists or quotes are not sections. */
  headings: OutlineHeading[];
  /** Every code block, at any nesting depth, in order. */
  code: OutlineCode[];
  /** Every GFM pipe table and HTML `<table>` block, at any nesting depth, in order. */
  tables: OutlineTable[];
  /** Spans of the document's top-level blocks, in order. */
  blocks: Range[];
}

export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function spanOf(node: Nodes): Range {
  return { start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 };
}

/** Plain text of a node: text, inline code and image alt, no markup. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

const CAPTION = /^[*_]{0,2}table(\s+[\w.-]+)?\s*[:.]/i;

export function buildOutline(text: string, root: Root = parseMarkdown(text)): MarkdownOutline {
  const headings: OutlineHeading[] = [];
  const code: OutlineCode[] = [];
  const tables: OutlineTable[] = [];
  const blocks = root.children.map((child) => spanOf(child));

  root.children.forEach((child: RootContent) => {
    if (child.type === 'heading') {
      const span = spanOf(child);
      headings.push({ ...span, depth: child.depth, title: plainText(child).trim(), section: { start: span.start, end: text.length }, parent: -1 });
    }
  });
  // A section runs to the next heading of the same or a higher level: one pass with a stack of open sections.
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.depth >= h.depth) headings[open.pop()!]!.section.end = h.start;
    h.parent = open.length > 0 ? open[open.length - 1]! : -1;
    open.push(i);
  });

  const visit = (node: Nodes, previous: Nodes | undefined): void => {
    if (node.type === 'code') {
      const span = spanOf(node);
      const opener = text.slice(span.start, span.start + 3);
      code.push({ ...span, fenced: opener === '```' || opener === '~~~' || /^\s*(```|~~~)/.test(text.slice(span.start, span.start + 8)) });
      return;
    }
    if (node.type === 'table') {
      tables.push(tableOutline(text, node, previous));
      return;
    }
    if (node.type === 'html') {
      const table = htmlTableOutline(text, spanOf(node));
      if (table) tables.push(table);
      return;
    }
    if ('children' in node) {
      const children = node.children as Nodes[];
      children.forEach((c, i) => visit(c, i > 0 ? children[i - 1] : undefined));
    }
  };
  visit(root, undefined);
  return { headings, code, tables, blocks };
}

function tableOutline(text: string, node: Table, previous: Nodes | undefined): OutlineTable {
  const span = spanOf(node);
  const [head, ...body] = node.children;
  const headerRow = head ? spanOf(head) : { start: span.start, end: span.start };
  // The delimiter row is no node: it is the line after the header row.
  let delimiterStart = headerRow.end;
  if (text[delimiterStart] === '\r') delimiterStart++;
  if (text[delimiterStart] === '\n') delimiterStart++;
  let delimiterEnd = text.indexOf('\n', delimiterStart);
  if (delimiterEnd < 0 || delimiterEnd > span.end) delimiterEnd = span.end;
  let headerText = text.slice(headerRow.start, delimiterEnd);
  if (headerText.endsWith('\r')) headerText = headerText.slice(0, -1);
  const cellText = (cell: Nodes): string => {
    const s = spanOf(cell);
    return text.slice(s.start, s.end).replace(/^\s*\|?/, '').replace(/\|?\s*$/, '').trim();
  };
  const table: OutlineTable = {
    ...span,
    format: 'pipe',
    headerRow,
    headerText,
    rows: body.map((r) => spanOf(r)),
    columns: head ? head.children.map((c) => cellText(c)) : [],
    cells: body.map((r) => r.children.map((c) => cellText(c))),
  };
  if (previous?.type === 'paragraph') {
    const p = spanOf(previous);
    const between = text.slice(p.end, span.start);
    const pText = text.slice(p.start, p.end);
    const newlines = (between.match(/\n/g) ?? []).length;
    if (!pText.includes('\n') && newlines >= 1 && newlines <= 2 && CAPTION.test(pText.trim())) {
      table.caption = { ...p, text: plainText(previous).trim() };
    }
  }
  return table;
}

const HTML_ROW = /<tr\b[^>]*>[\s\S]*?<\/tr\s*>/gi;
const HTML_CELL = /<(t[dh])\b[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const HTML_CAPTION = /<caption\b[^>]*>([\s\S]*?)<\/caption\s*>/i;

function htmlText(fragment: string): string {
  return fragment
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An HTML block that is a whole `<table>...</table>`: rows are its `<tr>` elements (found by pattern, not a full
 * HTML parser: nested tables are not supported); the header row is the first row; a `<caption>` is the caption.
 */
function htmlTableOutline(text: string, span: Range): OutlineTable | null {
  const source = text.slice(span.start, span.end);
  if (!/^\s*<table\b/i.test(source) || !/<\/table\s*>\s*$/i.test(source)) return null;
  const rows: Range[] = [];
  for (const m of source.matchAll(HTML_ROW)) rows.push({ start: span.start + m.index, end: span.start + m.index + m[0].length });
  if (rows.length === 0) return null;
  const cellsOf = (r: Range): string[] => [...text.slice(r.start, r.end).matchAll(HTML_CELL)].map((m) => htmlText(m[2]!));
  const [head, ...body] = rows;
  const table: OutlineTable = {
    ...span,
    format: 'html',
    headerRow: head!,
    headerText: text.slice(head!.start, head!.end),
    rows: body,
    columns: cellsOf(head!),
    cells: body.map(cellsOf),
  };
  const caption = HTML_CAPTION.exec(source);
  if (caption) {
    const start = span.start + caption.index;
    table.caption = { start, end: start + caption[0].length, text: htmlText(caption[1]!) };
  }
  return table;
}

/**
 * Titles of the headings whose sections contain `offset`, outermost first (the document title heading included).
 * An offset inside a heading line belongs to that heading's section.
 */
export function headingPathAt(outline: MarkdownOutline, offset: number): string[] {
  const { headings } = outline;
  // The last heading at or before `offset` contains it (no heading lies between them); so do its ancestors.
  const last = lastStartingAtOrBefore(headings, offset);
  const path: string[] = [];
  for (let i = last; i >= 0; i = headings[i]!.parent) path.push(headings[i]!.title);
  return path.reverse();
}
