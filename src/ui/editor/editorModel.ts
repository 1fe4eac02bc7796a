/**
 * What the chunk editor computes, as pure functions: which view a document gets, which lines and chunks to paint,
 * what the hover says, what a paste turns the document into, and what has to change in the editor between two
 * states of the store. ChunkEditor.tsx calls Monaco with their output and holds no other logic. Nothing here
 * imports the Monaco API (types only), so it all runs in Node tests.
 */
import type { editor } from 'monaco-editor/editor/editor.api';
import type { LabMark } from '../../state/labMarks';
import type { PaintableResult, TokenCounts } from '../../state/resultsSlice';
import { breadcrumbText, chunkExtras, chunksAt, pagesLabel, tokensFor } from '../../state/selectors';
import type { AppState } from '../../state/store';
import { formatNumber } from '../panels/format';
import { chunkWindow } from './decorations';
export { chunkAtOffset, documentAfterPaste, replacesWholeDocument } from './pasteModel';
import { unitDescriptor } from '../../core/units';

/**
 * Above this size the editor neither soft-wraps nor highlights syntax: wrapping and tokenizing a 10 MiB document
 * cost seconds of main-thread work.
 */
export const LARGE_DOCUMENT = 1_000_000;
/** Up to this many chunks every decoration is set at once; above it, a window of lines around the viewport. */
export const PAINT_ALL_LIMIT = 500;
/** Lines painted above and below the viewport when painting a window. */
export const WINDOW_MARGIN_LINES = 400;
/** A large document enters Monaco in pieces of about this many characters, one per task, so the page stays live. */
export const LOAD_PIECE = 200_000;
/** The first piece of a large document (Monaco's first edit of a new text also flushes its views: cheaper small). */
export const FIRST_LOAD_PIECE = 50_000;
/**
 * The shortest piece appended after the first. Monaco's piece tree adds a text of up to 65,535 characters to one
 * growing change buffer (its line starts copied and its string flattened again on the next read), so each short
 * append costs time in proportion to all appended before it: a 10 MiB load in 10k pieces made every piece a long
 * task. A longer text gets buffers of its own.
 */
export const MIN_APPEND_PIECE = 65_536;
/** Each piece is sized so that Monaco's edit takes about this long: a task over 50 ms is a long task, and a piece
 * now and then costs four or five times the last one (a major collection lands in it, or the chunk worker and the
 * browser hold both cores); at 15 ms such pieces were long tasks. */
export const LOAD_SLICE_MS = 10;
const MAX_LOAD_PIECE = LOAD_PIECE;

/**
 * A large document's pieces wait (the editor already emptied) until the chunk worker has chunked it: on two cores the
 * worker's job and V8's collector threads beside the pieces left the main thread a third of a core, and 8-20 ms
 * pieces took 30-57 ms. The wait is at most about half the load's own time (a millisecond per this many characters;
 * the load runs near twice that), and never over LOAD_WAITS_FOR_CHUNKS_MS: a strategy slower than that (markdown,
 * tokens) would otherwise add the wait to its paint, so it gets the load beside it, as before.
 */
export const LOAD_WAIT_CHARS_PER_MS = 10_000;
export const LOAD_WAITS_FOR_CHUNKS_MS = 1000;

/** How long the pieces of a document of `chars` characters wait for its chunks at most. */
export function loadWaitMs(chars: number): number {
  return Math.min(LOAD_WAITS_FOR_CHUNKS_MS, chars / LOAD_WAIT_CHARS_PER_MS);
}

/** What the wait for a large document's chunks reads from the store. */
export interface ChunksState {
  result: { text: string } | null;
  error: string | null;
}

/**
 * Whether a large document's pieces may start: its chunks have come (the result is for this very text), its job
 * failed (an error other than the one shown when the load began), or the wait (loadWaitMs) is over.
 */
export function loadMayStart(state: ChunksState, text: string, errorBefore: string | null, waitedMs: number): boolean {
  return state.result?.text === text || (state.error !== null && state.error !== errorBefore) || waitedMs >= loadWaitMs(text.length);
}

/**
 * The next piece's size from the last one's: Monaco's cost per character varies with the machine, the line lengths
 * and the document already loaded, so a fixed size is a long task on a slow machine and needless pieces on a fast one.
 */
