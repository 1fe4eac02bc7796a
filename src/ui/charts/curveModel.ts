/**
 * What the similarity curve computes, as pure functions: the layout, scales and domains, which gaps are in view,
 * the line's path (aggregated per pixel column on large documents), which gaps get a circle, the threshold line's
 * position and keyboard steps, the hover lookup and label, and the axis ticks. SimilarityCurve.tsx does the d3 DOM
 * work with their output. No DOM here, so it all runs in Node tests.
 */
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { lowerBound } from '../../core/describe';

export const MARGIN = { top: 10, right: 14, bottom: 22, left: 40 };
/** Above this many gaps in view, only breakpoints get a circle (50,000 circles took 2 s to draw). */
export const MAX_DOTS = 3000;
/** Height of the overview strip, and the space between the plot and it. */
export const OVERVIEW = 26;
export const GAP_BELOW_PLOT = 14;
/** The pointer finds a gap's point within this many pixels of it, horizontally. */
export const HOVER_REACH = 12;

/** Where the parts of the chart lie, for an SVG `width` wide whose plot is `height` high. */
export interface CurveLayout {
  width: number;
  /** Left and right edge of the plot (and of the overview strip). */
  left: number;
  right: number;
  plotWidth: number;
  plotBottom: number;
  /** Top of the overview strip. */
  overviewTop: number;
  /** Height of the whole SVG (plot, gap, overview). */
  svgHeight: number;
}

export function curveLayout(width: number, height: number): CurveLayout {
  return {
    width,
    left: MARGIN.left,
    right: width - MARGIN.right,
    plotWidth: width - MARGIN.left - MARGIN.right,
    plotBottom: height - MARGIN.bottom,
    overviewTop: height + GAP_BELOW_PLOT - 6,
    svgHeight: height + OVERVIEW + GAP_BELOW_PLOT,
  };
}

/**
 * The document's axis: the whole document, and the zoomed range shown (`zoom`, or the whole document when there is
 * none or it no longer fits, e.g. the document got shorter). `zoom` is the zoom still valid (null: none).
 */
export function viewDomain(zoom: [number, number] | null, docLength: number): { full: [number, number]; view: [number, number]; zoom: [number, number] | null } {
  const full: [number, number] = [0, Math.max(1, docLength)];
  const valid = zoom && !(zoom[1] > full[1] || zoom[0] >= zoom[1]) ? zoom : null;
  return { full, view: valid ?? full, zoom: valid };
}

/** Largest finite value (0 when none). */
function finiteMax(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v) && v > max) max = v;
  }
  return max;
}

/** Top of the distance axis before rounding: room above the largest distance and the threshold (at least 0.05). */
export function distanceTop(distances: ArrayLike<number>, threshold: number): number {
  return Math.max(0.05, finiteMax(distances), Number.isFinite(threshold) ? threshold : 0) * 1.08;
}

export interface CurveScales {
  /** Document offset → x in the plot (the view). */
  x: ScaleLinear<number, number>;
  /** Distance → y in the plot (0 at the bottom, a nice top). */
  y: ScaleLinear<number, number>;
  /** Document offset → x in the overview strip (the whole document). */
  ox: ScaleLinear<number, number>;
  /** Distance → y in the overview strip. */
  oy: ScaleLinear<number, number>;
}

export function curveScales(layout: CurveLayout, view: [number, number], full: [number, number], distances: ArrayLike<number>, threshold: number): CurveScales {
  const x = scaleLinear().domain(view).range([layout.left, layout.right]);
  const y = scaleLinear().domain([0, distanceTop(distances, threshold)]).nice().range([layout.plotBottom, MARGIN.top]);
  const ox = scaleLinear().domain(full).range([layout.left, layout.right]);
  const oy = scaleLinear().domain(y.domain()).range([layout.overviewTop + OVERVIEW - 4, layout.overviewTop + 2]);
  return { x, y, ox, oy };
}

/** About one document-axis tick per 110 px, at least two; the distance axis has 4. */
export function xTickCount(width: number): number {
  return Math.max(2, Math.floor(width / 110));
}
export const Y_TICKS = 4;

/** Offsets on the axis: 950, 1.5k, 12k, 2.3M. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** The gaps whose offsets lie in the view [d0, d1]: [lo, hi) (offsets ascend). */
export function gapsInView(gapOffsets: ArrayLike<number>, view: [number, number]): { lo: number; hi: number } {
  return { lo: lowerBound(gapOffsets, view[0]), hi: lowerBound(gapOffsets, view[1] + 1) };
}

/** The gap whose offset is nearest to `offset` (the earlier on a tie); -1 when there are none. */
export function nearestGap(offsets: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(offsets[lo - 1]! - offset) <= Math.abs(offsets[lo]! - offset)) return lo - 1;
  return lo;
}

