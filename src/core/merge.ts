import { isWhitespaceCode, meterFor, type SpanMeter } from './measure';
import type { SplitSpan } from './registry';
import type { ChunkContext, Level, PieceOffsets, Range, Unit } from './types';
import { TiktokenUnit } from './units/tiktoken';

export type { Level } from './types';

/**
 * The one place that packs pieces (ordered, non-overlapping ranges of the source) into chunks with overlap.
 *
 * Guarantees, all measured on the final offsets:
 * - a chunk is a contiguous span from the first non-whitespace character of its first piece to the last
 *   non-whitespace character of its last piece: whitespace at the edges stays in the source, outside the chunk;
 * - unit.count(chunk text) <= size — the re-counted value, not a sum of pieces — unless the chunk is a single piece
 *   that is itself larger (then it is flagged `oversize`);
 * - consecutive chunks overlap by whole pieces, and the overlap counted in the unit (from the offsets) is at most
 *   `overlap`, and as large as whole pieces allow while the next chunk still reaches a new piece;
 * - chunks are in order, each starts after the previous one starts and ends after it ends, and every
 *   non-whitespace character of every piece lies in some chunk.
 */

export interface MergeParams {
  size: number;
  overlap: number;
  meter: SpanMeter;
  guard: RunGuard;
}

/** The packing parameters of a run: size and overlap from the options, the unit's meter for this source. */
export function mergeParamsFor(text: string, ctx: ChunkContext): MergeParams {
  const { options, unit } = ctx;
  return { size: options.size, overlap: options.overlap, meter: meterFor(unit, text), guard: new RunGuard(ctx, text.length) };
}

/**
 * Where a splitter's finest level may cut a long run without spaces: token units only between its tokens (see
 * TiktokenUnit.cutFilter), so counting the chunks needs no re-encoding (quadratic otherwise); null: anywhere.
 */
export function cutFilterFor(text: string, unit: Unit): ((position: number) => boolean) | null {
  return unit instanceof TiktokenUnit ? unit.cutFilter(text) : null;
}

/**
 * Abort checks and throttled progress for one run.
 *
 * The latest run's guard stays alive until the next run. Without it, when a run's objects were all garbage at a
 * full collection, V8 threw away the packer's optimized code ("weak objects": code compiled for a shape that died)
 * and the next document was packed by freshly re-optimized code, a 3-4 ms run taking 10-15 ms. A dummy guard made
 * at load time did not keep it; the last used one does.
 */
export class RunGuard {
  private ticks = 0;
  /** The furthest position reported so far (a position, not a fraction, to keep the field an integer). */
  private reportedAt = 0;
  private readonly onProgress: ((fraction: number) => void) | undefined;
  private readonly signal: { aborted: boolean } | undefined;
  constructor(
    ctx: Pick<ChunkContext, 'onProgress' | 'signal'>,
    private readonly total: number,
  ) {
    this.onProgress = ctx.onProgress;
    this.signal = ctx.signal;
    latestGuard = this;
  }

  /**
   * Call often with the current source position; cheap. Progress never goes back: a splitter may scan a range
   * once to cut it and again to pack it, and the bar should not jump backwards in between.
   */
  tick(position: number): void {
    if ((++this.ticks & 1023) !== 0) return;
    this.check();
    if (position > this.reportedAt && this.total > 0) {
      this.reportedAt = position;
      this.onProgress?.(Math.min(1, position / this.total));
    }
  }

  check(): void {
    if (this.signal?.aborted) {
      const error = new Error('chunking was aborted');
      error.name = 'AbortError';
      throw error;
    }
  }
}

/** The latest run's guard, kept alive (see RunGuard): it holds that run's progress callback and signal only. */
let latestGuard: RunGuard | null = null;

/** How far a token estimate may be above the limit and still be worth an exact check. */
const ESTIMATE_SLACK = 8;
/**
 * The same when growing a chunk by one more piece: estimates are within a token or two of the exact count, and
 * each check here re-counts a whole chunk, so only near misses are re-checked.
 */
const GROWTH_SLACK = 2;

/** Pack `pieces` into chunk spans appended to `out`. */
export function mergePieces(source: string, pieces: readonly Range[], params: MergeParams, out: SplitSpan[]): void {
  const n = pieces.length;
  if (n === 0) return;
  const content = { start: new Float64Array(n), endUpTo: new Float64Array(n) };
  let lastEnd = -1;
  for (let k = 0; k < n; k++) lastEnd = addContent(source, k, pieces[k]!.start, pieces[k]!.end, content.start, content.endUpTo, lastEnd);
  packContent(content, params, out);
}