export function nextPieceSize(chars: number, ms: number): number {
  if (!(ms > 0)) return MAX_LOAD_PIECE;
  // Grow at most 1.25x a step (one quick piece says little), shrink at once.
  const sized = Math.min(chars * 1.25, (chars * LOAD_SLICE_MS) / ms);
  return Math.round(Math.max(MIN_APPEND_PIECE, Math.min(MAX_LOAD_PIECE, sized)));
}

/**
 * End of the piece of `text` that starts at `from`, about `piece` long and at least `min` (unless the text ends
 * sooner): just after the last line break in that reach, else at the limit; never between \r\n or a surrogate pair.
 */
export function pieceEnd(text: string, from: number, piece = LOAD_PIECE, min = 0): number {
  const limit = from + piece;
  if (limit >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', limit);
  if (nl >= from + min && nl > from) return nl + 1;
  // No line break in reach: at the limit, or one further where that would split \r\n or a surrogate pair.
  const before = text.charCodeAt(limit - 1);
  const splitsPair = (before === 13 && text.charCodeAt(limit) === 10) || (before >= 0xd800 && before <= 0xdbff);
  return splitsPair ? limit + 1 : limit;
}

/** Monaco language id for a file or sample name. */
export function languageForName(name: string | null): string {
  if (!name) return 'plaintext';
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const byExt: Record<string, string> = {
    md: 'markdown',
    markdown: 'markdown',
    // DOCX is converted to markdown on import.
    docx: 'markdown',
    c: 'c',
    h: 'c',
    cpp: 'cpp',
    hpp: 'cpp',
    ts: 'typescript',
    tsx: 'typescript',
    js: 'javascript',
    mjs: 'javascript',
    jsx: 'javascript',
    py: 'python',
    html: 'html',
    htm: 'html',
    go: 'go',
    rs: 'rust',
    java: 'java',
  };
  return byExt[ext] ?? 'plaintext';
}

export interface DocumentView {
  language: string;
  wordWrap: 'on' | 'off';
  /** Indentation guides (bracket-pair guides are always off). */
  indentationGuides: boolean;
}

/** Wrapping, highlighting and guides follow the document's size: a large document gets the cheap view. */
export function documentView(length: number, name: string | null): DocumentView {
  const large = length > LARGE_DOCUMENT;
  return { language: large ? 'plaintext' : languageForName(name), wordWrap: large ? 'off' : 'on', indentationGuides: !large };
}

/** Everything the editor is created with, for a document of `length` characters. */
export function editorOptions(length: number): editor.IStandaloneEditorConstructionOptions {
  const view = documentView(length, null);
  return {
    theme: 'chunkscope',
    automaticLayout: true,
    minimap: { enabled: false },
    wordWrap: view.wordWrap,
    fontSize: 13,
    lineHeight: 21,
    fontFamily: "'JetBrains Mono', 'SFMono-Regular', ui-monospace, Menlo, Consolas, monospace",
    scrollBeyondLastLine: false,
    glyphMargin: false,
    folding: false,
    lineNumbersMinChars: 4,
    lineDecorationsWidth: 10,
    padding: { top: 12, bottom: 12 },
    renderLineHighlight: 'none',
    occurrencesHighlight: 'off',
    selectionHighlight: false,
    unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false },
    hover: { delay: 250, sticky: true },
    ariaLabel: 'Document text',
    // Monaco's EditContext input copies the selected lines whole into the browser's EditContext on every render: a
    // select-all over 10 MiB was a 200-250 ms task. Its textarea input takes a bounded page around the selection.
    editContext: false,
    // Tab moves focus out of the editor (keyboard users reach the list and controls); documents are pasted or
    // opened more than typed.
    tabFocusMode: true,
    scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
    overviewRulerBorder: false,
    overviewRulerLanes: 0,
    hideCursorInOverviewRuler: true,
    stickyScroll: { enabled: false },
    // Bracket-pair colouring parses the whole document on render (most of a second at 10 MiB); chunk tints are
    // the colour that matters here. Bracket matching uses the same parser.
    bracketPairColorization: { enabled: false },
    matchBrackets: 'never',
    guides: { bracketPairs: false, indentation: view.indentationGuides },
  };
}

