import { axisBottom, axisLeft } from 'd3-axis';
import { brushX, type BrushBehavior } from 'd3-brush';
import type { ScaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  binned as shouldBin,
  breakpointBins,
  breakpointChanges,
  compact,
  curveLayout,
  type CurveLayout,
  curvePath,
  curveScales,
  denseHint,
  dotAttributes,
  dotPlan,
  GAP_BELOW_PLOT,
  gapAtX,
  gapsInView,
  hoverLabel,
  MARGIN,
  OVERVIEW,
  overviewPath,
  clampThreshold,
  thresholdAfterKey,
  thresholdView,
  viewDomain,
  xTickCount,
  Y_TICKS,
  zoomFromBrush,
} from './curveModel';

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
  /** Points would overlap: breakpoints are drawn as one mark per bin (breakpointBins), not per gap. */
  binned: boolean;
  /** Draws the bins' marks for these breakpoints (binned charts). */
  drawBins: (breakpoints: Int32Array) => void;
  /** How the plot is drawn when it cannot show every gap (null: it shows every gap). */
  hint: string | null;
  /** The circle of a gap, created if it is in view and not drawn (dense mode). */
  dotFor: (gap: number) => SVGCircleElement | undefined;
  noThresholdText: string;
  brush: BrushBehavior<unknown>;
  /** Threshold shown while dragging (before the worker's answer arrives). */
  dragValue: number | null;
  /** Told after a zoom redraws the chart (the hover card follows). */
  onRedraw?: () => void;
}

/**
 * The similarity curve (d3): the distance between neighbouring sentences at every gap, on the document's axis.
 * The threshold is a horizontal line you drag (or move with the arrow keys, Home, End); gaps above it that became
 * boundaries are marked. Hovering a point highlights that sentence pair in the editor, clicking reveals it there.
 * The strip below is an overview of the whole document: brush a range to zoom, double-click the plot to reset.
 */
export function SimilarityCurve(props: SimilarityCurveProps) {
  const { distances, threshold, breakpoints, hoveredGap, height = 200 } = props;
  const host = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const { chart, drawn } = useCurveChart(host, svgRef, props, height);
  useCurveMarks(chart, breakpoints, threshold, props.noThresholdText);
  const card = useHoverCard(chart, hoveredGap, distances, breakpoints, threshold, drawn);
  return (
    <div ref={host} className="curve-host">
      <svg ref={svgRef} className="similarity-curve" role="group" aria-label="Similarity curve" height={height + OVERVIEW + GAP_BELOW_PLOT} />
      {chart.current?.hint && drawn > 0 && <p className="curve-hint">{chart.current.hint}</p>}
      {card && (
        <div
          className="curve-card"
          data-testid="curve-card"
          aria-hidden="true"
          style={{ left: card.left, top: card.top, transform: `translate(${card.anchor === 'end' ? '-100%' : '0'}, ${card.below ? '0' : '-100%'})` }}
        >
          {card.text}
        </div>
      )}
    </div>
  );
}

/**
 * The chart, drawn on new distances, a resize or a zoom. `drawn` counts the draws: the hover card is placed again
 * after each.
 */