/** The same for pieces given as offset arrays, pieces[from, to) (the grapheme level of a long run: no objects). */
export function mergeOffsets(source: string, pieces: PieceOffsets, from: number, to: number, params: MergeParams, out: SplitSpan[]): void {
  const n = to - from;
  if (n <= 0) return;
  const content = { start: new Float64Array(n), endUpTo: new Float64Array(n) };
  let lastEnd = -1;
  for (let k = 0; k < n; k++) lastEnd = addContent(source, k, pieces.starts[from + k]!, pieces.ends[from + k]!, content.start, content.endUpTo, lastEnd);
  packContent(content, params, out);
}

/**
 * Per piece: where its non-whitespace content starts (-1: whitespace only), and the end of the last content
 * character in pieces 0..k (so a chunk ending at piece k ends at endUpTo[k]). A plain object of typed arrays,
 * not a class: V8 drops optimized code compiled for an object shape that died, and a class instance made per call
 * is garbage after every run (see RunGuard).
 */
interface PieceContent {
  start: Float64Array;
  endUpTo: Float64Array;
}

/** Fills piece k's entries; returns the end of the last content so far. */
function addContent(source: string, k: number, start: number, end: number, contentStart: Float64Array, endUpTo: Float64Array, lastEnd: number): number {
  let s = start;
  while (s < end && isWhitespaceCode(source.charCodeAt(s))) s++;
  if (s < end) {
    contentStart[k] = s;
    let e = end;
    while (isWhitespaceCode(source.charCodeAt(e - 1))) e--;
    lastEnd = e;
  } else {
    contentStart[k] = -1;
  }
  endUpTo[k] = lastEnd;
  return lastEnd;
}

/** The first piece at or after `from` with content (the count of pieces when none). */
function nextWithContent(contentStart: Float64Array, from: number): number {
  let k = from;
  while (k < contentStart.length && contentStart[k]! < 0) k++;
  return k;
}

// No closures in the packer: its loop runs once per chunk, and closures made per call (or per chunk) cost more than
// the packing itself under tsx's name-keeping transform and before the JIT warms up.
function packContent(content: PieceContent, params: MergeParams, out: SplitSpan[]): void {
  const { size, overlap, meter, guard } = params;
  const { start: contentStart, endUpTo: contentEndUpTo } = content;
  const n = contentStart.length;
  const linear = meter.linear === true;
  // Words: each count may segment its span again (a run without spaces has no shortcut), so the growth search
  // probes O(log n) spans instead of every piece; counts only grow with the span, so the result is the same.
  const gallop = !linear && meter.exactEstimates;
  let i = nextWithContent(content.start, 0);
  // When the previous chunk chose an overlap, the piece this chunk must reach to make progress.
  let mustReach = -1;
  while (i < n) {
    const start = contentStart[i]!;
    guard.tick(start);

    // Grow the chunk over the following pieces while it fits: search with the estimate, then settle with the
    // exact count (for tokens the estimate can be off by a token or two at span edges).
    let j = i;
    if (linear) {
      const last = start + size;
      while (j + 1 < n && contentEndUpTo[j + 1]! <= last) j++;
    } else if (gallop) {
      j = lastFitting(meter, contentEndUpTo, start, i, n, size);
    } else {
      // Tokens: piece by piece, as estimates can dip at span edges; a chunk of many pieces (the tokens of a long
      // run without spaces) continues by doubling steps, and the exact count settles it below.
      let steps = 0;
      while (j + 1 < n && steps < STEPS_BEFORE_GALLOP && meter.estimate(start, contentEndUpTo[j + 1]!) <= size) {
        j++;
        steps++;
      }
      if (steps === STEPS_BEFORE_GALLOP) j = lastFitting(meter, contentEndUpTo, start, j, n, size);
    }
    if (!meter.exactEstimates) {
      while (j > i && meter.exact(start, contentEndUpTo[j]!) > size) j--;
      while (
        j + 1 < n &&
        meter.estimate(start, contentEndUpTo[j + 1]!) <= size + GROWTH_SLACK &&
        meter.exact(start, contentEndUpTo[j + 1]!) <= size
      ) {
        j++;
      }
    }
    if (j < mustReach) {
      // The overlap chosen from the estimate leaves no room for new text: start after the previous chunk instead.
      i = mustReach;
      mustReach = -1;
      continue;
    }
    const end = contentEndUpTo[j]!;
    const span: SplitSpan = { start, end };
    if ((linear ? end - start : meter.exact(start, end)) > size) span.oversize = true;
    out.push(span);

    const following = nextWithContent(content.start, j + 1);
    if (following >= n) break;

    // The next chunk starts at the earliest piece of this chunk such that the shared text fits the overlap
    // setting and the next chunk can still take in the following piece; otherwise right after this chunk.
    let next = following;
    mustReach = -1;
    if (overlap > 0) {
      const reach = contentEndUpTo[following]!;
      const first = meter.exactEstimates
        ? firstOverlapPiece(content, i, j, meter, end, reach, size, overlap)
        : j - i <= STEPS_BEFORE_GALLOP
          ? firstAllowedForward(content, i, j, meter, end, reach, size, overlap)
          : firstAllowedBack(content, i, j, meter, end, reach, size, overlap);
      if (first >= 0) {
        next = first;
        mustReach = following;
      }
    }
    i = next;
  }
}