/** A paste over this size replaces the document in one go instead of going through Monaco's undoable edit. */
export function isLargePaste(pasted: string): boolean {
  return pasted.length > LARGE_DOCUMENT;
}

/** The part of Monaco's text model that choosing lines to paint needs. */
export interface LineModel {
  getLineCount(): number;
  getOffsetAt(position: { lineNumber: number; column: number }): number;
  getLineMaxColumn(lineNumber: number): number;
}

/** First and last line of the viewport (Monaco's visible ranges), or nothing before the first layout. */
export interface VisibleLines {
  first?: number;
  last?: number;
}

export function visibleLines(ranges: readonly { startLineNumber: number; endLineNumber: number }[]): VisibleLines {
  return { first: ranges[0]?.startLineNumber, last: ranges[ranges.length - 1]?.endLineNumber };
}

export interface PaintPlan {
  /** The chunks to decorate: [from, to). */
  from: number;
  to: number;
  /** The lines painted, or null when every chunk is. */
  lines: { first: number; last: number } | null;
  /** Set when even the visible lines hold more than WINDOW_CHUNK_LIMIT chunks: the editor draws one summary band
   * over them (how many chunks, where) instead of every decoration; from === to then. */
  summary?: { chunks: number; start: number; end: number };
}

/**
 * Most chunks decorated at once. Each chunk costs Monaco a background, a boundary label and an overlap mark, and
 * past a few thousand on screen a paint takes the main thread for seconds (a chunk per character of 1 MiB, the token
 * strategy at size 1 on one long line). Above it the window shrinks to the visible lines; above it there too, a
 * summary band stands in for the decorations (the chunk list, virtualized, still shows every chunk).
 */
export const WINDOW_CHUNK_LIMIT = 5_000;

/**
 * Which chunks to decorate: all of them up to PAINT_ALL_LIMIT; above it, those that touch the viewport's lines
 * and WINDOW_MARGIN_LINES on either side, so the cost does not grow with the document. Before the first layout the
 * viewport is taken to be the first 60 lines. `viewport` is asked only when a window is painted.
 */
export function paintPlan(model: LineModel, starts: Int32Array, ends: Int32Array, viewport: () => VisibleLines): PaintPlan {
  const n = starts.length;
  if (n <= PAINT_ALL_LIMIT) return { from: 0, to: n, lines: null };
  const visible = viewport();
  const lineCount = model.getLineCount();
  const firstVisible = visible.first ?? 1;
  const lastVisible = visible.last ?? Math.min(lineCount, 60);
  const around = (margin: number) => {
    const first = Math.max(1, firstVisible - margin);
    const last = Math.min(lineCount, lastVisible + margin);
    const fromOffset = model.getOffsetAt({ lineNumber: first, column: 1 });
    const toOffset = model.getOffsetAt({ lineNumber: last, column: model.getLineMaxColumn(last) });
    return { ...chunkWindow(starts, ends, fromOffset, toOffset + 1), lines: { first, last }, fromOffset, toOffset };
  };
  let window = around(WINDOW_MARGIN_LINES);
  if (window.to - window.from > WINDOW_CHUNK_LIMIT) window = around(0);
  if (window.to - window.from > WINDOW_CHUNK_LIMIT) {
    const summary = { chunks: window.to - window.from, start: window.fromOffset, end: window.toOffset };
    return { from: window.from, to: window.from, lines: window.lines, summary };
  }
  return { from: window.from, to: window.to, lines: window.lines };
}

/**
 * End of the run of chunks from `from` (before `to`) that end within the first `loaded` characters: what a large
 * document still loading can show (its chunks' offsets past `loaded` have no place in the editor yet).
 */
export function loadedEnd(ends: Int32Array, from: number, to: number, loaded: number): number {
  let end = from;
  while (end < to && ends[end]! <= loaded) end++;
  return end;
}

/** Scrolling within half a margin of a painted window's edge (where the document goes on) paints the next one. */
export function needsRepaint(painted: { first: number; last: number }, firstVisible: number, lastVisible: number, lineCount: number): boolean {
  const slack = WINDOW_MARGIN_LINES / 2;
  const nearTop = painted.first > 1 && firstVisible - slack < painted.first;
  const nearBottom = painted.last < lineCount && lastVisible + slack > painted.last;
  return nearTop || nearBottom;
}

