import { isWhitespaceCode, meterFor, type SpanMeter } from './measure';
import type { SplitSpan } from './registry';
import type { ChunkContext, Level, PieceOffsets, Range, Unit } from './types';
import { isTiktokenUnit } from './units/unit';

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
  return isTiktokenUnit(unit) ? unit.cutFilter(text) : null;
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
  if (pieces.length === 0) return;
  packContent(tableOfRanges(source, pieces, params.meter, false), 0, pieces.length, params, out);
}

/**
 * What the packer knows of a list of pieces, per piece k:
 * - start: where its non-whitespace content starts (-1: whitespace only); endUpTo: the end of the last content
 *   character in pieces 0..k (so a chunk ending at piece k ends at endUpTo[k]);
 * - for token meters (meter.edges), the estimate's edge values (see EstimateEdges) at start[k] (startPiece,
 *   startValue) and at endUpTo[k] (endPiece, endValue): every estimate the packer makes spans from one piece's
 *   start to another's endUpTo, so it is a subtraction once both edges are known (empty for a long run's clusters,
 *   see emptyTable);
 * - fitEstimate, fitExact: the counts of its own content that decide whether it fits (packLevels).
 * Offsets are Int32Arrays (a long run's clusters number millions: 4 bytes a piece each, not 8).
 * Counts are NaN until first needed; none depends on the size or overlap, so a table kept for a level's pieces
 * (packLevels) serves every later run on the same document: a slider move re-packs with few meter calls.
 * A plain object of typed arrays, not a class: V8 drops optimized code compiled for an object shape that died, and
 * a class instance made per call is garbage after every run (see RunGuard).
 */
interface PieceTable {
  meter: SpanMeter;
  start: Int32Array;
  endUpTo: Int32Array;
  startPiece: Float64Array;
  startValue: Float64Array;
  endPiece: Float64Array;
  endValue: Float64Array;
  fitEstimate: Float64Array;
  fitExact: Float64Array;
}

/**
 * A table for n pieces, with room for the edge values when `edges` and the meter has them, and for the fit counts
 * when `fitCounts` (tables kept for later runs). Arrays nothing reads are empty: a long run's clusters can number
 * millions, and lie inside one pre-token piece, where edge values never apply.
 */
function emptyTable(n: number, meter: SpanMeter, edges: boolean, fitCounts: boolean): PieceTable {
  const m = edges && meter.edges ? n : 0;
  const f = fitCounts ? n : 0;
  return {
    meter,
    start: new Int32Array(n),
    endUpTo: new Int32Array(n),
    startPiece: new Float64Array(m).fill(NaN),
    startValue: new Float64Array(m),
    endPiece: new Float64Array(m).fill(NaN),
    endValue: new Float64Array(m),
    fitEstimate: new Float64Array(f).fill(NaN),
    fitExact: new Float64Array(f).fill(NaN),
  };
}

function tableOfRanges(source: string, pieces: readonly Range[], meter: SpanMeter, fitCounts: boolean): PieceTable {
  const n = pieces.length;
  const table = emptyTable(n, meter, true, fitCounts);
  let lastEnd = -1;
  for (let k = 0; k < n; k++) lastEnd = addContent(source, k, pieces[k]!.start, pieces[k]!.end, table.start, table.endUpTo, lastEnd);
  return table;
}

function tableOfOffsets(source: string, pieces: PieceOffsets, meter: SpanMeter): PieceTable {
  const { starts, ends, length } = pieces;
  // Pieces that are their own content spans (the clusters of a long run without spaces, millions of them): the
  // table shares the level's arrays instead of filling two more of the same size.
  if (pieces.edgesAreContent === true) return { ...emptyTable(0, meter, false, false), start: starts, endUpTo: ends };
  const table = emptyTable(length, meter, false, false);
  let lastEnd = -1;
  for (let k = 0; k < length; k++) lastEnd = addContent(source, k, starts[k]!, ends[k]!, table.start, table.endUpTo, lastEnd);
  return table;
}

/**
 * The tables of levels' piece lists, by list: separator levels return the same list for the same range of the same
 * document (their split memo), so a slider move finds the counts of the last run. A table is for one meter (one
 * unit on one document); a list is never modified and never returned for another document (levels make a new one,
 * or memoize per document). Weak: a list the level's memo drops takes its table with it.
 * Not moved to documentCache: it is read for every piece list the packer visits (the slider's inner loop), and being
 * weak it already goes when documentCache evicts the separator memo holding the lists.
 */
