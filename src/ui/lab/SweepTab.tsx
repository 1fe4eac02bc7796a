import { useEffect, useState } from 'react';
import { getRetriever, METRIC_NAMES, RETRIEVERS, STRATEGY_NAMES } from '../../core/describe';
import { cancelSweep, downloadFile, runSweep } from '../../state/controller';
import { ReportExport } from './ReportExport';
import type { Config } from '../../state/configSlice';
import { denseBelowBm25Note } from '../../state/labBaseline';
import { parseNumberList, sortSweepRows, sweepColumns, sweepCsv, sweepJson, sweepRows, sweepSeries, type SortDirection, type SweepColumn, type SweepPoint } from '../../state/labSweep';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import { strategyDefinition } from '../../state/strategyInfo';
import { formatNumber } from '../panels/format';
import { SERIES_COLOURS, SweepChart } from './SweepChart';
import { METRIC_LABELS, metric, pct } from './labCommon';

const STRATEGY_CHOICES = STRATEGY_NAMES;

/** The sweep: a grid of sizes × overlaps (× strategies × retrievers) scored in the worker, as charts and a table. */
export function SweepTab() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const sweep = useStore((s) => s.sweepState);
  const [sizes, setSizes] = useState('128, 256, 512, 1024');
  const [overlaps, setOverlaps] = useState('0, 64');
  const [strategies, setStrategies] = useState<string[]>([]);
  const [retrievers, setRetrievers] = useState<string[]>([]);
  const sizeList = parseNumberList(sizes);
  const overlapList = parseNumberList(overlaps);
  const problem = !sizeList || sizeList.length === 0 ? 'Sizes: whole numbers separated by commas.' : !overlapList || overlapList.length === 0 ? 'Overlaps: whole numbers separated by commas.' : null;
  const count = problem ? 0 : sizeList!.length * overlapList!.length * Math.max(1, strategies.length) * Math.max(1, retrievers.length);
  const start = () => {
    if (problem) return;
    void runSweep({ sizes: sizeList!, overlaps: overlapList!, strategies, retrievers });
  };
  const points = sweep?.points ?? [];
  const apply = (i: number) => {
    const p = points[i];
    if (p) setConfig(p.values);
  };
  const currentPoint = points.findIndex((p) => Object.entries(p.values).every(([k, v]) => (config as unknown as Record<string, unknown>)[k] === v));
  const k = config.chunksInContext;
  return (
    <div className="lab-sweep">
      <div className="lab-row lab-sweep-form">
        <label>
          Sizes <input type="text" value={sizes} onChange={(e) => setSizes(e.target.value)} aria-label="Sweep sizes" />
        </label>
        <label>
          Overlaps <input type="text" value={overlaps} onChange={(e) => setOverlaps(e.target.value)} aria-label="Sweep overlaps" />
        </label>
        <SweepChoices strategies={strategies} retrievers={retrievers} setStrategies={setStrategies} setRetrievers={setRetrievers} />
        {sweep?.running ? (
          <button type="button" onClick={cancelSweep}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={start} disabled={Boolean(problem)}>
            Run sweep ({count})
          </button>
        )}
      </div>
      {problem && <p className="lab-error">{problem}</p>}
      {sweep && (
        <div className="lab-progress-row">
          <progress max={Math.max(1, sweep.points.length)} value={sweep.done} aria-label="Sweep progress" />
          <span className="muted small" data-testid="sweep-status">
            {sweep.running ? `${sweep.done} of ${sweep.points.length} configurations…` : sweep.error ? sweep.error : `${sweep.done} configurations in ${(sweep.ms / 1000).toFixed(1)} s`}
          </span>
        </div>
      )}
      {sweep?.error && !sweep.running && sweep.done === 0 && null}
      {points.some((p) => p.means) && (
        <>
          <SweepLegend points={points} />
          <div className="lab-charts">
            <SweepChart title={`Recall@${k}`} series={sweepSeries(points, (p) => p.means?.recall ?? null)} format={pct} onPick={apply} current={currentPoint} testId="chart-recall" />
            <SweepChart title="IoU" series={sweepSeries(points, (p) => p.means?.iou ?? null)} format={pct} onPick={apply} current={currentPoint} testId="chart-iou" />
            <SweepChart title="Chunks in the index" series={sweepSeries(points, (p) => p.chunks)} format={(v) => formatNumber(v, 0)} onPick={apply} current={currentPoint} testId="chart-chunks" />
            <SweepChart title="Embedding tokens" series={sweepSeries(points, (p) => p.tokens)} format={(v) => compact(v)} onPick={apply} current={currentPoint} testId="chart-tokens" />
          </div>
          <p className="hint">Hover a point for its value; click it (or focus it and press Enter), or a row of the table, to apply that configuration.</p>
          <SweepBaselineNote points={points} />
          <SweepTable points={points} k={k} onPick={apply} current={currentPoint} />
        </>
      )}
      {points.some((p) => p.error) && (
        <p className="muted small">
          Refused: {points.filter((p) => p.error).map((p) => `size ${p.values.size}/overlap ${p.values.overlap}: ${p.error}`).slice(0, 3).join('; ')}
        </p>
      )}
    </div>
  );
}

