/**
 * The read-only view of a document too large for the editor, as pure functions (which documents get it is
 * selectViewOnly in the store's selectors): where its lines start, which lines are on screen, and how a line splits into runs of one chunk (or of an overlap).
 * LargeDocumentView.tsx draws their output; nothing here touches the DOM, so it all runs in Node tests.
 */
import { chunksAt } from '../../state/selectors';
import { upperBound } from '../../core/sorted';

/** A line is drawn up to this many characters (Monaco stops at 10,000): a 2 MiB line is one line of the view. */
export const VIEW_LINE_CHARS = 5_000;
/** Characters scanned for line starts per task: 2 Mi took 18 ms beside the chunk worker on these two cores. */
export const LINE_SCAN_CHARS = 1024 * 1024;
/** Chromium caps an element's height near 33.5 million pixels; taller documents scroll in smaller steps per line. */
export const MAX_SCROLL_PX = 15_000_000;

/**
 * Appends to `out` the start of every line that begins in (from, from + budget] (the first line's start, 0, is the
 * caller's) and returns where the next scan starts: text.length once the whole text is scanned.
 */
export function scanLineStarts(text: string, from: number, budget: number, out: number[]): number {
  const stop = Math.min(text.length, from + budget);
  let at = from;
  while (at < stop) {
    const nl = text.indexOf('\n', at);
    if (nl < 0 || nl >= stop) return stop;
    out.push(nl + 1);
    at = nl + 1;
  }
  return stop;
}

/** The line (0-based) holding `offset`, given ascending line starts beginning with 0. */
export function lineOf(lineStarts: readonly number[], offset: number): number {
  return Math.max(0, upperBound(lineStarts, offset) - 1);
}

/** [start, end) of line `line` without its line break, and the end drawn (at most VIEW_LINE_CHARS on). */
export function lineRange(text: string, lineStarts: readonly number[], line: number): { start: number; end: number; drawnEnd: number } {
  const start = lineStarts[line]!;
  const next = line + 1 < lineStarts.length ? lineStarts[line + 1]! : text.length + 1;
  const end = next - 1;
  return { start, end, drawnEnd: Math.min(end, start + VIEW_LINE_CHARS) };
}

/**
 * The scroll geometry: how many pixels of the scroller one line takes (the line height, less for documents taller
 * than MAX_SCROLL_PX), the first line on screen and how far the drawn block sits above the scroll position.
 */
export function viewWindow(lineCount: number, lineHeight: number, scrollTop: number, viewHeight: number) {
  const pxPerLine = Math.min(lineHeight, MAX_SCROLL_PX / Math.max(1, lineCount));
  const exact = Math.max(0, scrollTop) / pxPerLine;
  const first = Math.min(Math.max(0, lineCount - 1), Math.floor(exact));
  const count = Math.ceil(viewHeight / lineHeight) + 1;
  return {
    scrollHeight: lineCount * pxPerLine + Math.max(0, viewHeight - lineHeight),
    pxPerLine,
    first,
    last: Math.min(lineCount - 1, first + count),
    /** The block of drawn lines starts this many pixels above the scroll position (smooth scrolling inside a line). */
    shift: (exact - Math.floor(exact)) * lineHeight,
  };
}

/** The scroll position that puts `line` a third of the way down the view. */
export function scrollTopFor(line: number, lineCount: number, lineHeight: number, viewHeight: number): number {
  const { pxPerLine } = viewWindow(lineCount, lineHeight, 0, viewHeight);
  // The lines above it are drawn at the full line height whatever the scroller's step per line.
  return Math.max(0, (line - Math.floor(viewHeight / 3 / lineHeight)) * pxPerLine);
}

/** A run of a line's characters in the same chunks: `chunk` is the last chunk holding them (-1: none). */
export interface LineRun {
  from: number;
  to: number;
  chunk: number;
  /** Held by two chunks (the later one's start overlaps the earlier one's end). */
  overlap: boolean;
}

/**
 * Splits [from, to) into runs at every chunk start and end (chunks sorted by start, ends in order too, as the
 * engine returns them). Each run names the chunk the editor would colour it by and whether it is an overlap.
 */
export function lineRuns(starts: Int32Array, ends: Int32Array, from: number, to: number): LineRun[] {
  const runs: LineRun[] = [];
  let at = from;
  while (at < to) {
    const holding = chunksAt(starts, ends, at);
    let next = to;
    const following = upperBound(starts, at);
    if (following < starts.length && starts[following]! < next) next = starts[following]!;
    for (const c of holding) if (ends[c]! < next) next = ends[c]!;
    runs.push({ from: at, to: next, chunk: holding.length ? holding[holding.length - 1]! : -1, overlap: holding.length > 1 });
    at = next;
  }
  return runs;
}
