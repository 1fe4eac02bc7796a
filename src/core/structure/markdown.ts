import type { Nodes, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
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
}

export interface OutlineCode extends Range {
  /** True for ``` / ~~~ fences, false for indented code. */
  fenced: boolean;
}

export interface OutlineTable extends Range {
  /** The header row's source span (the first line of the table). */
  headerRow: Range;
  /** The header row and the delimiter row as they appear in the source (`| a | b |\n|---|---|`). */
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
  /** Every GFM pipe table, at any nesting depth, in order. */
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
      headings.push({ ...span, depth: child.depth, title: plainText(child).trim(), section: { start: span.start, end: text.length } });
    }
  });
  // A section runs to the next heading of the same or a higher level.
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i]!;
    for (let k = i + 1; k < headings.length; k++) {
      if (headings[k]!.depth <= h.depth) {
        h.section.end = headings[k]!.start;
        break;
      }
    }
  }

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
  let delimiterEnd = text.indexOf('\n', headerRow.end + 1);
  if (delimiterEnd < 0 || delimiterEnd > span.end) delimiterEnd = span.end;
  let headerText = text.slice(headerRow.start, delimiterEnd);
  if (headerText.endsWith('\r')) headerText = headerText.slice(0, -1);
  const cellText = (cell: Nodes): string => {
    const s = spanOf(cell);
    return text.slice(s.start, s.end).replace(/^\s*\|?/, '').replace(/\|?\s*$/, '').trim();
  };
  const table: OutlineTable = {
    ...span,
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

/**
 * Titles of the headings whose sections contain `offset`, outermost first (the document title heading included).
 * An offset inside a heading line belongs to that heading's section.
 */
export function headingPathAt(outline: MarkdownOutline, offset: number): string[] {
  const path: string[] = [];
  for (const h of outline.headings) {
    if (h.start > offset) break;
    if (offset < h.section.end) path.push(h.title);
  }
  return path;
}
