import { axisBottom, axisLeft } from 'd3-axis';
import { brushX, type BrushBehavior } from 'd3-brush';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { useEffect, useRef } from 'react';

export interface SimilarityCurveProps {
  /** 1 − cosine at each sentence gap (NaN: no distance there). */
  distances: Float64Array;
  /** Document offset of each gap (the start of the sentence after it): the curve shares the document's axis. */
  gapOffsets: Int32Array;
  docLength: number;
  /** The threshold on the distance scale, or NaN when none applies (one sentence, gradient mode). */
  threshold: number;
  /** Said on the line when there is no threshold on the distance scale. */
  noThresholdText?: string;
  /** Gaps that became chunk boundaries. */
  breakpoints: Int32Array;
  hoveredGap: number | null;
  /** Called while the threshold line is dragged or moved with the keyboard (`final` on release). */
  onThreshold: (value: number, final: boolean) => void;
  onHover: (gap: number | null) => void;
  onReveal: (gap: number) => void;
  height?: number;
}

const MARGIN = { top: 10, right: 14, bottom: 22, left: 40 };
/** Above this many gaps in view, only breakpoints get a circle (50,000 circles took 2 s to draw). */
const MAX_DOTS = 3000;
const OVERVIEW = 26;
const GAP_BELOW_PLOT = 14;

interface Chart {
  svg: Selection<SVGSVGElement, unknown, null, undefined>;
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  ox: ScaleLinear<number, number>;
  width: number;
  plotBottom: number;
  /** The circles drawn, by gap (all gaps in view, or only breakpoints and the hovered gap when too many). */
  circles: Map<number, SVGCircleElement>;
  /** Too many gaps in view for one circle each: only breakpoints (and the hovered gap) get one. */
  dense: boolean;
  /** The circle of a gap, created if it is in view and not drawn (dense mode). */
  dotFor: (gap: number) => SVGCircleElement | undefined;
  noThresholdText: string;
  brush: BrushBehavior<unknown>;
  /** Threshold shown while dragging (before the worker's answer arrives). */
  dragValue: number | null;
}

/**
 * The similarity curve (d3): the distance between neighbouring sentences at every gap, on the document's axis.
 * The threshold is a horizontal line you drag (or move with the arrow keys, Home, End); gaps above it that became
 * boundaries are marked. Hovering a point highlights that sentence pair in the editor, clicking reveals it there.
 * The strip below is an overview of the whole document: brush a range to zoom, double-click the plot to reset.
 */
