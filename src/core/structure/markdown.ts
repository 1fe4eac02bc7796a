import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { lastStartingAtOrBefore } from '../ranges';
import type { Range } from '../types';
import { parseMarkdownBlocks, type MarkdownBlock } from './markdownBlocks';

/**
 * A flat outline of a markdown document, with exact UTF-16 offsets (JavaScript string indices, the chunk
 * contract's offsets; tested with emoji and CJK in markdown.test.ts). The blocks come from markdown-it's block
 * parser (markdownBlocks.ts); heading titles and captions from mdast (micromark + GFM), parsed only for the few
 * lines that hold inline markup. The outline equals the one built from a whole-document mdast before
 * (markdownOutline.differential.test.ts), at a twentieth of the cost.
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

// Built once: the extensions are plain tables of constructs, the same for every parse (combining them per call
// cost about a millisecond each time).
let gfmExtensions: { extensions: ReturnType<typeof gfm>[]; mdastExtensions: ReturnType<typeof gfmFromMarkdown>[] } | null = null;

export function parseMarkdown(text: string): Root {
  gfmExtensions ??= { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
  return fromMarkdown(text, gfmExtensions);
}

/** Plain text of a node: text, inline code and image alt, no markup. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

export const CAPTION = /^[*_]{0,2}table(\s+[\w.-]+)?\s*[:.]/i;

export function buildOutline(text: string): MarkdownOutline {
  const all = parseMarkdownBlocks(text);
  const headings: OutlineHeading[] = [];
  const code: OutlineCode[] = [];
  const tables: OutlineTable[] = [];
  const blocks: Range[] = [];
  // Titles and captions whose text needs the inline parser, resolved together once the blocks are known.
  const inline = new InlineTexts(text, all);

  for (const b of all) {
    if (b.level === 0) {
      blocks.push({ start: b.start, end: b.end });
      if (b.type === 'heading') {
        const heading: OutlineHeading = { start: b.start, end: b.end, depth: b.depth!, title: '', section: { start: b.start, end: text.length }, parent: -1 };
        inline.request(b, (title) => (heading.title = title));
        headings.push(heading);
      }
    }
    if (b.type === 'code') {
      const opener = text.slice(b.start, b.start + 3);
      code.push({ start: b.start, end: b.end, fenced: opener === '```' || opener === '~~~' || /^\s*(```|~~~)/.test(text.slice(b.start, b.start + 8)) });
    } else if (b.type === 'table') {
      tables.push(pipeTableOutline(text, b, b.previous >= 0 ? all[b.previous] : undefined, inline));
    } else if (b.type === 'html') {
      const table = htmlTableOutline(text, { start: b.start, end: b.end });
      if (table) tables.push(table);
    }
  }
  inline.resolve();

  // A section runs to the next heading of the same or a higher level: one pass with a stack of open sections.
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.depth >= h.depth) headings[open.pop()!]!.section.end = h.start;
    h.parent = open.length > 0 ? open[open.length - 1]! : -1;
    open.push(i);
  });
  return { headings, code, tables, blocks };
}

/** Characters that may start inline markup in CommonMark + GFM (escapes, entities, code, emphasis, strikethrough,
 * links, images, autolinks, HTML, footnote calls, literal autolinks: "@", "://", "www."), and NUL (micromark
 * replaces it). */
const INLINE_MARKUP = /[\\&`*_~[\]!<@\u0000]|:\/\/|www\./i;
const ATX_OPEN = /^#{1,6}(?:[ \t]+|$)/;
const ATX_CLOSE = /(?:^|[ \t]+)#+[ \t]*$/;

/** The inline content of a one-line heading or caption (an ATX heading less its markers, a setext heading's text
 * line, a one-line paragraph), or null for the others. */
function oneLineInline(block: MarkdownBlock, source: string): string | null {
  if (block.type === 'heading' && !block.setext) return source.replace(ATX_OPEN, '').replace(ATX_CLOSE, '');
  if (block.type === 'heading' && /^[^\r\n]*(\r\n?|\n)[^\r\n]*$/.test(source)) return source.slice(0, source.search(/[\r\n]/));
  if (block.type === 'paragraph' && !/[\r\n]/.test(source)) return source;
  return null;
}

/** An inline link whose text is plain and whose destination is bare: `[text](dest)` (no title, no `<dest>`). */
const SIMPLE_LINK = /^\[([^[\]\\`*_~!<>&@^\u0000][^[\]\\`*_~!<>&@\u0000]*)\]\(([^\s()<>\\`\u0000]*)\)/;
/** Literal text that GFM would turn into a link. */
const AUTOLINK_LITERAL = /:\/\/|www\./i;
const isBlankOrEdge = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t';