/** Heading titles are document text: shown literally in the (markdown) hover. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

/**
 * Document text inside a markdown hover, shown as the text it is: a code span, inside which markdown parses
 * nothing (no emphasis, no [link](...), no HTML, and no bare URL turned into a live link as Monaco's renderer does
 * with plain or escaped text). The fence is longer than any run of backticks in the text; the spaces inside it are
 * the ones CommonMark strips. Line breaks become spaces (a hover line is one line).
 */
export function plainInMarkdown(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  if (line.trim() === '') return '';
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${line} ${fence}`;
}

/** How the hover names the result's unit. */
export function unitName(unit: string): string {
  return unitDescriptor(unit)?.longLabel ?? `tokens (${unit})`;
}

/** Embedder token counts of a semantic result (selectEmbedderTokens), or null. */
export type EmbedderTokens = { counts: Int32Array; truncatedAt: Int32Array } | null;

/**
 * The hover of chunk i, as markdown lines: index and content type, section, offsets, size in the unit (and in
 * chars, and in tokens when counted), overlaps with both neighbours, pages, parent unit, sentence window and the
 * embedding model's token count. Document text (heading titles) is a code span (plainInMarkdown): never markup.
 */
/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (English ordinals). */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${formatNumber(n)}${suffix}`;
}

export function chunkHoverLines(result: PaintableResult, tokens: TokenCounts | null, embedderTokens: EmbedderTokens, i: number): string[] {
  const fmt = (n: number) => formatNumber(n);
  const counted = tokensFor(result, tokens);
  const start = result.starts[i]!;
  const end = result.ends[i]!;
  const unit = unitName(result.unit);
  const size = [`${fmt(result.sizes[i]!)} ${unit}`];
  if (!unitDescriptor(result.unit)?.isLength) size.push(`${fmt(end - start)} chars`);
  if (counted && counted.encoding !== result.unit) size.push(`${fmt(counted.counts[i]!)} tokens (${counted.encoding})`);
  const overlap: string[] = [];
  if (i > 0) overlap.push(`${fmt(result.overlaps[i - 1]!)} chars with #${i - 1}`);
  if (i < result.starts.length - 1) overlap.push(`${fmt(result.overlaps[i]!)} chars with #${i + 1}`);
  const extras = result.structure ? chunkExtras(result, i) : null;
  if (extras && extras.prefixSize > 0) size[0] += ` (${fmt(extras.prefixSize)} injected)`;
  const lines = [
    // Chunks are numbered from 0 everywhere (the labels, the list, exports' `index`): "#2" is the 3rd of n.
    `**Chunk #${i}** · ${ordinal(i + 1)} of ${fmt(result.starts.length)}${extras && extras.contentType !== 'text' ? ` · ${extras.contentType}` : ''}${result.oversize[i] ? ' — over the size limit' : ''}`,
  ];
  if (extras?.headingPath?.length) lines.push(`Section ${plainInMarkdown(breadcrumbText(extras.headingPath))}`);
  lines.push(`Offsets ${fmt(start)}–${fmt(end)}`, `Size ${size.join(' · ')}`, `Overlap ${overlap.length ? overlap.join(' · ') : 'none'}`);
  if (extras?.pages) lines.push(`Pages ${pagesLabel(extras.pages).slice(3)}`);
  const parents = result.structure?.parents;
  if (extras && parents && extras.parent >= 0) {
    const p = extras.parent;
    lines.push(`Parent P${p} (level ${parents.levels[p]}) · offsets ${fmt(parents.starts[p]!)}–${fmt(parents.ends[p]!)} · ${fmt(parents.sizes[p]!)} ${unit}`);
  }
  if (extras?.window) lines.push(`Window ${fmt(extras.window.start)}–${fmt(extras.window.end)} (${fmt(extras.window.end - extras.window.start)} chars)`);
  const sem = result.semantic;
  if (sem && embedderTokens) {
    const model = sem.embedder.label.split(' (')[0];
    const max = sem.embedder.maxTokens;
    const over = embedderTokens.truncatedAt[i]! >= 0;
    lines.push(
      `Embedder ${fmt(embedderTokens.counts[i]!)} tokens (${model})${Number.isFinite(max) ? ` of ${fmt(max)}` : ''}${over ? ' — **truncated**: the model never reads the shaded end' : ''}`,
    );
  }
  return lines;
}