export function SimilarityCurve(props: SimilarityCurveProps) {
  const { distances, gapOffsets, docLength, threshold, breakpoints, hoveredGap, height = 200 } = props;
  const host = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const chart = useRef<Chart | null>(null);
  const domain = useRef<[number, number] | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const thresholdRef = useRef(threshold);
  thresholdRef.current = threshold;

  // Redraw the data: on new distances, a resize, or a zoom.
  useEffect(() => {
    const element = host.current!;
    let frame = 0;
    let drawnWidth = -1;
    const draw = () => {
      const width = Math.max(200, element.clientWidth);
      if (width === drawnWidth) return; // a height change (scroll bars, the panel) needs no redraw
      drawnWidth = width;
      chart.current = drawChart(svgRef.current!, width, height, props, domain, callbacks, thresholdRef, chart.current);
      markBreakpoints(chart.current, breakpointsRef.current);
      placeThreshold(chart.current, thresholdRef.current);
    };
    draw();
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(draw);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [distances, gapOffsets, docLength, height]);

  const breakpointsRef = useRef(breakpoints);
  breakpointsRef.current = breakpoints;
  useEffect(() => {
    if (chart.current) markBreakpoints(chart.current, breakpoints);
  }, [breakpoints]);
  useEffect(() => {
    if (!chart.current) return;
    chart.current.noThresholdText = props.noThresholdText ?? 'no threshold';
    if (chart.current.dragValue === null) placeThreshold(chart.current, threshold);
  }, [threshold, props.noThresholdText]);
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    for (const el of c.svg.node()!.querySelectorAll('.cs-gap-hover')) el.classList.remove('cs-gap-hover');
    for (const el of c.svg.node()!.querySelectorAll('.cs-gap-transient')) {
      el.classList.remove('cs-gap-transient');
      if (el.classList.contains('cs-breakpoint')) continue; // became a breakpoint meanwhile: it stays
      c.circles.delete(Number(el.getAttribute('data-gap')));
      el.remove();
    }
    c.svg.select('text.hover-label').remove();
    if (hoveredGap === null) return;
    const drawn = c.circles.get(hoveredGap);
    const circle = drawn ?? c.dotFor(hoveredGap);
    if (!circle) return;
    if (!drawn) circle.classList.add('cs-gap-transient');
    circle.classList.add('cs-gap-hover');
    // What the point is, next to it (the editor underlines the two sentences).
    const v = distances[hoveredGap]!;
    const cx = Number(circle.getAttribute('cx'));
    const cy = Number(circle.getAttribute('cy'));
    const right = cx < c.width / 2;
    c.svg
      .append('text')
      .attr('class', 'hover-label')
      .attr('x', cx + (right ? 8 : -8))
      .attr('y', Math.max(MARGIN.top + 10, cy - 6))
      .attr('text-anchor', right ? 'start' : 'end')
      .text(`gap ${hoveredGap + 1} · distance ${Number.isFinite(v) ? v.toFixed(3) : 'none'}${hoverVerdict(hoveredGap, v)} · click to show`);
  }, [hoveredGap]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Why a gap is or is not a boundary (native mode cuts once per drop: a neighbour of a cut is not cut again). */
  function hoverVerdict(gap: number, v: number): string {
    if (breakpointsRef.current.includes(gap)) return ' · cut here';
    const t = thresholdRef.current;
    if (Number.isFinite(v) && Number.isFinite(t) && v > t) return ' · above the line, not cut: next to a stronger cut, or merged by the size limits';
    return '';
  }

  return (
    <div ref={host} className="curve-host">
      <svg ref={svgRef} className="similarity-curve" role="img" aria-label="Similarity curve" height={height + OVERVIEW + GAP_BELOW_PLOT} />
    </div>
  );
}

function finiteMax(values: Float64Array): number {
  let max = 0;
  for (const v of values) if (Number.isFinite(v) && v > max) max = v;
  return max;
}