/**
 * The plain text of one line of inline markdown when it is simple enough to read without micromark, or null (then
 * micromark reads it). Read here: code spans (CommonMark 6.1: a run of n backticks opens, the next run of exactly
 * n closes; one space is stripped from each side of the content when both sides have one and it is not all spaces;
 * a run with no closer is literal; inside, everything is literal), inline links `[plain text](bare-destination)`
 * (their text), and characters that cannot be markup where they stand: `&` not before a letter, digit or `#` (no
 * character reference), `!` not before `[` (no image), runs of `*`, `_`, `~` with a space, a tab or the line's
 * edge on both sides (neither left- nor right-flanking: no emphasis or strikethrough). Anything else that may be
 * markup (`\`, `<`, `@`, other brackets, flanking delimiters, autolink literals, NUL) gives null.
 */
export function inlinePlainText(line: string, isDefined?: (label: string) => boolean): string | null {
  let out = '';
  let literal = ''; // the literal text since the last code span or link (an autolink literal needs it contiguous)
  const flush = (): boolean => {
    if (AUTOLINK_LITERAL.test(literal)) return false;
    out += literal;
    literal = '';
    return true;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '`') {
      let runEnd = i;
      while (line.charCodeAt(runEnd) === 0x60) runEnd++;
      const closer = closingRun(line, runEnd, runEnd - i);
      if (closer < 0) {
        literal += line.slice(i, runEnd);
        i = runEnd;
        continue;
      }
      if (!flush()) return null;
      let code = line.slice(runEnd, closer);
      if (code.length >= 2 && code[0] === ' ' && code[code.length - 1] === ' ' && /[^ ]/.test(code)) code = code.slice(1, -1);
      out += code;
      i = closer + (runEnd - i);
    } else if (c === '[') {
      const link = SIMPLE_LINK.exec(line.slice(i));
      if (link) {
        if (AUTOLINK_LITERAL.test(link[1]!) || !flush()) return null;
        out += link[1];
        i += link[0].length;
      } else {
        if (!isDefined || !literalBracket(line, i, isDefined)) return null;
        literal += c;
        i++;
      }
    } else if (c === ']' && isDefined) {
      // Every "[" before it was found literal (or opened a plain link, which ends past its "]").
      literal += c;
      i++;
    } else if (c === '*' && line.startsWith('**', i) && plainStrong(line, i) >= 0) {
      const close = plainStrong(line, i);
      literal += line.slice(i + 2, close);
      i = close + 2;
    } else if (c === '&') {
      if (/[A-Za-z0-9#]/.test(line[i + 1] ?? '')) return null;
      literal += c;
      i++;
    } else if (c === '!') {
      if (line[i + 1] === '[') return null;
      literal += c;
      i++;
    } else if (c === '*' || c === '_' || c === '~') {
      let runEnd = i;
      while (line[runEnd] === c) runEnd++;
      if (!isBlankOrEdge(line[i - 1]) || !isBlankOrEdge(line[runEnd])) return null;
      literal += line.slice(i, runEnd);
      i = runEnd;
    } else if (c === '\\' || c === '<' || c === '@' || c === ']' || c === '\u0000') {
      return null;
    } else {
      literal += c;
      i++;
    }
  }
  return flush() ? out : null;
}

/** The characters that may be markup inside a strong span read here (none may be). */
const STRONG_INNER_MARKUP = /[\\&`*_~[\]!<@\u0000]/;

/**
 * `**text**` as strong emphasis whose text is plain: the opening run (exactly two asterisks) follows a blank or the
 * line's start and precedes a non-blank (left-flanking, not right-flanking: it can only open), the closing run
 * (exactly two) follows a non-blank and precedes a blank or the line's end (it can only close), and nothing between
 * them may be markup. Returns where the closing run starts, or -1.
 */
function plainStrong(line: string, at: number): number {
  if (!isBlankOrEdge(line[at - 1]) || line[at + 2] === '*' || /^\s?$/.test(line[at + 2] ?? '')) return -1;
  const close = line.indexOf('**', at + 2);
  if (close < 0 || line[close + 2] === '*' || !isBlankOrEdge(line[close + 2]) || /\s/.test(line[close - 1]!)) return -1;
  return STRONG_INNER_MARKUP.test(line.slice(at + 2, close)) ? -1 : close;
}

/**
 * Whether the "[" at `at` is literal text: the "]" that closes it (brackets nest) is missing, or is followed by
 * neither "(" (an inline link) nor "[" (a full or collapsed reference), and the text between is no defined label
 * (a shortcut reference: a label holds no brackets; a footnote call starts with "^"). A line with a code span or a
 * backslash is left to micromark (either may hide a bracket).
 */
function literalBracket(line: string, at: number, isDefined: (label: string) => boolean): boolean {
  if (line.includes('`') || line.includes('\\')) return false;
  let depth = 0;
  let close = -1;
  for (let j = at; j < line.length; j++) {
    if (line[j] === '[') depth++;
    else if (line[j] === ']' && --depth === 0) {
      close = j;
      break;
    }
  }
  if (close < 0) return true;
  const after = line[close + 1];
  if (after === '(' || after === '[') return false;
  const label = line.slice(at + 1, close);
  if (label.startsWith('^')) return false;
  return /[[\]]/.test(label) || !isDefined(normalizeLabel(label));
}

/** A link label as micromark compares them (micromark-util-normalize-identifier). */
export function normalizeLabel(label: string): string {
  return label.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase().toUpperCase();
}

/** The start of the next run of exactly `length` backticks at or after `from`, or -1. */
function closingRun(line: string, from: number, length: number): number {
  for (let next = line.indexOf('`', from); next >= 0; ) {
    let end = next;
    while (line.charCodeAt(end) === 0x60) end++;
    if (end - next === length) return next;
    next = line.indexOf('`', end);
  }
  return -1;
}

/** A definition's label: from its "[" to the first unescaped "]" (a label holds no other bracket), before ":". */
const DEFINITION_LABEL = /^[ \t]*\[((?:[^\\[\]]|\\[\s\S])*)\]:/;
/** Stands for every label where a definition's label could not be read. */
const ANY_LABEL = '\u0000any';

/**
 * Plain texts of headings and captions. A line without inline markup is its own text (an ATX heading less its
 * markers); the others are parsed by mdast together, in one small document of their own, followed by the
 * document's link and footnote definitions (a reference resolves only when defined).
 */
class InlineTexts {
  private readonly pending: { block: MarkdownBlock; set: (text: string) => void }[] = [];
  constructor(
    private readonly text: string,
    private readonly blocks: readonly MarkdownBlock[],
  ) {}

  request(block: MarkdownBlock, set: (text: string) => void): void {
    const source = this.text.slice(block.start, block.end);
    if (block.titleStart === undefined) {
      const line = oneLineInline(block, source);
      // Without markup the line is its own text; with simple markup (code spans, plain links, literal brackets, plain
      // strong text: README headings are mostly `api.calls(a[, b])`) it is read here: micromark is ~1 MB/s, and its
      // first call in a process runs its whole tokenizer in the interpreter.
      const plain = line === null ? null : INLINE_MARKUP.test(line) ? inlinePlainText(line, this.isDefined) : line;
      if (plain !== null) {
        set(plain.trim());
        return;
      }
    }
    this.pending.push({ block, set });
  }

  /** Normalised labels of the document's link reference definitions; null until a title asks. */
  private labels: Set<string> | null = null;
  /** Whether a label is defined (any label, when a definition's label could not be read). */
  private readonly isDefined = (label: string): boolean => {
    if (this.labels === null) {
      this.labels = new Set();
      for (const b of this.blocks) {
        if (b.type !== 'definition') continue;
        const m = DEFINITION_LABEL.exec(b.source!);
        this.labels.add(m ? normalizeLabel(m[1]!) : ANY_LABEL);
      }
    }
    return this.labels.has(ANY_LABEL) || this.labels.has(label);
  };

  resolve(): void {
    if (this.pending.length === 0) return;
    const sources = this.pending.map((p) => this.text.slice(p.block.start, p.block.end));
    const definitions = sources.some((s) => s.includes('[')) ? this.definitions() : '';
    const root = parseMarkdown(sources.join('\n\n') + (definitions ? `\n\n${definitions}` : ''));
    const expected = this.pending.map((p) => p.block.type);
    const together = expected.every((type, i) => root.children[i]?.type === type);
    this.pending.forEach((p, i) => {
      // Parsed together unless a source did not come back as one block of its kind; then alone (a setext heading
      // under definitions spans them: its node is the first of its kind).
      const node = together
        ? root.children[i]!
        : parseMarkdown(sources[i]! + (definitions ? `\n\n${definitions}` : '')).children.find((c) => c.type === p.block.type);
      p.set(node ? plainText(node).trim() : '');
    });
  }

  private definitions(): string {
    const out: string[] = [];
    for (const b of this.blocks) {
      if (b.type === 'definition') out.push(b.source!);
      else if (b.type === 'footnoteDefinition') out.push(`[^${b.source}]: x`);
    }
    return out.join('\n\n');
  }
}

/**
 * A pipe table cell's text: its source less the pipe before it and the pipe after it (with the whitespace around
 * them), trimmed. Equal to `.replace(/^\s*\|?/, '').replace(/\|?\s*$/, '').trim()` (a property test holds it to
 * that), without the end-anchored pattern, which V8 tries at every position of the cell.
 */
export function pipeCellText(source: string): string {
  let cell = source.trimStart();
  if (cell.startsWith('|')) cell = cell.slice(1);
  cell = cell.trimEnd();
  if (cell.endsWith('|')) cell = cell.slice(0, -1);
  return cell.trim();
}

function pipeTableOutline(text: string, block: MarkdownBlock, previous: MarkdownBlock | undefined, inline: InlineTexts): OutlineTable {
  const span = { start: block.start, end: block.end };
  const [head, ...body] = block.rows!;
  const headerRow = head ? { start: head.start, end: head.end } : { start: span.start, end: span.start };
  // The delimiter row is no row: it is the line after the header row.
  let delimiterStart = headerRow.end;
  if (text[delimiterStart] === '\r') delimiterStart++;
  if (text[delimiterStart] === '\n') delimiterStart++;
  let delimiterEnd = text.indexOf('\n', delimiterStart);
  if (delimiterEnd < 0 || delimiterEnd > span.end) delimiterEnd = span.end;
  let headerText = text.slice(headerRow.start, delimiterEnd);
  if (headerText.endsWith('\r')) headerText = headerText.slice(0, -1);
  const cellText = (s: Range): string => pipeCellText(text.slice(s.start, s.end));
  const table: OutlineTable = {
    ...span,
    format: 'pipe',
    headerRow,
    headerText,
    rows: body.map((r) => ({ start: r.start, end: r.end })),
    columns: head ? head.cells.map(cellText) : [],
    cells: body.map((r) => r.cells.map(cellText)),
  };
  if (previous?.type === 'paragraph') {
    const p = { start: previous.start, end: previous.end };
    const between = text.slice(p.end, span.start);
    const pText = text.slice(p.start, p.end);
    const newlines = (between.match(/\n/g) ?? []).length;
    if (!pText.includes('\n') && newlines >= 1 && newlines <= 2 && CAPTION.test(pText.trim())) {
      const caption = { ...p, text: '' };
      inline.request(previous, (t) => (caption.text = t));
      table.caption = caption;
    }
  }
  return table;
}

const HTML_ROW = /<tr\b[^>]*>[\s\S]*?<\/tr\s*>/gi;
const HTML_CELL = /<(t[dh])\b[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const HTML_CAPTION = /<caption\b[^>]*>([\s\S]*?)<\/caption\s*>/i;

/** The four entities an HTML table cell's text decodes (in one pass: a replacement never makes another entity). */
const HTML_ENTITIES: Record<string, string> = { '&nbsp;': ' ', '&lt;': '<', '&gt;': '>', '&amp;': '&' };

function htmlText(fragment: string): string {
  return fragment
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:nbsp|lt|gt|amp);/g, (entity) => HTML_ENTITIES[entity]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `source` ends with `</table>` (any case, blanks before the `>` and after it), without an end-anchored
 * pattern (V8 tries one at every position of a large block). */
function endsWithTableClose(source: string): boolean {
  const trimmed = source.trimEnd();
  const tag = trimmed.lastIndexOf('<');
  return tag >= 0 && /^<\/table\s*>$/i.test(trimmed.slice(tag));
}

/**
 * An HTML block that is a whole `<table>...</table>`: rows are its `<tr>` elements (found by pattern, not a full
 * HTML parser: nested tables are not supported); the header row is the first row; a `<caption>` is the caption.
 */
export function htmlTableOutline(text: string, span: Range): OutlineTable | null {
  const source = text.slice(span.start, span.end);
  if (!/^\s*<table\b/i.test(source) || !endsWithTableClose(source)) return null;
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