function useCurveChart(
  host: RefObject<HTMLDivElement | null>,
  svgRef: RefObject<SVGSVGElement | null>,
  props: SimilarityCurveProps,
  height: number,
): { chart: RefObject<Chart | null>; drawn: number } {
  const { distances, gapOffsets, docLength, threshold, breakpoints } = props;
  const chart = useRef<Chart | null>(null);
  const domain = useRef<[number, number] | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const thresholdRef = useRef(threshold);
  thresholdRef.current = threshold;
  const breakpointsRef = useRef(breakpoints);
  breakpointsRef.current = breakpoints;
  const [drawn, setDrawn] = useState(0);

  useEffect(() => {
    const element = host.current!;
    let frame = 0;
    let drawnWidth = -1;
    const draw = () => {
      const width = Math.max(200, element.clientWidth);
      if (width === drawnWidth) return; // a height change (scroll bars, the panel) needs no redraw
      drawnWidth = width;
      chart.current = drawChart(svgRef.current!, width, height, props, domain, callbacks, thresholdRef, chart.current);
      chart.current.onRedraw = () => setDrawn((n) => n + 1);
      markBreakpoints(chart.current, breakpointsRef.current);
      placeThreshold(chart.current, thresholdRef.current);
      setDrawn((n) => n + 1);
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
  return { chart, drawn };
}

/** A threshold move: the cuts are marked again and the line placed (unless it is being dragged); no redraw. */
function useCurveMarks(chart: RefObject<Chart | null>, breakpoints: Int32Array, threshold: number, noThresholdText: string | undefined): void {
  useEffect(() => {
    if (chart.current) markBreakpoints(chart.current, breakpoints);
  }, [breakpoints]);
  useEffect(() => {
    if (!chart.current) return;
    chart.current.noThresholdText = noThresholdText ?? 'no threshold';
    if (chart.current.dragValue === null) placeThreshold(chart.current, threshold);
  }, [threshold, noThresholdText]);
}

interface HoverCard {
  left: number;
  top: number;
  below: boolean;
  anchor: 'start' | 'end';
  text: string;
}

/**
 * The hovered point and its card, redone whenever what the card says could change (the threshold, the cuts, the
 * data, a zoom): a card never describes a state that is gone.
 */
function useHoverCard(
  chart: RefObject<Chart | null>,
  hoveredGap: number | null,
  distances: Float64Array,
  breakpoints: Int32Array,
  threshold: number,
  drawn: number,
): HoverCard | null {
  const [card, setCard] = useState<HoverCard | null>(null);
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
    const drawnCircle = hoveredGap === null ? undefined : c.circles.get(hoveredGap);
    const circle = hoveredGap === null || hoveredGap >= distances.length ? undefined : (drawnCircle ?? c.dotFor(hoveredGap));
    if (!circle || hoveredGap === null) {
      setCard(null);
      return;
    }
    if (!drawnCircle) circle.classList.add('cs-gap-transient');
    circle.classList.add('cs-gap-hover');
    // What the point is, next to it (the editor underlines the two sentences).
    const at = { cx: Number(circle.getAttribute('cx')), cy: Number(circle.getAttribute('cy')) };
    const label = hoverLabel(hoveredGap, distances[hoveredGap]!, at, c.width, breakpoints, threshold);
    // Above the point, or below it when the point is near the top (the card stays inside the chart).
    setCard({ left: label.x, top: at.cy < 44 ? at.cy + 10 : at.cy - 8, below: at.cy < 44, anchor: label.anchor, text: label.text });
  }, [hoveredGap, distances, breakpoints, threshold, drawn]);
  return card;
}

/** What drawChart's parts share: the SVG, its layout and the scales for the current view. */
type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
type Group = Selection<SVGGElement, unknown, null, undefined>;

/**
 * Draws the whole chart (on new data, a resize or a zoom; a threshold move only calls placeThreshold and
 * markBreakpoints). The parts are appended in this order, which is the SVG's paint order.
 */
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
  const layout = curveLayout(width, height);
  const svg = select(svgElement);
  svg.selectAll('*').remove();
  svg.attr('width', width).attr('viewBox', `0 0 ${width} ${layout.svgHeight}`);
  const axis = viewDomain(domain.current, docLength);
  domain.current = axis.zoom;
  const { x, y, ox, oy } = curveScales(layout, axis.view, axis.full, distances, thresholdRef.current);
  const top = y.domain()[1]!;

  drawAxes(svg, layout, width, x, y);
  const plot = svg.append('g').attr('clip-path', 'url(#curve-clip)');
  const { lo, hi } = gapsInView(gapOffsets, axis.view);
  plot.append('path').attr('class', 'curve-line').attr('d', curvePath(distances, gapOffsets, x, y, lo, hi, layout.plotWidth));
  const marks = drawGapMarks(plot, layout, distances, gapOffsets, x, y, lo, hi);
  bindPlotPointer(svg, svgElement, layout, gapOffsets, x, domain, callbacks, redraw);
  const handle = drawThresholdHandle(svg, layout, top);

  const chart: Chart = {
    svg,
    x,
    y,
    ox,
    width,
    plotBottom: layout.plotBottom,
    ...marks,
    noThresholdText: props.noThresholdText ?? 'no threshold',
    brush: brushX(),
    dragValue: previous?.dragValue ?? null,
  };
  bindThresholdHandle(chart, handle.node()!, svgElement, callbacks, thresholdRef);
  chart.brush = drawOverview(svg, layout, distances, gapOffsets, ox, oy, domain, callbacks, redraw);

  performance.measure('chunkscope:curve', { start: drawStart, detail: { gaps: distances.length } });

  function redraw() {
    const next = drawChart(svgElement, width, height, callbacks.current, domain, callbacks, thresholdRef, chart);
    markBreakpoints(next, callbacks.current.breakpoints);
    placeThreshold(next, thresholdRef.current);
    Object.assign(chart, next, { onRedraw: chart.onRedraw });
    marked.set(chart, marked.get(next) ?? new Set());
    chart.onRedraw?.();
  }
  return chart;
}

