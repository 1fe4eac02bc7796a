import type { ComparedMetric, Significance } from '../../core/eval/significance';
import { METRIC_LABELS, signed } from '../../core/eval/report/model';

/** The metrics in percentage points (one axis): MRR, NDCG and MAP are decimals and stay in the table. */
const CHARTED: readonly ComparedMetric[] = ['recall', 'iou', 'precisionOmega', 'precision', 'hit'];

const WIDTH = 560;
const LEFT = 96;
const RIGHT = 24;
const ROW = 24;
const TOP = 8;
const AXIS = 34;

/** Round axis steps in percentage points. */
function tickStep(range: number): number {
  for (const s of [0.5, 1, 2, 5, 10, 20, 25, 50]) if (range / s <= 6) return s;
  return 100;
}

/**
 * B − A with its 95% interval for each percentage metric, around zero: an interval that crosses the zero line is a
 * difference the data cannot tell from none. React SVG (text as text nodes), 12 px labels.
 */
export function CiChart({ significance }: { significance: Significance<ComparedMetric> }) {
  const rows = CHARTED.map((m) => ({ m, d: significance.difference[m] }));
  const extent = Math.max(0.01, ...rows.flatMap(({ d }) => [Math.abs(d.ci95[0]), Math.abs(d.ci95[1]), Math.abs(d.mean)])) * 100;
  const step = tickStep(2 * extent);
  const limit = Math.ceil(extent / step) * step;
  const x = (v: number) => LEFT + ((v * 100 + limit) / (2 * limit)) * (WIDTH - LEFT - RIGHT);
  const height = TOP + rows.length * ROW + AXIS;
  const ticks: number[] = [];
  for (let t = -limit; t <= limit + 1e-9; t += step) ticks.push(Math.round(t * 10) / 10);
  return (
    <svg className="lab-ci-chart" data-testid="compare-ci-chart" viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="img" aria-label="B minus A with 95% confidence intervals">
      <title>B − A per metric with its 95% interval (percentage points)</title>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t / 100)} x2={x(t / 100)} y1={TOP} y2={TOP + rows.length * ROW} className={t === 0 ? 'zero' : 'grid'} />
          <text x={x(t / 100)} y={TOP + rows.length * ROW + 16} textAnchor="middle">
            {t > 0 ? `+${t}` : t}
          </text>
        </g>
      ))}
      <text x={(LEFT + WIDTH - RIGHT) / 2} y={height - 2} textAnchor="middle" className="axis-label">
        B − A, percentage points (bars: 95% interval)
      </text>
      {rows.map(({ m, d }, i) => {
        const y = TOP + i * ROW + ROW / 2;
        const significant = d.pValue < significance.alpha;
        const cls = significant ? (d.mean > 0 ? 'b' : 'a') : 'none';
        return (
          <g key={m} className={`ci-row ci-${cls}`}>
            <text x={LEFT - 8} y={y + 4} textAnchor="end" className={m === significance.metric ? 'verdict' : ''}>
              {METRIC_LABELS[m]}
            </text>
            <line x1={x(d.ci95[0])} x2={x(d.ci95[1])} y1={y} y2={y} className="ci" />
            <line x1={x(d.ci95[0])} x2={x(d.ci95[0])} y1={y - 5} y2={y + 5} className="ci" />
            <line x1={x(d.ci95[1])} x2={x(d.ci95[1])} y1={y - 5} y2={y + 5} className="ci" />
            <circle cx={x(d.mean)} cy={y} r={4}>
              <title>{`${METRIC_LABELS[m]}: ${signed(d.mean, METRIC_LABELS[m])}, 95% CI ${signed(d.ci95[0], METRIC_LABELS[m])} to ${signed(d.ci95[1], METRIC_LABELS[m])}`}</title>
            </circle>
          </g>
        );
      })}
    </svg>
  );
}