function lowerBound(a: Int32Array, value: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function nearestGap(offsets: Int32Array, offset: number): number {
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

function drawChart(
  svgElement: SVGSVGElement,
  width: number,
  height: number,
  props: SimilarityCurveProps,
  domain: { current: [number, number] | null },
  callbacks: { current: SimilarityCurveProps },
  thresholdRef: { current: number },
  previous: Chart | null,
): Chart {
  const { distances, gapOffsets, docLength } = props;
  const drawStart = performance.now();
  const svg = select(svgElement);
  svg.selectAll('*').remove();
  svg.attr('width', width).attr('viewBox', `0 0 ${width} ${height + OVERVIEW + GAP_BELOW_PLOT}`);
  const full: [number, number] = [0, Math.max(1, docLength)];
  if (domain.current && (domain.current[1] > full[1] || domain.current[0] >= domain.current[1])) domain.current = null;
  const [d0, d1] = domain.current ?? full;
  const plotBottom = height - MARGIN.bottom;
  const x = scaleLinear().domain([d0, d1]).range([MARGIN.left, width - MARGIN.right]);
  const top = Math.max(0.05, finiteMax(distances), Number.isFinite(thresholdRef.current) ? thresholdRef.current : 0) * 1.08;
  const y = scaleLinear().domain([0, top]).nice().range([plotBottom, MARGIN.top]);
  const ox = scaleLinear().domain(full).range([MARGIN.left, width - MARGIN.right]);

  svg.append('defs').append('clipPath').attr('id', 'curve-clip').append('rect')
    .attr('x', MARGIN.left).attr('y', 0).attr('width', width - MARGIN.left - MARGIN.right).attr('height', plotBottom + 1);

  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${plotBottom})`)
    .call(axisBottom(x).ticks(Math.max(2, Math.floor(width / 110))).tickFormat((v) => compact(Number(v))).tickSizeOuter(0));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${MARGIN.left},0)`)
    .call(axisLeft(y).ticks(4).tickSizeOuter(0));
  svg.append('text').attr('class', 'axis-title').attr('x', MARGIN.left + 4).attr('y', MARGIN.top + 2).attr('dy', '0.7em')
    .text('distance (1 − cosine) between neighbouring sentences');

  const plot = svg.append('g').attr('clip-path', 'url(#curve-clip)');
  // Gaps in view: [lo, hi) (offsets ascend).
  const lo = lowerBound(gapOffsets, d0);
  const hi = lowerBound(gapOffsets, d1 + 1);
  // The line through the points (gaps without a distance break it). Many points per pixel: each pixel column keeps
  // its lowest and highest value, which draws the same picture.
  const parts: string[] = [];
  const plotWidth = width - MARGIN.left - MARGIN.right;
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
  plot.append('path').attr('class', 'curve-line').attr('d', parts.join(''));

  // One circle per gap in view (hover and click are found from the pointer's x, not per-circle listeners). With
  // more than MAX_DOTS in view only breakpoints get one: brush the overview to zoom in and see every gap.
  const dots = plot.append('g').attr('class', 'curve-dots');
  const circles = new Map<number, SVGCircleElement>();
  const inView = hi - lo;
  const dense = inView > MAX_DOTS;
  const r = inView > 1000 ? 1.8 : inView > 300 ? 2.4 : 3;
  const ns = 'http://www.w3.org/2000/svg';
  const dotsNode = dots.node()!;
  const dotFor = (i: number): SVGCircleElement | undefined => {
    const existing = circles.get(i);
    if (existing) return existing;
    if (i < lo || i >= hi) return undefined;
    const c = document.createElementNS(ns, 'circle');
    const v = distances[i]!;
    c.setAttribute('class', Number.isFinite(v) ? 'cs-gap' : 'cs-gap cs-gap-missing');
    c.setAttribute('cx', x(gapOffsets[i]!).toFixed(1));
    c.setAttribute('cy', (Number.isFinite(v) ? y(v) : plotBottom).toFixed(1));
    c.setAttribute('r', String(dense ? 2.4 : r));
    c.setAttribute('data-gap', String(i));
    dotsNode.appendChild(c);
    circles.set(i, c);
    return c;
  };
  if (!dense) for (let i = lo; i < hi; i++) dotFor(i);
  if (dense) {
    svg.append('text').attr('class', 'axis-title dense-hint').attr('x', width - MARGIN.right - 4).attr('y', plotBottom - 6)
      .attr('text-anchor', 'end').text(`${inView.toLocaleString('en')} gaps: breakpoints shown; brush the strip below to see every gap`);
  }

  const overlay = svg.append('rect').attr('class', 'curve-overlay')
    .attr('x', MARGIN.left).attr('y', MARGIN.top).attr('width', width - MARGIN.left - MARGIN.right).attr('height', plotBottom - MARGIN.top);
  const gapAt = (event: PointerEvent | MouseEvent) => {
    const [px] = pointer(event, svgElement);
    const gap = nearestGap(gapOffsets, x.invert(px));
    if (gap < 0) return null;
    // Only when the pointer is near that point horizontally.
    return Math.abs(x(gapOffsets[gap]!) - px) <= 12 ? gap : null;
  };
  overlay
    .on('pointermove', (event: PointerEvent) => callbacks.current.onHover(gapAt(event)))
    .on('pointerleave', () => callbacks.current.onHover(null))
    .on('click', (event: MouseEvent) => {
      const gap = gapAt(event);
      if (gap !== null) callbacks.current.onReveal(gap);
    })
    .on('dblclick', () => {
      domain.current = null;
      callbacks.current.onHover(null);
      redraw();
    });

  // The threshold: a line with a wide invisible handle; role=slider for keyboards and assistive technology.
  const handle = svg.append('g').attr('class', 'threshold').attr('role', 'slider').attr('tabindex', 0)
    .attr('aria-label', 'Threshold').attr('aria-orientation', 'vertical')
    .attr('aria-valuemin', 0).attr('aria-valuemax', +y.domain()[1]!.toFixed(3));
  handle.append('line').attr('class', 'threshold-line').attr('x1', MARGIN.left).attr('x2', width - MARGIN.right);
  handle.append('rect').attr('class', 'threshold-hit').attr('x', MARGIN.left).attr('width', width - MARGIN.left - MARGIN.right).attr('height', 12);
  handle.append('text').attr('class', 'threshold-label').attr('x', width - MARGIN.right - 4).attr('text-anchor', 'end');

  const chart: Chart = {
    svg,
    x,
    y,
    ox,
    width,
    plotBottom,
    circles,
    dense,
    dotFor,
    noThresholdText: props.noThresholdText ?? 'no threshold',
    brush: brushX(),
    dragValue: previous?.dragValue ?? null,
  };
  const clamp = (v: number) => Math.min(y.domain()[1]!, Math.max(0, v));
  let frame = 0;
  let pending: number | null = null;
  const emit = (value: number, final: boolean) => {
    pending = value;
    if (final) {
      cancelAnimationFrame(frame);
      frame = 0;
      pending = null;
      callbacks.current.onThreshold(value, true);
      return;
    }
    // At most one re-split request per frame while dragging.
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (pending !== null) callbacks.current.onThreshold(pending, false);
      });
    }
  };
  const node = handle.node()!;
  node.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    node.setPointerCapture(event.pointerId);
    node.focus();
    node.classList.add('is-dragging');
    const move = (e: PointerEvent) => {
      const [, py] = pointer(e, svgElement);
      chart.dragValue = clamp(y.invert(py));
      placeThreshold(chart, chart.dragValue);
      emit(chart.dragValue, false);
    };
    const up = (e: PointerEvent) => {
      node.removeEventListener('pointermove', move);
      node.removeEventListener('pointerup', up);
      node.removeEventListener('pointercancel', up);
      node.classList.remove('is-dragging');
      const value = chart.dragValue;
      chart.dragValue = null;
      if (value !== null) emit(value, true);
      void e;
    };
    node.addEventListener('pointermove', move);
    node.addEventListener('pointerup', up);
    node.addEventListener('pointercancel', up);
  });
  node.addEventListener('keydown', (event) => {
    const current = Number.isFinite(thresholdRef.current) ? thresholdRef.current : y.domain()[1]! / 2;
    const step = y.domain()[1]! / 100;
    let next: number | null = null;
    if (event.key === 'ArrowUp' || event.key === 'ArrowRight') next = current + step;
    else if (event.key === 'ArrowDown' || event.key === 'ArrowLeft') next = current - step;
    else if (event.key === 'PageUp') next = current + step * 10;
    else if (event.key === 'PageDown') next = current - step * 10;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = y.domain()[1]!;
    if (next === null) return;
    event.preventDefault();
    next = clamp(next);
    placeThreshold(chart, next);
    emit(next, true);
  });

  // Overview strip: the whole document; brushing a range zooms the plot to it.
  const oTop = height + GAP_BELOW_PLOT - 6;
  const overview = svg.append('g').attr('class', 'curve-overview');
  const oy = scaleLinear().domain(y.domain()).range([oTop + OVERVIEW - 4, oTop + 2]);
  const oparts: string[] = [];
  const stride = Math.max(1, Math.floor(distances.length / 1500));
  for (let i = 0; i < distances.length; i += stride) {
    const v = distances[i]!;
    if (Number.isFinite(v)) oparts.push(`${oparts.length ? 'L' : 'M'}${ox(gapOffsets[i]!).toFixed(1)},${oy(v).toFixed(1)}`);
  }
  overview.append('rect').attr('class', 'overview-bg').attr('x', MARGIN.left).attr('y', oTop).attr('width', width - MARGIN.left - MARGIN.right).attr('height', OVERVIEW);
  overview.append('path').attr('class', 'overview-line').attr('d', oparts.join(''));
  const brush = brushX<unknown>()
    .extent([[MARGIN.left, oTop], [width - MARGIN.right, oTop + OVERVIEW]])
    .on('end', (event: { selection: [number, number] | null; sourceEvent?: Event }) => {
      if (!event.sourceEvent) return; // moved by code
      if (!event.selection || event.selection[1] - event.selection[0] < 3) {
        domain.current = null;
      } else {
        domain.current = [ox.invert(event.selection[0]), ox.invert(event.selection[1])];
      }
      redraw();
    });
  chart.brush = brush;
  const brushG = overview.append('g').attr('class', 'overview-brush').call(brush);
  if (domain.current) brushG.call(brush.move, [ox(domain.current[0]), ox(domain.current[1])]);
  overview.append('text').attr('class', 'overview-title').attr('x', MARGIN.left - 6).attr('y', oTop + OVERVIEW / 2).attr('dy', '0.35em')
    .attr('text-anchor', 'end').text('zoom');

  performance.measure('chunkscope:curve', { start: drawStart, detail: { gaps: distances.length } });

  function redraw() {
    const next = drawChart(svgElement, width, height, callbacks.current, domain, callbacks, thresholdRef, chart);
    markBreakpoints(next, callbacks.current.breakpoints);
    placeThreshold(next, thresholdRef.current);
    Object.assign(chart, next);
    marked.set(chart, marked.get(next) ?? new Set());
  }
  return chart;
}

