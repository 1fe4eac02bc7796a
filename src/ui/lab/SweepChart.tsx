import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { select } from 'd3-selection';
import { useEffect, useRef } from 'react';
import type { Series } from '../../state/labSweep';

/** Line colours per series (overlap / strategy), distinguishable and print-safe. */
export const SERIES_COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];

const W = 260;
const H = 150;
const M = { top: 8, right: 10, bottom: 26, left: 44 };

/**
 * One sweep chart: a metric against size, one line per series (d3 scales and axes; the points are focusable
 * buttons: click or Enter applies that configuration).
 */
export function SweepChart(props: { title: string; series: Series[]; format: (y: number) => string; onPick: (point: number) => void; current?: number | null; testId?: string }) {
  const { title, series, format, onPick, current } = props;
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const xMin = Math.max(1, Math.min(...xs, Infinity));
  const xMax = Math.max(...xs, xMin + 1);
  const logX = xMax / xMin >= 8;
  const x = (logX ? scaleLog() : scaleLinear()).domain([xMin, xMax]).range([M.left, W - M.right]);
  const yMax = Math.max(...ys, 0);
  const y = scaleLinear().domain([0, yMax > 0 ? yMax * 1.05 : 1]).nice().range([H - M.bottom, M.top]);
  useEffect(() => {
    if (!xAxis.current || !yAxis.current) return;
    const ticks = [...new Set(xs)].sort((a, b) => a - b);
    select(xAxis.current).call(axisBottom(x).tickValues(ticks.length <= 8 ? ticks : x.ticks(6)).tickFormat((v) => String(v)).tickSizeOuter(0));
    select(yAxis.current).call(axisLeft(y).ticks(4).tickFormat((v) => format(Number(v))).tickSizeOuter(0));
  });
  if (series.length === 0) return null;
  return (
    <figure className="sweep-chart" data-testid={props.testId}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="group" aria-label={`${title} against chunk size`}>
        <g ref={xAxis} className="axis" transform={`translate(0,${H - M.bottom})`} />
        <g ref={yAxis} className="axis" transform={`translate(${M.left},0)`} />
        {series.map((s, i) => (
          <g key={s.key} stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]} fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}>
            <path fill="none" strokeWidth={1.6} d={s.points.map((p, j) => `${j ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join('')} />
            {s.points.map((p) => (
              <circle
                key={p.point}
                className={`sweep-point${current === p.point ? ' is-current' : ''}`}
                cx={x(p.x)}
                cy={y(p.y)}
                r={current === p.point ? 5 : 3.5}
                tabIndex={0}
                role="button"
                aria-label={`${s.label}, size ${p.x}: ${format(p.y)}. Apply this configuration`}
                data-point={p.point}
                onClick={() => onPick(p.point)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onPick(p.point);
                  }
                }}
              >
                <title>{`${s.label}, size ${p.x}: ${format(p.y)} (click to apply)`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}