/** The gap under the pointer at plot x `px`: the nearest one, if its point lies within HOVER_REACH pixels. */
export function gapAtX(gapOffsets: ArrayLike<number>, x: ScaleLinear<number, number>, px: number): number | null {
  const gap = nearestGap(gapOffsets, x.invert(px));
  if (gap < 0) return null;
  return Math.abs(x(gapOffsets[gap]!) - px) <= HOVER_REACH ? gap : null;
}

/**
 * The SVG path of the curve through gaps [lo − 1, hi + 1) (one past each edge of the view so the line leaves the
 * plot); a gap without a distance breaks the line. With more than 4 points per pixel column the points are
 * aggregated: each column keeps its lowest and highest value as one vertical stroke, which draws the same picture
 * with a path whose length follows the width, not the document.
 */
export function curvePath(
  distances: ArrayLike<number>,
  gapOffsets: ArrayLike<number>,
  x: (offset: number) => number,
  y: (distance: number) => number,
  lo: number,
  hi: number,
  plotWidth: number,
): string {
  const parts: string[] = [];
  const from = Math.max(0, lo - 1);
  const to = Math.min(distances.length, hi + 1);
  const decimate = to - from > plotWidth * 4;
  let pen = false;
  let column = NaN;
  let colMin = Infinity;
  let colMax = -Infinity;
  const flush = () => {
    if (Number.isNaN(column)) return;
    parts.push(`${pen ? 'L' : 'M'}${column},${y(colMin).toFixed(1)}L${column},${y(colMax).toFixed(1)}`);
    pen = true;
    column = NaN;
  };
  for (let i = from; i < to; i++) {
    const v = distances[i]!;
    if (!Number.isFinite(v)) {
      flush();
      pen = false;
      continue;
    }
    const px = x(gapOffsets[i]!);
    if (!decimate) {
      parts.push(`${pen ? 'L' : 'M'}${px.toFixed(1)},${y(v).toFixed(1)}`);
      pen = true;
      continue;
    }
    const col = Math.round(px);
    if (col !== column) {
      flush();
      column = col;
      colMin = v;
      colMax = v;
    } else {
      colMin = Math.min(colMin, v);
      colMax = Math.max(colMax, v);
    }
  }
  flush();
  return parts.join('');
}

/** The overview strip's line: the whole document, about 1,500 points at most (every stride-th finite distance). */
export function overviewPath(distances: ArrayLike<number>, gapOffsets: ArrayLike<number>, ox: (offset: number) => number, oy: (distance: number) => number): string {
  const parts: string[] = [];
  const stride = Math.max(1, Math.floor(distances.length / 1500));
  for (let i = 0; i < distances.length; i += stride) {
    const v = distances[i]!;
    if (Number.isFinite(v)) parts.push(`${parts.length ? 'L' : 'M'}${ox(gapOffsets[i]!).toFixed(1)},${oy(v).toFixed(1)}`);
  }
  return parts.join('');
}

/**
 * Circles for `inView` gaps: one each, smaller as they crowd; over MAX_DOTS ("dense") only breakpoints and the
 * hovered gap get one (radius 2.4), and a hint says to zoom in.
 */
export function dotPlan(inView: number): { dense: boolean; radius: number } {
  const dense = inView > MAX_DOTS;
  const r = inView > 1000 ? 1.8 : inView > 300 ? 2.4 : 3;
  return { dense, radius: dense ? 2.4 : r };
}

/** Points closer than this (in pixels) would overlap: the plot draws bins instead of one circle per gap. */
export const BIN_PX = 4;

/** Whether `inView` gaps across `plotWidth` pixels are drawn as bins (their circles would touch). */
export function binned(inView: number, plotWidth: number): boolean {
  return inView > 1 && plotWidth / inView < BIN_PX;
}

/** One bin of the plot: its pixel column, the highest distance in it and how many of its gaps are breakpoints. */
export interface BreakpointBin {
  x: number;
  top: number;
  cuts: number;
}

/**
 * Breakpoints of gaps [lo, hi) aggregated into bins BIN_PX wide: one mark per bin that holds a cut (at the bin's
 * highest cut distance), however many cuts fall into it, so a 1 MiB curve shows a few hundred marks, not a wall.
 */
export function breakpointBins(
  breakpoints: ArrayLike<number>,
  distances: ArrayLike<number>,
  gapOffsets: ArrayLike<number>,
  x: (offset: number) => number,
  lo: number,
  hi: number,
): BreakpointBin[] {
  const bins = new Map<number, BreakpointBin>();
  for (let k = 0; k < breakpoints.length; k++) {
    const gap = breakpoints[k]!;
    if (gap < lo || gap >= hi) continue;
    const v = distances[gap]!;
    const column = Math.floor(x(gapOffsets[gap]!) / BIN_PX);
    const bin = bins.get(column);
    const top = Number.isFinite(v) ? v : 0;
    if (bin) {
      bin.cuts++;
      bin.top = Math.max(bin.top, top);
    } else bins.set(column, { x: column * BIN_PX + BIN_PX / 2, top, cuts: 1 });
  }
  return [...bins.values()].sort((a, b) => a.x - b.x);
}