const levelTables = new WeakMap<readonly Range[], PieceTable>();

function levelTable(source: string, pieces: readonly Range[], meter: SpanMeter): PieceTable {
  let table = levelTables.get(pieces);
  if (table === undefined || table.meter !== meter) {
    // Fit counts only for counting units: characters fit by subtraction (a line of words has millions of pieces).
    table = tableOfRanges(source, pieces, meter, meter.linear !== true);
    levelTables.set(pieces, table);
  }
  return table;
}

/** Fills piece k's entries; returns the end of the last content so far. */
function addContent(source: string, k: number, start: number, end: number, contentStart: Int32Array, endUpTo: Int32Array, lastEnd: number): number {
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

/** The first piece at or after `from` with content (`to` when none before it). */
function nextWithContent(contentStart: Int32Array, from: number, to: number): number {
  let k = from;
  while (k < to && contentStart[k]! < 0) k++;
  return k;
}

/**
 * The estimate of [start[k], endUpTo[m]): its length for chars, a difference of edge values for tokens when the
 * table has them and the two ends lie in different pre-token pieces (the values taken once per piece edge), else
 * the meter's estimate.
 */
function estimateBetween(table: PieceTable, meter: SpanMeter, k: number, m: number): number {
  const a = table.start[k]!;
  const b = table.endUpTo[m]!;
  if (meter.linear) return b - a;
  const edges = meter.edges;
  if (edges === undefined || table.startPiece.length === 0) return meter.estimate(a, b);
  let p = table.startPiece[k]!;
  if (p !== p) {
    p = edges.pieceAt(a);
    table.startPiece[k] = p;
    table.startValue[k] = edges.startValue(a, p);
  }
  let q = table.endPiece[m]!;
  if (q !== q) {
    q = edges.pieceAt(b - 1);
    table.endPiece[m] = q;
    table.endValue[m] = edges.endValue(b, q);
  }
  return p < q ? table.endValue[m]! - table.startValue[k]! : meter.estimate(a, b);
}

// No closures in the packer: its loop runs once per chunk, and closures made per call (or per chunk) cost more than
// the packing itself under tsx's name-keeping transform and before the JIT warms up.
/** Pack the table's pieces [from, to) (a run of pieces that each fit). */
function packContent(table: PieceTable, from: number, to: number, params: MergeParams, out: SplitSpan[]): void {
  const { size, overlap, meter, guard } = params;
  const { start: contentStart, endUpTo: contentEndUpTo } = table;
  const n = to;
  const linear = meter.linear === true;
  // Words: each count may segment its span again (a run without spaces has no shortcut), so the growth search
  // probes O(log n) spans instead of every piece; counts only grow with the span, so the result is the same.
  const gallop = !linear && meter.exactEstimates;
  let i = nextWithContent(contentStart, from, n);
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
      j = lastFitting(table, meter, i, i, n, size);
    } else {
      // Tokens: piece by piece, as estimates can dip at span edges; a chunk of many pieces (the tokens of a long
      // run without spaces) continues by doubling steps, and the exact count settles it below.
      let steps = 0;
      while (j + 1 < n && steps < STEPS_BEFORE_GALLOP && estimateBetween(table, meter, i, j + 1) <= size) {
        j++;
        steps++;
      }
      if (steps === STEPS_BEFORE_GALLOP) j = lastFitting(table, meter, i, j, n, size);
    }
    if (!meter.exactEstimates) {
      while (j > i && meter.exact(start, contentEndUpTo[j]!) > size) j--;
      while (j + 1 < n && estimateBetween(table, meter, i, j + 1) <= size + GROWTH_SLACK && meter.exact(start, contentEndUpTo[j + 1]!) <= size) {
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

    const following = nextWithContent(contentStart, j + 1, n);
    if (following >= n) break;

    // The next chunk starts at the earliest piece of this chunk such that the shared text fits the overlap
    // setting and the next chunk can still take in the following piece; otherwise right after this chunk.
    let next = following;
    mustReach = -1;
    if (overlap > 0) {
      const first = meter.exactEstimates
        ? firstOverlapPiece(table, i, j, following, meter, size, overlap)
        : j - i <= STEPS_BEFORE_GALLOP
          ? firstAllowedForward(table, i, j, following, meter, size, overlap)
          : firstAllowedBack(table, i, j, following, meter, size, overlap);
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

// The overlap searches below look for the piece that opens the next chunk after the chunk of pieces i..j; the
// next chunk must still reach `following`, the first content piece after j (see overlapAllowed).

/** The earliest content piece of i+1..j that may open the next chunk, or -1. */
function firstAllowedForward(table: PieceTable, i: number, j: number, following: number, meter: SpanMeter, size: number, overlap: number): number {
  for (let k = i + 1; k <= j; k++) {
    if (table.start[k]! >= 0 && overlapAllowed(table, k, j, following, meter, size, overlap)) return k;
  }
  return -1;
}

/**
 * The same found from j backwards, for chunks of many pieces: pieces whose shared text is estimated well over the
 * overlap cannot qualify, so the walk stops there (the overlap is a few dozen pieces, the chunk hundreds).
 */
function firstAllowedBack(table: PieceTable, i: number, j: number, following: number, meter: SpanMeter, size: number, overlap: number): number {
  let earliest = -1;
  for (let k = j; k > i; k--) {
    if (table.start[k]! < 0) continue;
    if (estimateBetween(table, meter, k, j) > overlap + 2 * ESTIMATE_SLACK) break;
    earliest = k;
  }
  // From there forwards, as for a short chunk: the exact counts are taken for the first candidates only.
  return earliest < 0 ? -1 : firstAllowedForward(table, earliest - 1, j, following, meter, size, overlap);
}

/**
 * The last piece j >= from such that [start[i], endUpTo[j]) fits, for a meter whose counts grow with the span:
 * doubling steps, then bisection (from itself when even the next piece does not fit: for from === i it is flagged
 * oversize).
 */
function lastFitting(table: PieceTable, meter: SpanMeter, i: number, from: number, n: number, size: number): number {
  let lo = from;
  let step = 1;
  while (lo + step < n && estimateBetween(table, meter, i, lo + step) <= size) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(n, lo + step); // fails, or is past the end
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (estimateBetween(table, meter, i, mid) <= size) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * For counts that only grow with the span: the pieces of i+1..j that may open the next chunk are a suffix of its
 * content pieces. Its first one, or -1. Found from j backwards by doubling steps, then bisection: an overlap of a
 * piece or two costs two or three checks, and a words count (a segmentation each) is probed O(log n) times on a
 * long run of clusters.
 */
function firstOverlapPiece(table: PieceTable, i: number, j: number, following: number, meter: SpanMeter, size: number, overlap: number): number {
  const starts = table.start;
  let hi = j; // the last content piece: it qualifies, or nothing does
  while (hi > i && starts[hi]! < 0) hi--;
  if (hi <= i || !overlapAllowed(table, hi, j, following, meter, size, overlap)) return -1;
  let lo = i; // nothing at or before it qualifies (i is the chunk's own first piece)
  for (let step = 1; hi - step > lo; step *= 2) {
    if (!startQualifies(table, hi - step, j, following, meter, size, overlap)) {
      lo = hi - step;
      break;
    }
    hi -= step;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (startQualifies(table, mid, j, following, meter, size, overlap)) hi = mid;
    else lo = mid;
  }
  return nextWithContent(starts, hi, j + 1);
}

/** Whether the first content piece at or after index x may open the next chunk (only grows more likely with x). */
function startQualifies(table: PieceTable, x: number, j: number, following: number, meter: SpanMeter, size: number, overlap: number): boolean {
  return overlapAllowed(table, nextWithContent(table.start, x, j + 1), j, following, meter, size, overlap);
}

/**
 * Whether content piece k (inside the chunk ending with piece j) may open the next chunk: the shared text, from
 * k's start to the chunk's end, fits the overlap, and from there the next chunk can still reach the end of piece
 * `following`. Exact for chars and words; for tokens the estimate rules out clear misses and the exact count decides
 * the rest.
 */
function overlapAllowed(table: PieceTable, k: number, j: number, following: number, meter: SpanMeter, size: number, overlap: number): boolean {
  if (estimateBetween(table, meter, k, following) > size) return false;
  const shared = estimateBetween(table, meter, k, j);
  if (meter.exactEstimates) return shared <= overlap;
  return shared <= overlap + ESTIMATE_SLACK && meter.exact(table.start[k]!, table.endUpTo[j]!) <= overlap;
}

/**
 * Pack source[start, end) using a hierarchy of levels, coarsest first: the range is cut at the first level; runs of
 * pieces that fit are packed together (packContent); a piece larger than `size` is cut again at the next level on
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
  if (depth >= levels.length || depth === 0) {
    const whole = tableOfRanges(source, [{ start, end }], params.meter, false);
    if (depth >= levels.length || pieceFits(params, start, end, whole, 0)) {
      packContent(whole, 0, 1, params, out);
      return;
    }
  }
  const level = levels[depth]!;
  if (level.offsets) {
    packOffsets(source, level.offsets(start, end), levels, params, out, depth);
    return;
  }
  const pieces = level(start, end);
  const table = levelTable(source, pieces, params.meter);
  let run = 0; // the pieces of run..k-1 all fit
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]!;
    params.guard.tick(piece.start);
    if (pieceFits(params, piece.start, piece.end, table, k)) continue;
    if (k > run) packContent(table, run, k, params, out);
    packLevels(source, piece.start, piece.end, levels, params, out, depth + 1);
    run = k + 1;
  }
  if (pieces.length > run) packContent(table, run, pieces.length, params, out);
}

/** packLevels on a level given as offsets: runs of pieces that fit are packed, a piece too large goes deeper. */
function packOffsets(source: string, pieces: PieceOffsets, levels: readonly Level[], params: MergeParams, out: SplitSpan[], depth: number): void {
  const { starts, ends, length } = pieces;
  const table = tableOfOffsets(source, pieces, params.meter);
  // A grapheme cluster is at most one word (word boundaries never fall inside one), so for words all fit; for any
  // unit, all fit when even the longest piece at the most a unit counts per code unit does (the clusters of a long
  // run in characters: no check per cluster).
  const most = params.meter.mostPerCodeUnit;
  const allFit =
    (params.meter.atMostOnePerCluster === true && params.size >= 1) || (pieces.longest !== undefined && most !== undefined && pieces.longest * most <= params.size);
  if (allFit) {
    if (length > 0) packContent(table, 0, length, params, out);
    return;
  }
  const { guard } = params;
  let run = 0;
  for (let k = 0; k < length; k++) {
    guard.tick(starts[k]!);
    if (pieceFits(params, starts[k]!, ends[k]!, table, k)) continue;
    if (k > run) packContent(table, run, k, params, out);
    packLevels(source, starts[k]!, ends[k]!, levels, params, out, depth + 1);
    run = k + 1;
  }
  if (length > run) packContent(table, run, length, params, out);
}

/**
 * Whether table piece k, source[start, end) without the whitespace at its edges (the merger trims it), is within
 * the size. Its counts are kept in the table when it has room for them (see PieceTable).
 */
function pieceFits(params: MergeParams, start: number, end: number, table: PieceTable, k: number): boolean {
  const { meter, size } = params;
  // No count needed when even the most a unit can count per code unit fits (the tokens of a long run).
  const most = meter.mostPerCodeUnit;
  if (most !== undefined && (end - start) * most <= size) return true;
  const s = table.start[k]!;
  if (s < 0) return true;
  const e = table.endUpTo[k]!;
  if (meter.linear) return e - s <= size;
  const kept = table.fitEstimate.length > 0;
  let estimate = kept ? table.fitEstimate[k]! : NaN;
  if (estimate !== estimate) {
    estimate = meter.estimate(s, e);
    if (kept) table.fitEstimate[k] = estimate;
  }
  if (meter.exactEstimates) return estimate <= size;
  // Cheap rejection of far-too-large pieces (e.g. a whole document) before an exact count.
  if (estimate > size + ESTIMATE_SLACK) return false;
  let exact = kept ? table.fitExact[k]! : NaN;
  if (exact !== exact) {
    exact = meter.exact(s, e);
    if (kept) table.fitExact[k] = exact;
  }
  return exact <= size;
}