/** The plot's clip path, both axes and the y axis' title. */
function drawAxes(svg: Svg, layout: CurveLayout, width: number, x: ScaleLinear<number, number>, y: ScaleLinear<number, number>): void {
  const { left, plotWidth, plotBottom } = layout;
  svg.append('defs').append('clipPath').attr('id', 'curve-clip').append('rect')
    .attr('x', left).attr('y', 0).attr('width', plotWidth).attr('height', plotBottom + 1);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${plotBottom})`)
    .call(axisBottom(x).ticks(xTickCount(width)).tickFormat((v) => compact(Number(v))).tickSizeOuter(0));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).ticks(Y_TICKS).tickSizeOuter(0));
  svg.append('text').attr('class', 'axis-title').attr('x', left + 4).attr('y', MARGIN.top + 2).attr('dy', '0.7em')
    .text('distance (1 − cosine) between neighbouring sentences');
}

type GapMarks = Pick<Chart, 'circles' | 'dense' | 'binned' | 'drawBins' | 'hint' | 'dotFor'>;

/**
 * One circle per gap in view (hover and click are found from the pointer's x, not per-circle listeners). With
 * more than MAX_DOTS in view only breakpoints get one: brush the overview to zoom in and see every gap.
 */
function drawGapMarks(
  plot: Group,
  layout: CurveLayout,
  distances: Float64Array,
  gapOffsets: Int32Array,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  lo: number,
  hi: number,
): GapMarks {
  const { plotWidth, plotBottom } = layout;
  const dotsNode = plot.append('g').attr('class', 'curve-dots').node()!;
  const circles = new Map<number, SVGCircleElement>();
  const inView = hi - lo;
  const plan = dotPlan(inView);
  const binned = shouldBin(inView, plotWidth);
  const dense = plan.dense || binned;
  const radius = binned ? 3 : plan.radius;
  const dotFor = (i: number): SVGCircleElement | undefined => {
    const existing = circles.get(i);
    if (existing) return existing;
    if (i < lo || i >= hi) return undefined;
    const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    const a = dotAttributes(i, distances, gapOffsets, x, y, plotBottom);
    c.setAttribute('class', a.className);
    c.setAttribute('cx', a.cx);
    c.setAttribute('cy', a.cy);
    c.setAttribute('r', String(radius));
    c.setAttribute('data-gap', String(i));
    dotsNode.appendChild(c);
    circles.set(i, c);
    return c;
  };
  const binsNode = plot.append('g').attr('class', 'breakpoint-bins').node()!;
  // A threshold step moves a few bins: the circles drawn last time are reused and only changed attributes written
  // (replacing every circle cost a few ms of DOM work per key on a 1 MiB document).
  const drawBins = (breakpoints: Int32Array) => {
    const bins = breakpointBins(breakpoints, distances, gapOffsets, x, lo, hi);
    bins.forEach((bin, i) => {
      let c = binsNode.children[i] as SVGCircleElement | undefined;
      if (!c) {
        c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
        c.setAttribute('class', 'cs-breakpoint-bin');
        binsNode.appendChild(c);
      }
      setChanged(c, 'cx', bin.x.toFixed(1));
      setChanged(c, 'cy', y(bin.top).toFixed(1));
      setChanged(c, 'r', bin.cuts > 1 ? '3.2' : '2.6');
    });
    while (binsNode.children.length > bins.length) binsNode.lastElementChild!.remove();
  };
  if (!dense) for (let i = lo; i < hi; i++) dotFor(i);
  // Over the plot the hint would sit on the bins: it is a line under the chart (SimilarityCurve renders it).
  const hint = dense ? denseHint(inView) : null;
  return { circles, dense, binned, drawBins, hint, dotFor };
}

/** The plot's overlay: hover and click find the gap from the pointer's x; a double click resets the zoom. */
function bindPlotPointer(
  svg: Svg,
  svgElement: SVGSVGElement,
  layout: CurveLayout,
  gapOffsets: Int32Array,
  x: ScaleLinear<number, number>,
  domain: { current: [number, number] | null },
  callbacks: { current: SimilarityCurveProps },
  redraw: () => void,
): void {
  const { left, plotWidth, plotBottom } = layout;
  const overlay = svg.append('rect').attr('class', 'curve-overlay')
    .attr('x', left).attr('y', MARGIN.top).attr('width', plotWidth).attr('height', plotBottom - MARGIN.top);
  const gapAt = (event: PointerEvent | MouseEvent) => gapAtX(gapOffsets, x, pointer(event, svgElement)[0]);
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
}

/** The threshold: a line with a wide invisible handle; role=slider for keyboards and assistive technology. */
function drawThresholdHandle(svg: Svg, layout: CurveLayout, top: number): Group {
  const { left, right, plotWidth } = layout;
  const handle = svg.append('g').attr('class', 'threshold').attr('role', 'slider').attr('tabindex', 0)
    .attr('aria-label', 'Threshold').attr('aria-orientation', 'vertical')
    .attr('aria-valuemin', 0).attr('aria-valuemax', +top.toFixed(3));
  handle.append('line').attr('class', 'threshold-line').attr('x1', left).attr('x2', right);
  handle.append('rect').attr('class', 'threshold-hit').attr('x', left).attr('width', plotWidth).attr('height', 12);
  handle.append('text').attr('class', 'threshold-label').attr('x', right - 4).attr('text-anchor', 'end');
  return handle;
}

/** Overview strip: the whole document; brushing a range zooms the plot to it. */
function drawOverview(
  svg: Svg,
  layout: CurveLayout,
  distances: Float64Array,
  gapOffsets: Int32Array,
  ox: ScaleLinear<number, number>,
  oy: ScaleLinear<number, number>,
  domain: { current: [number, number] | null },
  callbacks: { current: SimilarityCurveProps },
  redraw: () => void,
): BrushBehavior<unknown> {
  const { left, right, plotWidth, overviewTop: oTop } = layout;
  const overview = svg.append('g').attr('class', 'curve-overview');
  overview.append('rect').attr('class', 'overview-bg').attr('x', left).attr('y', oTop).attr('width', plotWidth).attr('height', OVERVIEW);
  overview.append('path').attr('class', 'overview-line').attr('d', overviewPath(distances, gapOffsets, ox, oy));
  const brush = brushX<unknown>()
    .extent([[left, oTop], [right, oTop + OVERVIEW]])
    .on('end', (event: { selection: [number, number] | null; sourceEvent?: Event }) => {
      if (!event.sourceEvent) return; // moved by code
      domain.current = zoomFromBrush(event.selection, ox);
      callbacks.current.onHover(null);
      redraw();
    });
  const brushG = overview.append('g').attr('class', 'overview-brush').call(brush);
  if (domain.current) brushG.call(brush.move, [ox(domain.current[0]), ox(domain.current[1])]);
  overview.append('text').attr('class', 'overview-title').attr('x', left - 6).attr('y', oTop + OVERVIEW / 2).attr('dy', '0.35em')
    .attr('text-anchor', 'end').text('zoom');
  return brush;
}

/**
 * The threshold handle's pointer drag and keys: the line follows at once; the value goes out at most once per
 * frame while dragging, and as final on release or on a key.
 */
function bindThresholdHandle(
  chart: Chart,
  node: SVGGElement,
  svgElement: SVGSVGElement,
  callbacks: { current: SimilarityCurveProps },
  thresholdRef: { current: number },
): void {
  const { y } = chart;
  const top = y.domain()[1]!;
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
  node.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    node.setPointerCapture(event.pointerId);
    node.focus();
    node.classList.add('is-dragging');
    const move = (e: PointerEvent) => {
      chart.dragValue = clampThreshold(y.invert(pointer(e, svgElement)[1]), top);
      placeThreshold(chart, chart.dragValue);
      emit(chart.dragValue, false);
    };
    const up = () => {
      node.removeEventListener('pointermove', move);
      node.removeEventListener('pointerup', up);
      node.removeEventListener('pointercancel', up);
      node.classList.remove('is-dragging');
      const value = chart.dragValue;
      chart.dragValue = null;
      if (value !== null) emit(value, true);
    };
    node.addEventListener('pointermove', move);
    node.addEventListener('pointerup', up);
    node.addEventListener('pointercancel', up);
  });
  node.addEventListener('keydown', (event) => {
    const next = thresholdAfterKey(event.key, thresholdRef.current, top);
    if (next === null) return;
    event.preventDefault();
    placeThreshold(chart, next);
    emit(next, true);
  });
}

function setChanged(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function pointer(event: PointerEvent | MouseEvent, svg: SVGSVGElement): [number, number] {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const sx = vb && vb.width ? vb.width / box.width : 1;
  const sy = vb && vb.height ? vb.height / box.height : 1;
  return [(event.clientX - box.left) * sx, (event.clientY - box.top) * sy];
}

const marked = new WeakMap<Chart, Set<number>>();
/** Toggle the breakpoint class only where it changed (breakpointChanges). */
function markBreakpoints(chart: Chart, breakpoints: Int32Array): void {
  if (chart.binned) {
    chart.drawBins(breakpoints);
    return;
  }
  const { after, removed, added } = breakpointChanges(marked.get(chart) ?? new Set<number>(), breakpoints);
  for (const gap of removed) {
    const c = chart.circles.get(gap);
    if (!c) continue;
    c.classList.remove('cs-breakpoint');
    if (chart.dense && !c.classList.contains('cs-gap-hover')) {
      c.remove();
      chart.circles.delete(gap);
    }
  }
  for (const gap of added) chart.dotFor(gap)?.classList.add('cs-breakpoint');
  marked.set(chart, after);
}

function placeThreshold(chart: Chart, value: number): void {
  const handle = chart.svg.select<SVGGElement>('g.threshold');
  const view = thresholdView(value, chart.y, chart.noThresholdText);
  handle.attr('aria-valuenow', view.valueNow).attr('aria-valuetext', view.valueText);
  handle.classed('is-none', !view.shown);
  handle.select('line').attr('y1', view.y).attr('y2', view.y);
  handle.select('rect').attr('y', view.y - 6);
  handle.select('text').attr('y', view.y - 4).text(view.label);
}
