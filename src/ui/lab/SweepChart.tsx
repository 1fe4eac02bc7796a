import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { select } from 'd3-selection';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Series } from '../../state/labSweep';

/** Line colours per series (overlap / strategy), distinguishable and print-safe. */
export const SERIES_COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];

const M = { top: 10, right: 14, bottom: 34, left: 56 };
/** Series drawn side by side at one size are moved apart this far (px), so equal values do not hide each other. */
const DODGE_PX = 6;

/** The width the element is laid out at (the chart draws in real pixels, so its 12 px text stays 12 px). */
function useWidth<T extends Element>(fallback: number): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(220, Math.round(el.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

interface Hover {
  series: number;
  point: number;
}

/**
 * One sweep chart: a metric against size, one line per series (d3 scales and axes). Drawn at its laid-out width in
 * pixels (axis text 12 px, 14 px in projector mode). Points of different series at one size are dodged apart; hover
 * or focus shows the value; the points are focusable buttons (click or Enter applies that configuration).
 */
export function SweepChart(props: { title: string; series: Series[]; format: (y: number) => string; onPick: (point: number) => void; current?: number | null; testId?: string; height?: number }) {
  const { title, series, format, onPick, current } = props;
  const [box, W] = useWidth<HTMLElement>(360);
  const H = props.height ?? 210;
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const xMin = Math.max(1, Math.min(...xs, Infinity));
  const xMax = Math.max(...xs, xMin + 1);
  const logX = xMax / xMin >= 8;
  const pad = DODGE_PX * series.length;
  const x = (logX ? scaleLog() : scaleLinear()).domain([xMin, xMax]).range([M.left + pad, W - M.right - pad]);
  const yMax = Math.max(...ys, 0);
  const y = scaleLinear().domain([0, yMax > 0 ? yMax * 1.05 : 1]).nice().range([H - M.bottom, M.top]);
  const dodge = (i: number) => (i - (series.length - 1) / 2) * DODGE_PX;
  useEffect(() => {
    if (!xAxis.current || !yAxis.current) return;
    const ticks = [...new Set(xs)].sort((a, b) => a - b);
    select(xAxis.current).call(axisBottom(x).tickValues(ticks.length <= 8 ? ticks : x.ticks(6)).tickFormat((v) => String(v)).tickSizeOuter(0));
    select(yAxis.current).call(axisLeft(y).ticks(5).tickFormat((v) => format(Number(v))).tickSizeOuter(0).tickSizeInner(-(W - M.left - M.right)));
  });
  if (series.length === 0) return null;
  const hovered = hover ? series[hover.series]?.points.find((p) => p.point === hover.point) : undefined;
  return (
    <figure className="sweep-chart" data-testid={props.testId} ref={box}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="group" aria-label={`${title} against chunk size`} onMouseLeave={() => setHover(null)}>
        <g ref={yAxis} className="axis axis-y" transform={`translate(${M.left},0)`} />
        <g ref={xAxis} className="axis" transform={`translate(0,${H - M.bottom})`} />
        <text className="axis-title" x={(M.left + W - M.right) / 2} y={H - 4} textAnchor="middle">
          chunk size{logX ? ' (log scale)' : ''}
        </text>
        {series.map((s, i) => (
          <g key={s.key} stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]} fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}>
            <path fill="none" strokeWidth={2} d={s.points.map((p, j) => `${j ? 'L' : 'M'}${(x(p.x) + dodge(i)).toFixed(1)},${y(p.y).toFixed(1)}`).join('')} />
            {s.points.map((p) => (
              <circle
                key={p.point}
                className={`sweep-point${current === p.point ? ' is-current' : ''}`}
                cx={x(p.x) + dodge(i)}
                cy={y(p.y)}
                r={current === p.point ? 6 : 4.5}
                tabIndex={0}
                role="button"
                aria-label={`${s.label}, size ${p.x}: ${format(p.y)}. Apply this configuration`}
                data-point={p.point}
                onMouseEnter={() => setHover({ series: i, point: p.point })}
                onFocus={() => setHover({ series: i, point: p.point })}
                onBlur={() => setHover(null)}
                onClick={() => onPick(p.point)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onPick(p.point);
                  }
                }}
              />
            ))}
          </g>
        ))}
        {hover && hovered && <HoverCard text={`${series[hover.series]!.label} · size ${hovered.x}: ${format(hovered.y)}`} px={x(hovered.x) + dodge(hover.series)} py={y(hovered.y)} width={W} />}
      </svg>
    </figure>
  );
}

/** The value under the pointer (or the focused point), in an opaque card kept inside the chart. */
function HoverCard({ text, px, py, width }: { text: string; px: number; py: number; width: number }) {
  const w = Math.min(width - 8, 7.2 * text.length + 14);
  const left = Math.min(Math.max(4, px - w / 2), width - w - 4);
  const top = py - 34 < 2 ? py + 10 : py - 34;
  return (
    <g className="sweep-hover" pointerEvents="none" data-testid="sweep-hover">
      <rect x={left} y={top} width={w} height={24} rx={4} />
      <text x={left + 7} y={top + 16}>
        {text}
      </text>
    </g>
  );
}
