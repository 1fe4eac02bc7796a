import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { useEffect, useRef } from 'react';
import { countBins } from './bins';

interface Props {
  sizes: ArrayLike<number>;
  /** The size limit: drawn as a line; bins above it are flagged. */
  limit: number;
  unit: string;
  width?: number;
  height?: number;
}

const MARGIN = { top: 16, right: 12, bottom: 22, left: 30 };

function compact(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${+(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** Histogram of chunk sizes (d3), with the limit marked and over-limit bars flagged. */
export function SizeHistogram({ sizes, limit, unit, width = 340, height = 132 }: Props) {
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => drawHistogram(svgRef.current!, sizes, limit, unit, width, height), [sizes, limit, unit, width, height]);

  return (
    <svg
      ref={svgRef}
      className="histogram"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Histogram of chunk sizes in ${unit}${limit > 0 && Number.isFinite(limit) ? `, limit ${limit}` : ', no size limit'}`}
    />
  );
}

/** Draws the bars, both axes and the limit line into `svgElement` (emptied first). */
function drawHistogram(svgElement: SVGSVGElement, sizes: ArrayLike<number>, limit: number, unit: string, width: number, height: number): void {
  const svg = select(svgElement);
  svg.selectAll('*').remove();
  if (sizes.length === 0) return;
  let largest = 0;
  for (let i = 0; i < sizes.length; i++) if (sizes[i]! > largest) largest = sizes[i]!;
  const top = Math.max(largest, Number.isFinite(limit) ? limit : 0, 1);
  const x = scaleLinear().domain([0, top * 1.04]).nice().range([MARGIN.left, width - MARGIN.right]);
  const bins = countBins(sizes, binEdges(x, limit));
  const y = scaleLinear()
    .domain([0, Math.max(1, ...bins.map((b) => b.count))])
    .nice()
    .range([height - MARGIN.bottom, MARGIN.top]);

  svg
    .append('g')
    .selectAll('rect')
    .data(bins.filter((b) => b.count > 0))
    .join('rect')
    .attr('class', (b) => (limit > 0 && b.x0 >= limit ? 'bar bar-over' : 'bar'))
    .attr('x', (b) => x(b.x0) + 0.5)
    .attr('width', (b) => Math.max(1, x(b.x1) - x(b.x0) - 1))
    .attr('y', (b) => y(b.count))
    .attr('height', (b) => y(0) - y(b.count))
    .append('title')
    .text((b) => `${b.count} chunk${b.count === 1 ? '' : 's'} of ${b.x0}–${b.x1} ${unit}`);

  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height - MARGIN.bottom})`)
    .call(
      axisBottom(x)
        .ticks(5)
        .tickFormat((d) => compact(Number(d)))
        .tickSizeOuter(0),
    );
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(
      axisLeft(y)
        .tickValues(y.ticks(3).filter(Number.isInteger))
        .tickFormat((d) => compact(Number(d)))
        .tickSizeOuter(0),
    );

  drawLimit(svg, x, limit, width, height);
}

/** The bins' edges: the axis' ticks, its ends, and the limit (so no bar straddles it), in order. */
function binEdges(x: ScaleLinear<number, number>, limit: number): number[] {
  const [d0, d1] = x.domain() as [number, number];
  const thresholds = x.ticks(24).filter((t) => t > d0 && t < d1);
  thresholds.push(d0, d1);
  // Make the limit a bin edge so no bar straddles it.
  if (limit > d0 && limit < d1 && !thresholds.includes(limit)) thresholds.push(limit);
  thresholds.sort((a, b) => a - b);
  return thresholds;
}

/** The limit's line and label, when the limit is on the axis. */
function drawLimit(svg: Selection<SVGSVGElement, unknown, null, undefined>, x: ScaleLinear<number, number>, limit: number, width: number, height: number): void {
  if (limit > 0 && x(limit) <= width - MARGIN.right) {
    const g = svg.append('g').attr('class', 'limit');
    g.append('line')
      .attr('x1', x(limit))
      .attr('x2', x(limit))
      .attr('y1', MARGIN.top - 2)
      .attr('y2', height - MARGIN.bottom);
    // The label sits above the plot, on the side of the line with room for it.
    const labelLeftOfLine = x(limit) > (MARGIN.left + width - MARGIN.right) / 2;
    g.append('text')
      .attr('x', x(limit) + (labelLeftOfLine ? -3 : 3))
      .attr('y', MARGIN.top - 6)
      .attr('text-anchor', labelLeftOfLine ? 'end' : 'start')
      .text(`limit ${limit}`);
  }
}