/**
 * Token searches go piece by piece up to this many pieces (every chunk of ordinary text: its pieces are paragraphs,
 * lines or words), then by doubling steps or from the other end (the tokens of a long run without spaces: a
 * piece-by-piece scan made a million estimates per MiB).
 */
const STEPS_BEFORE_GALLOP = 32;

/** The earliest content piece of i+1..j that may open the next chunk (see overlapAllowed), or -1. */
function firstAllowedForward(content: PieceContent, i: number, j: number, meter: SpanMeter, end: number, reach: number, size: number, overlap: number): number {
  for (let k = i + 1; k <= j; k++) {
    const s = content.start[k]!;
    if (s >= 0 && overlapAllowed(meter, s, end, reach, size, overlap)) return k;
  }
  return -1;
}

/**
 * The same found from j backwards, for chunks of many pieces: pieces whose shared text is estimated well over the
 * overlap cannot qualify, so the walk stops there (the overlap is a few dozen pieces, the chunk hundreds).
 */
function firstAllowedBack(content: PieceContent, i: number, j: number, meter: SpanMeter, end: number, reach: number, size: number, overlap: number): number {
  let earliest = -1;
  for (let k = j; k > i; k--) {
    const s = content.start[k]!;
    if (s < 0) continue;
    if (meter.estimate(s, end) > overlap + 2 * ESTIMATE_SLACK) break;
    earliest = k;
  }
  // From there forwards, as for a short chunk: the exact counts are taken for the first candidates only.
  return earliest < 0 ? -1 : firstAllowedForward(content, earliest - 1, j, meter, end, reach, size, overlap);
}

/**
 * The last piece j >= i such that [start, endUpTo[j]) fits, for a meter whose counts grow with the span: doubling
 * steps, then bisection (i itself when even the first piece does not fit: it is flagged oversize).
 */
