import MarkdownIt from 'markdown-it';
import type { StateBlock, Token } from 'markdown-it';
import type { Range } from '../types';
import { lowerBound } from '../sorted';

/**
 * The block structure of a markdown document from markdown-it's block parser (CommonMark, with GFM pipe tables and
 * a GFM footnote-definition rule added here), with exact UTF-16 offsets of the original text. markdown-it gives
 * only line maps; the offsets are taken while its rules run, from the line marks of the container being parsed
 * (`bMarks`/`tShift`/`eMarks` are the lines as seen inside a block quote or list item). Inline content is not
 * parsed (that is what makes this ~20x cheaper than building mdast); heading titles are made elsewhere.
 *
 * The positions follow mdast's (mdast-util-from-markdown), which the outline used before: a block starts at its
 * first non-blank character (indented code at its indentation), and ends at the end of its last non-blank line
 * (trailing whitespace included, line ending excluded).
 */

export type BlockType =
  | 'paragraph'
  | 'heading'
  | 'blockquote'
  | 'list'
  | 'code'
  | 'html'
  | 'thematicBreak'
  | 'table'
  | 'definition'
  | 'footnoteDefinition';

export interface TableRowSpan extends Range {
  /** Cell spans as mdast has them: from the pipe before the cell (or the row's start) to the next pipe; the last
   * cell runs to the row's end. */
  cells: Range[];
}

export interface MarkdownBlock extends Range {
  type: BlockType;
  /** markdown-it's nesting level (0 = a direct child of the document). */
  level: number;
  /** Index of the previous block with the same parent, -1 for none. */
  previous: number;
  /** Headings: 1..6. */
  depth?: number;
  /** Headings: the source of the inline content (ATX: the line without its markers; setext: the text lines). */
  setext?: boolean;
  /** Setext headings right under link definitions: where the heading's own text starts (`start` is the definitions'). */
  titleStart?: number;
  /** Code: true for a fence (``` / ~~~). */
  fence?: boolean;
  /** Tables: the header row then the body rows. */
  rows?: TableRowSpan[];
  /** Reference definitions: the definition's source lines (container prefixes removed); footnotes: the label. */
  source?: string;
}

/** A token of the light state (below) with the block recorded for it (a field, not a WeakMap: a WeakMap of every
 * token made the collector walk ephemerons). */
type BlockToken = Token & { span: MarkdownBlock | null; shared: boolean };
const spanOf = (token: Token): MarkdownBlock | null => (token as BlockToken).span;
/** The line after the last link reference definition, and where that run of definitions started. */
let afterDefinition: { line: number; runStart: number } | null = null;
/** How many block quotes the rule being run is inside (the end of an unclosed fence depends on it). */
let quoteDepth = 0;

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** Rules the wrapped rules call, themselves wrapped: known only once every rule is. */
interface LateRules {
  paragraphRule: BlockRule;
  /** Whether `line` is a lazy continuation line of a paragraph (nothing interrupts it). */
  lazyLine: (state: StateBlock, line: number, endLine: number) => boolean;
  /** Whether a table's header row at `line` opens another block instead. */
  tableHeaderOpensBlock: (state: StateBlock, line: number, endLine: number) => boolean;
}

/**
 * markdown-it's block state with tokens as plain objects of the same fields: its Token class sets each field
 * through a transpiled defineProperty helper (a fifth of the block pass on 1 MiB). Only the block rules see these
 * tokens, and they read and write fields only (no attr* or other Token methods).
 *
 * Tokens nothing reads once pushed (closing tokens, inline content, a table's row and cell openings) are one shared
 * object per type: the rules still count and index them (a list marks its paragraphs tight by position), but a
 * megabyte no longer keeps three objects per paragraph alive through the parse, which the young-generation
 * collector copied again at every scavenge of a fresh process. Shared tokens never get a span.
 */
