import type { Nodes, Root, RootContent, Table } from 'mdast';
import { CAPTION, htmlTableOutline, parseMarkdown, plainText, type MarkdownOutline, type OutlineCode, type OutlineHeading, type OutlineTable } from './markdown';
import type { Range } from '../types';

/**
 * The outline as it was built before markdown-it (from mdast-util-from-markdown + GFM, 3.5–5 s per MiB). Kept only
 * as the reference of the differential test (markdownOutline.differential.test.ts): the markdown-it outline must
 * equal it. Not imported by the engine.
 */

function spanOf(node: Nodes): Range {
  return { start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 };
}

export function buildMdastOutline(text: string, root: Root = parseMarkdown(text)): MarkdownOutline {
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