export interface ChunkHover {
  /** One markdown block per chunk at the offset (hard line breaks between lines). */
  contents: string[];
  /** Offsets the hover belongs to: from the first chunk's start to the last one's end. */
  start: number;
  end: number;
}

/** The hover at an offset: every chunk that holds it (overlaps hold two), or null outside every chunk. */
export function chunkHover(result: PaintableResult, tokens: TokenCounts | null, embedderTokens: EmbedderTokens, offset: number): ChunkHover | null {
  const found = chunksAt(result.starts, result.ends, offset);
  if (found.length === 0) return null;
  return {
    contents: found.map((i) => chunkHoverLines(result, tokens, embedderTokens, i).join('  \n')),
    start: result.starts[found[0]!]!,
    end: result.ends[found[found.length - 1]!]!,
  };
}

/** What the editor reads from the store. */
export type EditorState = Pick<
  AppState,
  'text' | 'docVersion' | 'docName' | 'docOrigin' | 'result' | 'selectedIndex' | 'selectionSource' | 'hoveredGap' | 'embedderTokens' | 'revealGap'
>;

/** One thing the editor does in answer to a store change. */
export type EditorStep =
  /** Put a document that did not come from the editor into it. */
  | { kind: 'load'; text: string; name: string | null }
  /** Paint the new result's chunks (and truncated ends), then redraw the selection without moving. */
  | { kind: 'paint' }
  /** Redraw the selected chunk; `reveal` scrolls to it (a selection made in the list). */
  | { kind: 'selection'; reveal: boolean }
  /** Underline the sentence pair of a gap of the curve (null: none); `reveal` scrolls to it (a click). */
  | { kind: 'pair'; gap: number | null; reveal: boolean }
  /** Shade what the embedding model never reads (skipped while a document is still loading). */
  | { kind: 'truncated' }
  /** A result without a curve: no sentence pair stays underlined. */
  | { kind: 'clearPair' };

/** What changes in the editor between two states of the store, in the order it is done. */
export function editorSteps(next: EditorState, prev: EditorState): EditorStep[] {
  const steps: EditorStep[] = [];
  if (next.docVersion !== prev.docVersion && next.docOrigin === 'external') steps.push({ kind: 'load', text: next.text, name: next.docName });
  if (next.result !== prev.result) steps.push({ kind: 'paint' });
  if (next.selectedIndex !== prev.selectedIndex) steps.push({ kind: 'selection', reveal: next.selectionSource === 'list' });
  if (next.hoveredGap !== prev.hoveredGap) steps.push({ kind: 'pair', gap: next.hoveredGap, reveal: false });
  if (next.embedderTokens !== prev.embedderTokens && next.result) steps.push({ kind: 'truncated' });
  if (next.revealGap !== prev.revealGap && next.revealGap) steps.push({ kind: 'pair', gap: next.revealGap.gap, reveal: true });
  if (next.result !== prev.result && !next.result?.semantic) steps.push({ kind: 'clearPair' });
  return steps;
}

/**
 * A large document's way into Monaco, one task per action (what useChunkedLoad does; pure, so the pieces can be
 * tested): first the previous text goes (`empty`), then the options change (`prepare`, then the wait for the
 * chunks), then the pieces: the first FIRST_LOAD_PIECE long and set as the text, every later one appended, at least
 * MIN_APPEND_PIECE long and sized from the last one's time; `finish` once the whole text is in.
 */
export type LoadAction = { kind: 'empty' } | { kind: 'prepare' } | { kind: 'piece'; from: number; to: number } | { kind: 'finish' };

export class PieceLoad {
  private stage: 'empty' | 'prepare' | 'pieces' | 'done' = 'empty';
  private at = 0;
  private piece = FIRST_LOAD_PIECE;

  constructor(private readonly text: string) {}