function lastFitting(meter: SpanMeter, endUpTo: Float64Array, start: number, i: number, n: number, size: number): number {
  let lo = i;
  let step = 1;
  while (lo + step < n && meter.estimate(start, endUpTo[lo + step]!) <= size) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(n, lo + step); // fails, or is past the end
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (meter.estimate(start, endUpTo[mid]!) <= size) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * For counts that only grow with the span: the pieces of i+1..j that may open the next chunk (see overlapAllowed)
 * are a suffix of its content pieces. Its first one, or -1. Found from j backwards by doubling steps, then
 * bisection: an overlap of a piece or two costs two or three checks, and a words count (a segmentation each) is
 * probed O(log n) times on a long run of clusters.
 */
function firstOverlapPiece(content: PieceContent, i: number, j: number, meter: SpanMeter, end: number, reach: number, size: number, overlap: number): number {
  const starts = content.start;
  let hi = j; // the last content piece: it qualifies, or nothing does
  while (hi > i && starts[hi]! < 0) hi--;
  if (hi <= i || !overlapAllowed(meter, starts[hi]!, end, reach, size, overlap)) return -1;
  let lo = i; // nothing at or before it qualifies (i is the chunk's own first piece)
  for (let step = 1; hi - step > lo; step *= 2) {
    if (!startQualifies(content, hi - step, meter, end, reach, size, overlap)) {
      lo = hi - step;
      break;
    }
    hi -= step;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (startQualifies(content, mid, meter, end, reach, size, overlap)) hi = mid;
    else lo = mid;
  }
  return nextWithContent(starts, hi);
}

/** Whether the first content piece at or after index x may open the next chunk (only grows more likely with x). */
function startQualifies(content: PieceContent, x: number, meter: SpanMeter, end: number, reach: number, size: number, overlap: number): boolean {
  return overlapAllowed(meter, content.start[nextWithContent(content.start, x)]!, end, reach, size, overlap);
}

/** A span's count for searching: its length for chars (no call), else the meter's estimate. */
function estimateOf(meter: SpanMeter, a: number, b: number): number {
  return meter.linear ? b - a : meter.estimate(a, b);
}

/**
 * Whether the next chunk may start at `s` (inside the chunk ending at `end`): the shared text [s, end) fits the
 * overlap, and from `s` the next chunk can still reach `reach`, the end of the following piece. Exact for chars and
 * words; for tokens the estimate rules out clear misses and the exact count decides the rest.
 */
function overlapAllowed(meter: SpanMeter, s: number, end: number, reach: number, size: number, overlap: number): boolean {
  if (estimateOf(meter, s, reach) > size) return false;
  const shared = estimateOf(meter, s, end);
  if (meter.exactEstimates) return shared <= overlap;
  return shared <= overlap + ESTIMATE_SLACK && meter.exact(s, end) <= overlap;
}

/**
 * Pack source[start, end) using a hierarchy of levels, coarsest first: the range is cut at the first level; runs of
 * pieces that fit are packed together by mergePieces; a piece larger than `size` is cut again at the next level on
 * its own (its chunks do not share overlap with its neighbours' chunks). A piece still too large after the last
 * level becomes one chunk flagged `oversize`.
 */
export function packLevels(
  source: string,
  start: number,
  end: number,
  levels: readonly Level[],
  params: MergeParams,
  out: SplitSpan[],
  depth = 0,
): void {
  // A range that fits whole is one chunk (only the top-level range can: deeper ones were cut for not fitting).
  if (depth >= levels.length || (depth === 0 && pieceFits(source, start, end, params))) {
    mergePieces(source, [{ start, end }], params, out);
    return;
  }
  const level = levels[depth]!;
  if (level.offsets) {
    packOffsets(source, level.offsets(start, end), levels, params, out, depth);
    return;
  }
  const pieces = level(start, end);
  let fitting: Range[] = [];
  for (const piece of pieces) {
    params.guard.tick(piece.start);
    if (pieceFits(source, piece.start, piece.end, params)) {
      fitting.push(piece);
      continue;
    }
    if (fitting.length > 0) {
      mergePieces(source, fitting, params, out);
      fitting = [];
    }
    packLevels(source, piece.start, piece.end, levels, params, out, depth + 1);
  }
  if (fitting.length > 0) mergePieces(source, fitting, params, out);
}

/** packLevels on a level given as offsets: runs of pieces that fit are packed, a piece too large goes deeper. */
function packOffsets(source: string, pieces: PieceOffsets, levels: readonly Level[], params: MergeParams, out: SplitSpan[], depth: number): void {
  const { starts, ends, length } = pieces;
  // A grapheme cluster is at most one word (word boundaries never fall inside one), so for words all fit.
  const allFit = params.meter.atMostOnePerCluster === true && params.size >= 1;
  const { guard } = params;
  let run = 0;
  for (let k = 0; k < length; k++) {
    guard.tick(starts[k]!);
    if (allFit || pieceFits(source, starts[k]!, ends[k]!, params)) continue;
    if (k > run) mergeOffsets(source, pieces, run, k, params, out);
    packLevels(source, starts[k]!, ends[k]!, levels, params, out, depth + 1);
    run = k + 1;
  }
  if (length > run) mergeOffsets(source, pieces, run, length, params, out);
}

/** Whether a piece, without the whitespace at its edges (the merger trims it), is within the size. */
function pieceFits(source: string, start: number, end: number, params: MergeParams): boolean {
  // No count needed when even the most a unit can count per code unit fits (the tokens of a long run).
  const most = params.meter.mostPerCodeUnit;
  if (most !== undefined && (end - start) * most <= params.size) return true;
  let s = start;
  let e = end;
  while (s < e && isWhitespaceCode(source.charCodeAt(s))) s++;
  while (e > s && isWhitespaceCode(source.charCodeAt(e - 1))) e--;
  if (s === e) return true;
  const { meter, size } = params;
  if (meter.linear) return e - s <= size;
  if (meter.exactEstimates) return meter.estimate(s, e) <= size;
  // Cheap rejection of far-too-large pieces (e.g. a whole document) before an exact count.
  if (meter.estimate(s, e) > size + ESTIMATE_SLACK) return false;
  return meter.exact(s, e) <= size;
}