type LightState = StateBlock & { sourceLines: StateBlock['getLines'] };
/** Types of opening tokens read by nothing here: no block is recorded on them and none holds a block. */
const UNREAD_OPENINGS = new Set(['inline', 'thead_open', 'tbody_open', 'tr_open', 'th_open', 'td_open']);
const isShared = (token: Token): boolean => (token as BlockToken).shared === true;
function lightToken(type: string, tag: string, nesting: Token['nesting'], level: number, shared: boolean): Token {
  return {
    type,
    tag,
    attrs: null,
    map: null,
    nesting,
    level,
    children: null,
    content: '',
    markup: '',
    info: '',
    meta: null,
    block: true,
    hidden: false,
    span: null,
    shared,
  } as unknown as Token;
}
function lightTokenState(State: typeof StateBlock): typeof StateBlock {
  const sharedTokens = new Map<string, Token>();
  return class LightTokenState extends State {
    constructor(src: string, md: ConstructorParameters<typeof StateBlock>[1], env: ConstructorParameters<typeof StateBlock>[2], tokens: Token[]) {
      // markdown-it's constructor finds the lines with a loop over every character, which a fresh process runs in
      // the interpreter: it gets no text here, and the lines are found below, a native search per line.
      super('', md, env, tokens);
      this.src = src;
      lineMarks(this, src);
    }

    override push(type: string, tag: string, nesting: Token['nesting']): Token {
      if (nesting < 0) this.level--;
      let token: Token;
      if (nesting < 0 || UNREAD_OPENINGS.has(type)) {
        token = sharedTokens.get(type) ?? lightToken(type, tag, nesting, this.level, true);
        sharedTokens.set(type, token);
      } else {
        token = lightToken(type, tag, nesting, this.level, false);
      }
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }

    /** The rules use getLines only for token content (paragraph, heading, code, HTML text), which nothing here
     * reads: skipped (a copy of nearly the whole document). Definitions' source lines: `sourceLines`. */
    override getLines(): string {
      return '';
    }

    sourceLines(begin: number, end: number, indent: number, keepLastLF: boolean): string {
      return super.getLines(begin, end, indent, keepLastLF);
    }
  };
}

/**
 * The line marks markdown-it's StateBlock constructor computes, the same values: per line its start, its end (the
 * "\n" or the text's end), its indentation in characters (spaces and tabs) and in columns (tabs to the next multiple
 * of 4), then the end-of-text line. As there, a last line of only spaces and tabs without a line break is no line.
 */
export function lineMarks(state: Pick<StateBlock, 'bMarks' | 'eMarks' | 'tShift' | 'sCount' | 'bsCount' | 'lineMax'>, src: string): void {
  const bMarks: number[] = [];
  const eMarks: number[] = [];
  const tShift: number[] = [];
  const sCount: number[] = [];
  const bsCount: number[] = [];
  const length = src.length;
  for (let start = 0; start < length; ) {
    let pos = start;
    let offset = 0;
    for (; pos < length; pos++) {
      const ch = src.charCodeAt(pos);
      if (ch === 0x20) offset++;
      else if (ch === 0x09) offset += 4 - (offset % 4);
      else break;
    }
    if (pos >= length) break;
    const newline = src.indexOf('\n', pos);
    const end = newline < 0 ? length : newline;
    bMarks.push(start);
    eMarks.push(end);
    tShift.push(pos - start);
    sCount.push(offset);
    bsCount.push(0);
    start = end + 1;
  }
  bMarks.push(length);
  eMarks.push(length);
  tShift.push(0);
  sCount.push(0);
  bsCount.push(0);
  state.bMarks = bMarks;
  state.eMarks = eMarks;
  state.tShift = tShift;
  state.sCount = sCount;
  state.bsCount = bsCount;
  state.lineMax = bMarks.length - 1;
}

/**
 * The characters a line's content must start with for each rule to match it: markdown-it's rules return false at
 * once on any other (fence: a backtick or tilde; hr: *, -, _; list: a bullet or a digit...). Rules not listed may
 * match any line. The table rule reads the next line first: it can match only when that line starts with |, - or :.
 * Indented code needs 4 columns past the container's indentation, and then only code, tables, link definitions
 * (which may follow another definition indented) and paragraph lines can match.
 */
const FIRST_CHARACTERS: Record<string, string> = {
  fence: '`~',
  blockquote: '>',
  hr: '*-_',
  list: '*-+0123456789',
  reference: '[',
  footnote_definition: '[',
  html_block: '<',
  heading: '#',
};
const NOT_INDENTED = new Set(['fence', 'blockquote', 'hr', 'list', 'html_block', 'heading', 'footnote_definition']);
const OTHER_CHARACTER = 128;

/** One parser for every call (rules are compiled once). Only the block parser runs. */
const md = createParser(true);
/** The same parser trying every rule on every line (no first-character dispatch): for tests. */
let everyRuleParser: InstanceType<typeof MarkdownIt> | null = null;