function pointer(event: PointerEvent | MouseEvent, svg: SVGSVGElement): [number, number] {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const sx = vb && vb.width ? vb.width / box.width : 1;
  const sy = vb && vb.height ? vb.height / box.height : 1;
  return [(event.clientX - box.left) * sx, (event.clientY - box.top) * sy];
}

const marked = new WeakMap<Chart, Set<number>>();
/** Toggle the breakpoint class only where it changed (a drag moves a few of thousands). */
function markBreakpoints(chart: Chart, breakpoints: Int32Array): void {
  const before = marked.get(chart) ?? new Set<number>();
  const after = new Set<number>(breakpoints);
  for (const gap of before) {
    if (after.has(gap)) continue;
    const c = chart.circles.get(gap);
    if (!c) continue;
    c.classList.remove('cs-breakpoint');
    if (chart.dense && !c.classList.contains('cs-gap-hover')) {
      c.remove();
      chart.circles.delete(gap);
    }
  }
  for (const gap of after) if (!before.has(gap)) chart.dotFor(gap)?.classList.add('cs-breakpoint');
  marked.set(chart, after);
}

function placeThreshold(chart: Chart, value: number): void {
  const handle = chart.svg.select<SVGGElement>('g.threshold');
  const shown = Number.isFinite(value);
  const yPos = shown ? chart.y(Math.min(value, chart.y.domain()[1]!)) : chart.y(chart.y.domain()[1]!);
  handle.attr('aria-valuenow', shown ? +value.toFixed(4) : null).attr('aria-valuetext', shown ? `distance ${value.toFixed(3)}` : 'none');
  handle.classed('is-none', !shown);
  handle.select('line').attr('y1', yPos).attr('y2', yPos);
  handle.select('rect').attr('y', yPos - 6);
  handle.select('text').attr('y', yPos - 4).text(shown ? `threshold ${value.toFixed(3)}` : chart.noThresholdText);
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(n);
}