  /** The next action (and moves past it). */
  next(): LoadAction {
    if (this.stage === 'empty') {
      this.stage = 'prepare';
      return { kind: 'empty' };
    }
    if (this.stage === 'prepare') {
      this.stage = 'pieces';
      return { kind: 'prepare' };
    }
    if (this.stage === 'done') return { kind: 'finish' };
    const from = this.at;
    const to = pieceEnd(this.text, from, this.piece, from === 0 ? 0 : MIN_APPEND_PIECE);
    this.at = to;
    if (to >= this.text.length) this.stage = 'done';
    return { kind: 'piece', from, to };
  }

  /** The piece just applied took `ms`: size the next one from it. */
  pieceTook(chars: number, ms: number): void {
    this.piece = nextPieceSize(chars, ms);
  }

  /** Fraction of the text in Monaco. */
  get fraction(): number {
    return this.at / this.text.length;
  }
}

/** The store fields the lab's marks are drawn from: a change of any of them redraws the marks. */
export type LabMarksState = Pick<AppState, 'probe' | 'labTab' | 'labOpen' | 'activeQuestion' | 'run' | 'comparison' | 'golden'>;

export function labMarksChanged(next: LabMarksState, prev: LabMarksState): boolean {
  return (
    next.probe !== prev.probe ||
    next.labTab !== prev.labTab ||
    next.labOpen !== prev.labOpen ||
    next.activeQuestion !== prev.activeQuestion ||
    next.run !== prev.run ||
    next.comparison !== prev.comparison ||
    next.golden !== prev.golden
  );
}

/** Whether two sets of lab marks draw the same (the same spans, kinds and badges, in order). */
export function sameMarks(a: readonly LabMark[], b: readonly LabMark[]): boolean {
  return a.length === b.length && a.every((m, i) => m.start === b[i]!.start && m.end === b[i]!.end && m.kind === b[i]!.kind && m.badge === b[i]!.badge);
}

/**
 * What the lab's marks are about: the probe's query, or the active golden question ('' on other tabs). Marks are
 * revealed once per focus (a new query, a clicked question), not on every redraw (a slider move).
 */
export function labFocus(s: Pick<AppState, 'labTab' | 'probe' | 'activeQuestion'>): string {
  if (s.labTab === 'probe') return `probe\u0000${s.probe?.query ?? ''}`;
  if (s.labTab === 'golden') return `golden\u0000${s.activeQuestion ?? ''}`;
  return '';
}

/** The mark to scroll to when `marks` are drawn for `focus` (null: none; `revealedFor`: the focus last revealed). */
export function markToReveal(marks: readonly LabMark[], focus: string, revealedFor: string): LabMark | null {
  if (focus === '' || focus === revealedFor || !marks.some((m) => m.kind === 'hit' || m.kind === 'answer')) return null;
  return marks.find((m) => m.kind === 'answer') ?? marks[0]!;
}

/**
 * After a change of the editor's text: whether it made a new document (a paste over the whole text, or the text
 * emptied by hand while it had a name: no longer the file or sample it was).
 */
export function editIsNewDocument(text: string, pasteIsNewDocument: boolean, docName: string | null): boolean {
  return pasteIsNewDocument || (text.trim() === '' && docName !== null);
}

/**
 * Monaco keeps a leading U+FEFF (a byte-order mark) out of its text, as a flag, so every offset it gives would be one
 * less than the store's, where the mark stays at offset 0 (docs/input.md). The editor is given U+2060 WORD JOINER in
 * its place, zero-width too, and hands U+FEFF back: offsets stay the same on both sides.
 */
const BOM = 0xfeff;
const BOM_STAND_IN = 0x2060;

/** The text as Monaco is given it. */
export function toEditorText(text: string): string {
  return text.charCodeAt(0) === BOM ? String.fromCharCode(BOM_STAND_IN) + text.slice(1) : text;
}

/** Monaco's text as the store keeps it; `storeHasBom`: the document the editor was given started with U+FEFF. */
export function fromEditorText(text: string, storeHasBom: boolean): string {
  return storeHasBom && text.charCodeAt(0) === BOM_STAND_IN ? String.fromCharCode(BOM) + text.slice(1) : text;
}

/** Whether a text starts with a byte-order mark. */
export function startsWithBom(text: string): boolean {
  return text.charCodeAt(0) === BOM;
}