/** The block parser; `dispatch`: each chain of rules tries only the rules a line can start (dispatchByFirstCharacter). */
function createParser(dispatch: boolean): InstanceType<typeof MarkdownIt> {
  const parser = new MarkdownIt('default', { html: true, maxNesting: 1000 });
  parser.block.State = lightTokenState(parser.block.State);
  // micromark accepts any destination in a definition (markdown-it refuses javascript: and the like).
  parser.validateLink = () => true;
  // A definition's destination is normalised (URL parse, punycode, percent-encoding) only for the href it stores,
  // which nothing here reads; it cannot fail, so the rule matches the same lines without it.
  parser.normalizeLink = (url) => url;
  parser.block.ruler.before('reference', 'footnote_definition', footnoteDefinition, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  const interrupters = new Set(parser.block.ruler.__rules__.filter((r) => r.alt.includes('paragraph')).map((r) => r.name));
  // The wrapped rules call these, which call the wrapped rules: set once every rule is wrapped (below).
  const late: LateRules = { paragraphRule: () => false, lazyLine: () => false, tableHeaderOpensBlock: () => false };
  for (const rule of parser.block.ruler.__rules__) {
    rule.fn = wrapRule(rule.name, rule.fn, interrupters, late);
  }
  parser.block.ruler.__cache__ = null;
  // Every chain (the block rules, and those that may end a paragraph, a quote, a list...) as one rule that tries
  // only the rules the line can start (see dispatchByFirstCharacter).
  const ruler = parser.block.ruler;
  const chains = new Map<string, { name: string; fn: BlockRule }[]>([['', []]]);
  for (const rule of ruler.__rules__) {
    if (!rule.enabled) continue;
    chains.get('')!.push(rule);
    for (const alt of rule.alt) chains.set(alt, [...(chains.get(alt) ?? []), rule]);
  }
  ruler.__cache__ = Object.fromEntries([...chains].map(([name, rules]) => [name, dispatch ? [dispatchByFirstCharacter(rules)] : rules.map((r) => r.fn)]));
  const headerBlockers = parser.block.ruler.__rules__.filter((r) => ['heading', 'blockquote', 'list', 'fence', 'hr', 'html_block', 'footnote_definition', 'code'].includes(r.name)).map((r) => r.fn);
  late.tableHeaderOpensBlock = (state, line, endLine) => {
    // A header row that continues a paragraph (or the one a link definition opened) opens a block only where that
    // block could interrupt the paragraph ("2) x | y" after a text line is text, as it is in micromark): ask the
    // rules as the paragraph rule does.
    const parentType = state.parentType;
    if (continuesParagraph(state, line) || afterDefinition?.line === line) state.parentType = 'paragraph';
    try {
      return headerBlockers.some((rule) => rule(state, line, endLine, true));
    } finally {
      state.parentType = parentType;
    }
  };
  late.paragraphRule = parser.block.ruler.__rules__.find((r) => r.name === 'paragraph')!.fn;
  const paragraphEnders = ruler.__cache__['paragraph']!;
  const terminators: BlockRule = (state, line, endLine, silent) => paragraphEnders.some((rule) => rule(state, line, endLine, silent));
  late.lazyLine = (state: StateBlock, line: number, endLine: number): boolean => {
    if (line >= endLine || state.isEmpty(line) || state.sCount[line]! >= state.blkIndent) return false;
    const parentType = state.parentType;
    state.parentType = 'paragraph';
    const interrupted = terminators(state, line, endLine, true);
    state.parentType = parentType;
    return !interrupted;
  };
  return parser;
}

/**
 * One rule standing for a chain of rules (tried in order, the first that matches wins): only the rules whose
 * line can start as this one does are tried. The others would return false at once, changing nothing; in a fresh
 * process each of those calls (twelve rules for every line of a paragraph, eight more for each line it continues
 * over) ran in the interpreter.
 */
function dispatchByFirstCharacter(rules: readonly { name: string; fn: BlockRule }[]): BlockRule {
  // candidates[indented][tableOpens][first character code, or OTHER_CHARACTER]
  const candidates = [false, true].map((indented) =>
    [false, true].map((tableOpens) =>
      Array.from({ length: OTHER_CHARACTER + 1 }, (_, code) =>
        rules
          .filter((r) => {
            if (r.name === 'table') return tableOpens;
            if (r.name === 'code') return indented;
            if (indented && NOT_INDENTED.has(r.name)) return false;
            const first = FIRST_CHARACTERS[r.name];
            return first === undefined || (code < OTHER_CHARACTER && first.includes(String.fromCharCode(code)));
          })
          .map((r) => r.fn),
      ),
    ),
  );
  return (state, startLine, endLine, silent) => {
    const src = state.src;
    const code = src.charCodeAt(state.bMarks[startLine]! + state.tShift[startLine]!);
    const indented = state.sCount[startLine]! - state.blkIndent >= 4 ? 1 : 0;
    let tableOpens = 0;
    if (startLine + 2 <= endLine) {
      const next = src.charCodeAt(state.bMarks[startLine + 1]! + state.tShift[startLine + 1]!);
      if (next === 0x7c || next === 0x2d || next === 0x3a) tableOpens = 1;
    }
    const fns = candidates[indented]![tableOpens]![code < OTHER_CHARACTER ? code : OTHER_CHARACTER]!;
    for (let i = 0; i < fns.length; i++) if (fns[i]!(state, startLine, endLine, silent)) return true;
    return false;
  };
}

/**
 * A markdown-it block rule made to cut as CommonMark (micromark) does, and to record the span of what it parsed:
 * table headers that open another block, lazy lines indented past a list, the paragraph a link definition opened,
 * the quote depth for unclosed fences, setext headings under definitions.
 */
function wrapRule(name: string, inner: BlockRule, interrupters: ReadonlySet<string>, late: LateRules): BlockRule {
  return (state, startLine, endLine, silent) => {
    // A GFM table's header row is a paragraph line: a line that opens another block is no header.
    // (markdown-it's own table check first: it is cheap and pure, and rejects nearly every line.)
    if (name === 'table' && !inner(state, startLine, endLine, true)) return false;
    if (name === 'table' && startLine + 1 < endLine && (SETEXT_DASHES.test(lineText(state, startLine + 1)) || late.tableHeaderOpensBlock(state, startLine, endLine))) return false;
    if (silent) {
      // A lazy line of a list item's paragraph indented 4 or more past the list's own column is code-indented
      // where it is read (outside the item): it cannot interrupt the paragraph (markdown-it measures it from the
      // item's content column instead).
      const sCount = state.sCount[startLine]!;
      const lazy = state.parentType === 'paragraph' && sCount >= 0 && sCount < state.blkIndent;
      if (lazy && state.listIndent >= 0 && sCount - state.listIndent >= 4) return false;
      return inner(state, startLine, endLine, silent);
    }
    // The line after a link reference definition still belongs to the paragraph the definition opened (CommonMark
    // takes definitions off the start of a paragraph; markdown-it starts afresh): only what can interrupt a
    // paragraph starts a block there, and another definition may follow even when indented.
    const continuing = afterDefinition !== null && afterDefinition.line === startLine ? afterDefinition : null;
    if (continuing && name !== 'paragraph' && name !== 'lheading' && name !== 'reference') {
      if (!interrupters.has(name)) return false;
      const parentType = state.parentType;
      state.parentType = 'paragraph';
      const interrupts = inner(state, startLine, endLine, true);
      state.parentType = parentType;
      if (!interrupts) return false;
    }
    const first = state.tokens.length;
    const start = state.bMarks[startLine]! + state.tShift[startLine]!;
    // The container's indentation (a list item's content column) of the first line, for indented code.
    const blkIndent = state.blkIndent;
    const sCount = state.sCount[startLine]!;
    if (continuing && name === 'reference') state.sCount[startLine] = Math.min(sCount, blkIndent);
    if (name === 'blockquote') quoteDepth++;
    let ok: boolean;
    try {
      ok = inner(state, startLine, endLine, silent);
    } finally {
      if (name === 'blockquote') quoteDepth--;
      state.sCount[startLine] = sCount;
    }
    if (ok) {
      record(name, state, first, start, startLine, blkIndent);
      afterDefinition = name === 'reference' ? { line: state.line, runStart: continuing?.runStart ?? start } : null;
      // A lazy line after a definition continues its paragraph (markdown-it would end the container there).
      if (name === 'reference' && late.lazyLine(state, state.line, endLine)) late.paragraphRule(state, state.line, endLine, false);
      // A setext heading under definitions spans them in mdast (its title is the text after them).
      const heading = state.tokens[first];
      const block = heading && spanOf(heading);
      if (continuing && name === 'lheading' && block) {
        block.titleStart = block.start;
        block.start = continuing.runStart;
      }
    }
    return ok;
  };
}

/** Whether `line` follows a paragraph the table rule cut short (the paragraph ended right above it). */
function continuesParagraph(state: StateBlock, line: number): boolean {
  const tokens = state.tokens;
  const open = tokens[tokens.length - 3];
  return tokens[tokens.length - 1]?.type === 'paragraph_close' && open?.type === 'paragraph_open' && open.map?.[1] === line;
}

function lastNonBlankLine(state: StateBlock, from: number, to: number): number {
  let line = to - 1;
  while (line > from && state.bMarks[line]! + state.tShift[line]! >= state.eMarks[line]!) line--;
  return line;
}

function record(name: string, state: StateBlock, first: number, start: number, startLine: number, blkIndent: number): void {
  const token = state.tokens[first];
  if (!token) return;
  const endLine = state.line;
  const last = lastNonBlankLine(state, startLine, endLine);
  const block: MarkdownBlock = { type: 'paragraph', start, end: state.eMarks[last]!, level: token.level, previous: -1 };
  // A fence, or an HTML block that ends only at a closing pattern, left open runs to the end of its container,
  // blank lines included; at the end of the document (outside quotes) also over the final line break.
  if ((name === 'fence' || name === 'html_block') && !closed(name, state, startLine, endLine)) {
    if (endLine >= state.bMarks.length - 1 && quoteDepth === 0) block.end = state.src.length;
    // In a quote it stops at the quote's last line; in a list item or footnote it stops at the end of its last line,
    // or takes the line break too when the next line opens a container.
    else if (CONTAINER_START.test(lineText(state, endLine)) && !THEMATIC_BREAK.test(lineText(state, endLine))) block.end = state.bMarks[endLine]!;
    else block.end = state.eMarks[endLine - 1]!;
  }
  switch (name) {
    case 'paragraph':
      break;
    case 'heading':
    case 'lheading':
      block.type = 'heading';
      block.depth = Number(token.tag.slice(1));
      block.setext = name === 'lheading';
      break;
    case 'blockquote':
      block.type = 'blockquote';
      block.end = Math.max(block.end, innerEnd(state, first));
      break;
    case 'list':
      block.type = 'list';
      block.end = Math.max(block.end, innerEnd(state, first));
      break;
    case 'code': {
      block.type = 'code';
      block.fence = false;
      block.start = indentationStart(state, startLine, blkIndent);
      block.end = state.eMarks[lastWideLine(state, endLine, last, blkIndent)]!;
      break;
    }
    case 'fence':
      block.type = 'code';
      block.fence = true;
      break;
    case 'html_block':
      block.type = 'html';
      block.start = indentationStart(state, startLine, blkIndent);
      break;
    case 'hr':
      block.type = 'thematicBreak';
      break;
    case 'table':
      block.type = 'table';
      block.rows = tableRows(state, token.map![0], endLine);
      break;
    case 'reference':
      block.type = 'definition';
      block.source = (state as LightState).sourceLines(startLine, endLine, state.blkIndent, false);
      break;
    case 'footnote_definition':
      block.type = 'footnoteDefinition';
      block.end = Math.max(block.end, innerEnd(state, first));
      block.source = (token.meta as { label: string }).label;
      break;
    default:
      return;
  }
  (token as BlockToken).span = block;
}

/** The furthest end of the blocks inside a container (an open fence in it may run past its last non-blank line). */
function innerEnd(state: StateBlock, first: number): number {
  let end = 0;
  for (let i = first + 1; i < state.tokens.length; i++) {
    const inner = spanOf(state.tokens[i]!);
    if (inner && inner.end > end) end = inner.end;
  }
  return end;
}

/** HTML blocks of CommonMark kinds 1–5 end at a closing pattern (the others at a blank line). */
const HTML_CLOSERS: [RegExp, RegExp][] = [
  [/^<(script|pre|style|textarea)(?=(\s|>|$))/i, /<\/(script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

/** A delimiter row of dashes only is a setext underline in micromark, not a one-column table. */
const SETEXT_DASHES = /^-+[ \t]*$/;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const CONTAINER_START = /^(>|[*+-](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|\[\^[^\]\s]+\]:)/;

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);
}

/** Whether a fence or an HTML block found its closing line (else it ran to its container's end). */
function closed(name: string, state: StateBlock, startLine: number, endLine: number): boolean {
  const first = lineText(state, startLine);
  const lastLine = lineText(state, endLine - 1);
  if (name === 'fence') {
    if (endLine - 1 === startLine) return false;
    const marker = first[0]!;
    const opening = first.length - first.replace(new RegExp(`^\\${marker}+`), '').length;
    const closing = new RegExp(`^\\${marker}{${opening},}[ \t]*$`);
    return state.sCount[endLine - 1]! - state.blkIndent < 4 && closing.test(lastLine);
  }
  const kind = HTML_CLOSERS.find(([open]) => open.test(first));
  return !kind || kind[1].test(lastLine);
}

/**
 * Where indented code and HTML blocks start in mdast: at the container's content column, their own indentation
 * included. Found backwards from the first non-blank character (a list item's first line starts at its marker).
 */
function indentationStart(state: StateBlock, line: number, blkIndent: number): number {
  const lineStart = state.bMarks[line]!;
  const first = lineStart + state.tShift[line]!;
  if (/^[ \t]*$/.test(state.src.slice(lineStart, first))) {
    // Forwards from the container's line start to its content column (tabs advance to a multiple of 4).
    let pos = lineStart;
    let column = 0;
    // bsCount: the columns a quote marker took before this line's start (where tab stops fall).
    const shift = state.bsCount[line]!;
    while (pos < first && column < blkIndent) {
      column += state.src.charCodeAt(pos) === 0x09 ? 4 - ((column + shift) % 4) : 1;
      pos++;
    }
    return pos;
  }
  // A list item's first line starts at its marker: back from the first non-blank character over spaces.
  let pos = first;
  let columns = state.sCount[line]! - blkIndent;
  while (columns > 0 && pos > lineStart && state.src.charCodeAt(pos - 1) === 0x20) {
    pos--;
    columns--;
  }
  return pos;
}

/** Indented code keeps the whitespace-only lines after it that are indented 4 or more (micromark's code values). */
function lastWideLine(state: StateBlock, endLine: number, last: number, blkIndent: number): number {
  let wide = last;
  for (let line = last + 1; line < endLine || (line < state.lineMax && state.isEmpty(line)); line++) {
    if (!state.isEmpty(line)) break;
    if (state.sCount[line]! - blkIndent >= 4) wide = line;
  }
  return wide;
}

function tableRows(state: StateBlock, startLine: number, endLine: number): TableRowSpan[] {
  const rows: TableRowSpan[] = [];
  for (let line = startLine; line < endLine; line++) {
    if (line === startLine + 1) continue; // the delimiter row is no row
    const start = state.bMarks[line]! + state.tShift[line]!;
    const end = state.eMarks[line]!;
    rows.push({ start, end, cells: cellSpans(state.src, start, end) });
  }
  return rows;
}

/** Cells at unescaped pipes, as micromark's GFM table finds them. */
function cellSpans(src: string, start: number, end: number): Range[] {
  // The row's content ends before trailing whitespace; a pipe there closes the last cell.
  let contentEnd = end;
  while (contentEnd > start && (src.charCodeAt(contentEnd - 1) === 0x20 || src.charCodeAt(contentEnd - 1) === 0x09)) contentEnd--;
  const pipes: number[] = [];
  for (let i = start; i < contentEnd; i++) {
    const ch = src.charCodeAt(i);
    if (ch === 0x5c) i++;
    else if (ch === 0x7c) pipes.push(i);
  }
  const cells: Range[] = [];
  let from = start;
  let k = pipes[0] === start ? 1 : 0;
  for (; k < pipes.length; k++) {
    const pipe = pipes[k]!;
    if (pipe === contentEnd - 1) break; // the closing pipe belongs to the last cell
    cells.push({ start: from, end: pipe });
    from = pipe;
  }
  cells.push({ start: from, end });
  return cells;
}

/**
 * GFM footnote definitions (`[^label]: text`, continued by lines indented 4 spaces), as micromark-extension-gfm-
 * footnote reads them: a label of at most 999 characters without whitespace or `[`, `\` escaping `[`, `\`, `]`.
 * Without this rule markdown-it would read `[^1]: note` as a link reference definition.
 */
function footnoteDefinition(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const src = state.src;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const max = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (src.charCodeAt(start) !== 0x5b || src.charCodeAt(start + 1) !== 0x5e) return false;
  let pos = start + 2;
  let size = 0;
  let data = false;
  for (;;) {
    if (pos >= max) return false;
    const ch = src.charCodeAt(pos);
    if (ch === 0x5d) {
      if (!data) return false;
      break;
    }
    if (ch === 0x5b || ch === 0x20 || ch === 0x09 || size > 999) return false;
    data = true;
    size++;
    pos++;
    if (ch === 0x5c) {
      const next = src.charCodeAt(pos);
      if (next === 0x5b || next === 0x5c || next === 0x5d) {
        pos++;
        size++;
      }
    }
  }
  const label = src.slice(start + 2, pos);
  if (src.charCodeAt(pos + 1) !== 0x3a) return false;
  if (silent) return true;
  const afterColon = pos + 2;
  // The content starts after the whitespace following the colon; continuation lines are indented 4.
  let contentStart = afterColon;
  while (contentStart < max && (src.charCodeAt(contentStart) === 0x20 || src.charCodeAt(contentStart) === 0x09)) contentStart++;
  const oldBMark = state.bMarks[startLine]!;
  const oldTShift = state.tShift[startLine]!;
  const oldSCount = state.sCount[startLine]!;
  const oldBsCount = state.bsCount[startLine]!;
  const oldIndent = state.blkIndent;
  const oldParent = state.parentType;
  const open = state.push('footnote_open', '', 1);
  open.meta = { label };
  open.map = [startLine, 0];
  state.blkIndent += 4;
  state.bMarks[startLine] = afterColon;
  state.tShift[startLine] = contentStart - afterColon;
  state.sCount[startLine] = state.blkIndent;
  state.bsCount[startLine] = 0;
  state.parentType = 'footnote' as StateBlock['parentType'];
  state.md.block.tokenize(state, startLine, endLine);
  state.parentType = oldParent;
  state.blkIndent = oldIndent;
  state.bMarks[startLine] = oldBMark;
  state.tShift[startLine] = oldTShift;
  state.sCount[startLine] = oldSCount;
  state.bsCount[startLine] = oldBsCount;
  open.map[1] = state.line;
  state.push('footnote_close', '', -1);
  return true;
}

/** Line breaks normalised to "\n" for markdown-it, with a map back to the original offsets. */
function normalise(text: string): { src: string; original: (offset: number) => number } {
  if (!text.includes('\r')) return { src: text, original: (o) => o };
  // Offsets (in the normalised string) of the "\n" of each "\r\n", whose "\r" was dropped.
  const dropped: number[] = [];
  let src = '';
  let from = 0;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    src += text.slice(from, i);
    if (text.charCodeAt(i + 1) === 0x0a) {
      dropped.push(src.length);
      from = i + 1;
    } else {
      src += '\n';
      from = i + 1;
    }
  }
  src += text.slice(from);
  const original = (offset: number): number => {
    // Dropped "\r"s before `offset`: those whose "\n" sits before it.
    return offset + lowerBound(dropped, offset);
  };
  return { src, original };
}

/** Every block of the document, in document order (a container before its children). `everyRule` (for tests):
 * try every rule on every line, as markdown-it does, instead of only those the line can start. */
export function parseMarkdownBlocks(text: string, options: { everyRule?: boolean } = {}): MarkdownBlock[] {
  const parser = options.everyRule ? (everyRuleParser ??= createParser(false)) : md;
  const { src, original } = normalise(text);
  const tokens: Token[] = [];
  afterDefinition = null;
  parser.block.parse(src, parser, {}, tokens);
  afterDefinition = null;
  const blocks: MarkdownBlock[] = [];
  // Per nesting level, the index of the last block seen with the current parent (for `previous`).
  const lastAt: number[] = [-1];
  const mapped = src !== text;
  for (const token of tokens) {
    if (token.nesting === -1 || isShared(token)) continue;
    const block = spanOf(token);
    if (block) {
      if (mapped) {
        block.start = original(block.start);
        block.end = original(block.end);
        if (block.titleStart !== undefined) block.titleStart = original(block.titleStart);
        for (const row of block.rows ?? []) {
          row.start = original(row.start);
          row.end = original(row.end);
          for (const cell of row.cells) {
            cell.start = original(cell.start);
            cell.end = original(cell.end);
          }
        }
      }
      block.previous = lastAt[token.level] ?? -1;
      lastAt[token.level] = blocks.length;
      blocks.push(block);
    }
    // Entering a container (or a list item): its children start a new run of siblings.
    if (token.nesting === 1) lastAt[token.level + 1] = -1;
  }
  return blocks;
}