/** The sweep's optional axes: strategies (those with a size) and retrievers; none ticked: the current one. */
function SweepChoices(props: { strategies: string[]; retrievers: string[]; setStrategies: (l: string[]) => void; setRetrievers: (l: string[]) => void }) {
  const { strategies, retrievers, setStrategies, setRetrievers } = props;
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  return (
    <details className="lab-more">
      <summary>Strategies, retrievers{strategies.length + retrievers.length ? ` (${strategies.length + retrievers.length})` : ''}</summary>
      <fieldset>
        <legend>Strategies (none: the current one)</legend>
        {STRATEGY_CHOICES.filter((id) => strategyDefinition(id).controls.includes('size')).map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked={strategies.includes(id)} onChange={() => setStrategies(toggle(strategies, id))} /> {strategyDefinition(id).label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Retrievers (none: the current one)</legend>
        {RETRIEVERS.map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked={retrievers.includes(id)} onChange={() => setRetrievers(toggle(retrievers, id))} /> {id}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

function compact(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(0)}k` : String(Math.round(v));
}

function SweepLegend({ points }: { points: SweepPoint[] }) {
  const series = sweepSeries(points, (p) => p.means?.recall ?? null);
  return (
    <ul className="lab-legend" aria-label="Lines in the charts" data-testid="sweep-legend">
      {series.map((s, i) => (
        <li key={s.key}>
          <span className="lab-legend-swatch" style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** The sweep's one-line baseline note: a retriever that embeds scored below BM25 (mean recall over the same grid). */
function SweepBaselineNote({ points }: { points: SweepPoint[] }) {
  const embedder = useStore((s) => s.config.embedder);
  const current = useStore((s) => s.config.retriever);
  const recallOf = (retriever: string) => {
    const rs = points.filter((p) => (p.values.retriever ?? current) === retriever && p.means).map((p) => p.means!.recall ?? Number.NaN);
    return rs.length ? rs.reduce((a, b) => a + b, 0) / rs.length : Number.NaN;
  };
  const bm25 = recallOf('bm25');
  const worst = RETRIEVERS.filter((r) => r !== 'bm25')
    .map((r) => ({ r, recall: recallOf(r) }))
    .filter((e) => Number.isFinite(e.recall))
    .sort((a, b) => a.recall - b.recall)[0];
  const note = worst ? denseBelowBm25Note({ retriever: worst.r, embedder, recall: worst.recall, bm25Recall: bm25, online: navigator.onLine }) : null;
  return note ? (
    <p className="lab-baseline small" role="note" data-testid="sweep-baseline-note">
      Over this sweep: {note}
    </p>
  ) : null;
}

/** How a cell of the sweep's table reads: metrics as percentages (MRR as a fraction), counts grouped. */
function sweepCell(column: SweepColumn, v: string | number | null): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'string') return column.key === 'strategy' ? strategyDefinition(v as Config['strategy']).label : column.key === 'retriever' ? getRetriever(v).label : v;
  if (column.kind === 'metric') return column.key === 'reciprocalRank' || column.key === 'map' || column.key === 'ndcg' ? v.toFixed(3) : pct(v);
  if (column.key === 'tokens') return compact(v);
  return formatNumber(v, 0);
}

/**
 * Measures each render of the table, from the render's start to the frame after it is committed, as the performance
 * measure 'chunkscope:sweep-table' (bench/lab.bench.ts reads it: a 48-configuration table should render in 100 ms).
 */
function useTableRenderMeasure(): void {
  const startedAt = performance.now();
  useEffect(() => {
    let frame = requestAnimationFrame(() => {
      frame = 0;
      setTimeout(() => performance.measure('chunkscope:sweep-table', { start: startedAt }), 0);
    });
    return () => {
      if (frame) cancelAnimationFrame(frame);
    };
  });
}

/**
 * Every configuration of the sweep with every metric, sortable by any column (click its header; again: the other
 * way), a row click applies it; exported as CSV or JSON (full precision, fractions).
 */
function SweepTable({ points, k, onPick, current }: { points: SweepPoint[]; k: number; onPick: (point: number) => void; current: number }) {
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | null>(null);
  const labels = Object.fromEntries(Object.entries(METRIC_LABELS).map(([m, l]) => [m, m === 'hit' ? `Hit@${k}` : l])) as Record<string, string>;
  const columns = sweepColumns(points, METRIC_NAMES, labels);
  const rows = sweepRows(points, columns);
  const shown = sort ? sortSweepRows(rows, sort.key, sort.direction) : rows;
  const toggle = (key: string, kind: SweepColumn['kind']) =>
    setSort((s) => (s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: kind === 'metric' ? 'desc' : 'asc' }));
  useTableRenderMeasure();
  const save = (format: 'csv' | 'json') =>
    format === 'csv' ? downloadFile('chunkscope-sweep.csv', sweepCsv(shown, columns), 'text/csv') : downloadFile('chunkscope-sweep.json', sweepJson(shown, columns, k), 'application/json');
  return (
    <div className="lab-sweep-table-box">
      <div className="lab-io">
        <span className="muted small">
          {rows.length} configuration{rows.length === 1 ? '' : 's'} · k = {k}
        </span>
        <button type="button" className="link" onClick={() => save('csv')}>
          Export sweep as CSV
        </button>
        <button type="button" className="link" onClick={() => save('json')}>
          Export sweep as JSON
        </button>
        <ReportExport kind="sweep" />
      </div>
      <div className="lab-table-scroll">
        <table className="lab-means lab-sweep-table" data-testid="sweep-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" aria-sort={sort?.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="lab-sort" onClick={() => toggle(c.key, c.kind)}>
                    {c.label}
                    <span aria-hidden="true">{sort?.key === c.key ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.point} className={r.point === current ? 'is-current' : undefined} data-point={r.point} onClick={() => onPick(r.point)} title={r.error ?? 'Click to apply this configuration'}>
                {columns.map((c) => (
                  <td key={c.key} className={c.kind === 'config' ? 'lab-cell-config' : undefined}>
                    {r.error && c.kind === 'metric' ? (c === columns.find((x) => x.kind === 'metric') ? <span className="lab-flag">{r.error}</span> : '') : sweepCell(c, r.values[c.key] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