/** The hint drawn over a dense plot. */
export function denseHint(inView: number): string {
  return `${inView.toLocaleString('en')} gaps in ${BIN_PX}-px bins (orange: a bin with a cut); brush the strip below to zoom`;
}

/** Class and centre of gap i's circle (a gap without a distance sits on the axis, marked missing). */
export function dotAttributes(
  i: number,
  distances: ArrayLike<number>,
  gapOffsets: ArrayLike<number>,
  x: (offset: number) => number,
  y: (distance: number) => number,
  plotBottom: number,
): { className: string; cx: string; cy: string } {
  const v = distances[i]!;
  const finite = Number.isFinite(v);
  return { className: finite ? 'cs-gap' : 'cs-gap cs-gap-missing', cx: x(gapOffsets[i]!).toFixed(1), cy: (finite ? y(v) : plotBottom).toFixed(1) };
}

/** Breakpoints that stopped and started being breakpoints (a drag moves a few of thousands). */
export function breakpointChanges(before: ReadonlySet<number>, breakpoints: ArrayLike<number>): { after: Set<number>; removed: number[]; added: number[] } {
  const after = new Set<number>(Array.from(breakpoints));
  const removed: number[] = [];
  const added: number[] = [];
  for (const gap of before) if (!after.has(gap)) removed.push(gap);
  for (const gap of after) if (!before.has(gap)) added.push(gap);
  return { after, removed, added };
}

export interface ThresholdView {
  /** y of the line (at the top of the plot when there is no threshold). */
  y: number;
  shown: boolean;
  valueNow: number | null;
  valueText: string;
  label: string;
}

/** Where the threshold line is and what it says; a value above the axis is drawn at its top. */
export function thresholdView(value: number, y: ScaleLinear<number, number>, noThresholdText: string): ThresholdView {
  const top = y.domain()[1]!;
  const shown = Number.isFinite(value);
  return {
    y: shown ? y(Math.min(value, top)) : y(top),
    shown,
    valueNow: shown ? +value.toFixed(4) : null,
    valueText: shown ? `distance ${value.toFixed(3)}` : 'none',
    label: shown ? `threshold ${value.toFixed(3)}` : noThresholdText,
  };
}

/** A threshold kept on the axis [0, top]. */
export function clampThreshold(value: number, top: number): number {
  return Math.min(top, Math.max(0, value));
}

/**
 * The threshold after a key on the slider: arrows move a hundredth of the axis, Page keys a tenth, Home and End go
 * to the ends; from the middle when there is no threshold. Null for other keys.
 */
export function thresholdAfterKey(key: string, threshold: number, top: number): number | null {
  const current = Number.isFinite(threshold) ? threshold : top / 2;
  const step = top / 100;
  let next: number | null = null;
  if (key === 'ArrowUp' || key === 'ArrowRight') next = current + step;
  else if (key === 'ArrowDown' || key === 'ArrowLeft') next = current - step;
  else if (key === 'PageUp') next = current + step * 10;
  else if (key === 'PageDown') next = current - step * 10;
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = top;
  return next === null ? null : clampThreshold(next, top);
}

/** The zoom a brush selection on the overview strip asks for; null (the whole document) for a click or a sliver. */
export function zoomFromBrush(selection: [number, number] | null, ox: ScaleLinear<number, number>): [number, number] | null {
  if (!selection || selection[1] - selection[0] < 3) return null;
  return [ox.invert(selection[0]), ox.invert(selection[1])];
}

/** Why a gap is or is not a boundary (native mode cuts once per drop: a neighbour of a cut is not cut again). */
function hoverVerdict(gap: number, v: number, breakpoints: ArrayLike<number>, threshold: number): string {
  if (Array.prototype.includes.call(breakpoints, gap)) return ' · cut here';
  if (Number.isFinite(v) && Number.isFinite(threshold) && v > threshold) return ' · above the line, not cut: next to a stronger cut, or merged by the size limits';
  return '';
}

/** The label next to the hovered point: on its right in the left half of the chart, else on its left. */
export function hoverLabel(
  gap: number,
  v: number,
  at: { cx: number; cy: number },
  width: number,
  breakpoints: ArrayLike<number>,
  threshold: number,
): { x: number; y: number; anchor: 'start' | 'end'; text: string } {
  const right = at.cx < width / 2;
  return {
    x: at.cx + (right ? 8 : -8),
    y: Math.max(MARGIN.top + 10, at.cy - 6),
    anchor: right ? 'start' : 'end',
    text: `gap ${gap + 1} · distance ${Number.isFinite(v) ? v.toFixed(3) : 'none'}${hoverVerdict(gap, v, breakpoints, threshold)} · click to show`,
  };
}
