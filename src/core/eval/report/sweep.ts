import { METRIC_NAMES } from '../types';
import { htmlPage } from './html';
import { markdownRows, md } from './markdown';
import { figure, METRIC_LABELS, valueText } from './model';
import { barChart, escapeHtml as e, lineChart, type Series } from './svg';

/**
 * A sweep's report (HTML with inline SVG charts, or markdown): the options every configuration shares, a table of every
 * configuration with every metric (the best value of each metric in bold), and each main metric against the first
 * numeric axis (size when swept), one line per combination of the other axes. Used by `chunkscope sweep --report`
 * and the page's sweep tab.
 */

export interface SweepReportPoint {
  /** The values this configuration sets (the sweep's axes). */
  values: Record<string, unknown>;
  /** Means by metric name (METRIC_NAMES, and ndcg / map when measured); null: not measured (see `error`). */
  means: Record<string, number> | null;
  chunks: number | null;
  embeddingTokens: number | null;
  error?: string;
}

export interface SweepReportInput {
  /** The options every configuration shares. */
  base: Record<string, unknown>;
  points: readonly SweepReportPoint[];
  k: number;
  questions: number;
  /** The documents or files swept over. */
  files: readonly string[];
  generated?: string;
}

const METRIC_ORDER: readonly string[] = [...METRIC_NAMES, 'ndcg', 'map'];
const CHARTED = ['recall', 'iou', 'precisionOmega'] as const;

const label = (m: string) => (METRIC_LABELS as Record<string, string>)[m] ?? m;

/** The sweep's axes: every key a point sets, in first-seen order. */
export function sweepAxes(points: readonly SweepReportPoint[]): string[] {
  const keys: string[] = [];
  for (const p of points) for (const k of Object.keys(p.values)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The metrics any point carries, in the report's order. */
export function sweepMetrics(points: readonly SweepReportPoint[]): string[] {
  const present = new Set(points.flatMap((p) => (p.means ? Object.keys(p.means) : [])));
  return [...METRIC_ORDER.filter((m) => present.has(m)), ...[...present].filter((m) => !METRIC_ORDER.includes(m)).sort()];
}

/** Whether point i ties with the best value of `metric` (every tie is shown as best). */
function isBest(points: readonly SweepReportPoint[], metric: string, best: number, i: number): boolean {
  const v = points[i]!.means?.[metric];
  return best !== -1 && v !== undefined && Math.abs(v - points[best]!.means![metric]!) < 1e-12;
}

/** The index of the best point for a metric (highest mean; first on ties), or -1. */
export function bestPoint(points: readonly SweepReportPoint[], metric: string): number {
  let best = -1;
  points.forEach((p, i) => {
    const v = p.means?.[metric];
    if (v !== undefined && Number.isFinite(v) && (best === -1 || v > points[best]!.means![metric]!)) best = i;
  });
  return best;
}

function configLabel(values: Record<string, unknown>, keys: readonly string[]): string {
  return keys.map((k) => `${k} ${valueText(values[k])}`).join(' · ') || 'current';
}

/** One line per combination of the other axes, `metric` against the first numeric axis; null when no axis is numeric. */
export function sweepSeries(points: readonly SweepReportPoint[], metric: string): { x: string; series: Series[] } | null {
  const axes = sweepAxes(points);
  const x = axes.includes('size') && points.every((p) => typeof p.values.size === 'number') ? 'size' : axes.find((k) => points.every((p) => typeof p.values[k] === 'number'));
  if (x === undefined) return null;
  const others = axes.filter((k) => k !== x);
  const byKey = new Map<string, Series>();
  for (const p of points) {
    const y = p.means?.[metric];
    if (y === undefined || !Number.isFinite(y)) continue;
    const key = configLabel(p.values, others);
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = { label: key, points: [] }));
    s.points.push({ x: p.values[x] as number, y });
  }
  for (const s of byKey.values()) s.points.sort((a, b) => a.x - b.x);
  return { x, series: [...byKey.values()] };
}

function summaryLine(input: SweepReportInput): string {
  const measured = input.points.filter((p) => p.means).length;
  const failed = input.points.length - measured;
  return `${input.points.length} configuration${input.points.length === 1 ? '' : 's'}${failed > 0 ? ` (${failed} not measured)` : ''}, ${input.questions} question${input.questions === 1 ? '' : 's'}, k = ${input.k}.`;
}

function bestLines(input: SweepReportInput, axes: readonly string[]): string[] {
  return CHARTED.flatMap((m) => {
    const i = bestPoint(input.points, m);
    if (i === -1) return [];
    const tied = input.points.filter((_, j) => j !== i && isBest(input.points, m, i, j)).length;
    return [`Best ${label(m)}: ${figure(input.points[i]!.means![m]!, label(m))} with ${configLabel(input.points[i]!.values, axes)}${tied > 0 ? ` (and ${tied} more tied)` : ''}.`];
  });
}

function cells(p: SweepReportPoint, axes: readonly string[], metrics: readonly string[]): string[] {
  return [
    ...axes.map((k) => (k in p.values ? valueText(p.values[k]) : '–')),
    ...metrics.map((m) => (p.means && p.means[m] !== undefined ? figure(p.means[m]!, label(m)) : '–')),
    p.chunks === null ? '–' : String(p.chunks),
    p.embeddingTokens === null ? '–' : String(p.embeddingTokens),
    p.error ?? '',
  ];
}

export function sweepReportHtml(input: SweepReportInput): string {
  const axes = sweepAxes(input.points);
  const metrics = sweepMetrics(input.points);
  const best = new Map(metrics.map((m) => [m, bestPoint(input.points, m)]));
  const head = [...axes, ...metrics.map(label), 'Chunks', 'Embedding tokens', 'Note'];
  const numeric = head.map((_, i) => i >= axes.length && i < head.length - 1);
  const rows = input.points.map((p, i) =>
    cells(p, axes, metrics).map((c, j) => {
      const m = metrics[j - axes.length];
      return m !== undefined && isBest(input.points, m, best.get(m)!, i) ? `<strong>${e(c)}</strong>` : e(c);
    }),
  );
  const cls = (i: number) => (numeric[i] ? ' class="n"' : '');
  const table = `<table><thead><tr>${head.map((h, i) => `<th${cls(i)}>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  const base = Object.entries(input.base).map(([k, v]) => `<tr><td>${e(k)}</td><td><code>${e(valueText(v))}</code></td></tr>`);
  const charts = CHARTED.map((m) => {
    const chart = sweepSeries(input.points, m);
    if (chart) return `<figure>${lineChart(chart.series, { title: `${label(m)} against ${chart.x}`, xLabel: chart.x, yLabel: `mean ${label(m)}` })}<figcaption>Mean ${e(label(m))} against ${e(chart.x)}, one line per combination of the other options.</figcaption></figure>`;
    const names = input.points.map((p) => configLabel(p.values, axes));
    return `<figure>${barChart(names, [{ label: label(m), values: input.points.map((p) => p.means?.[m] ?? null) }], { title: `${label(m)} per configuration` })}</figure>`;
  });
  const body = [
    '<h1>Chunkscope sweep</h1>',
    input.generated ? `<p class="muted">Made ${e(input.generated)} by chunkscope.</p>` : '',
    `<p>${e(summaryLine(input))}</p>`,
    `<ul>${bestLines(input, axes).map((l) => `<li>${e(l)}</li>`).join('')}</ul>`,
    input.files.length > 0 ? `<p class="muted">Documents: ${input.files.map((f) => `<code>${e(f)}</code>`).join(', ')}</p>` : '',
    `<h2>Every configuration</h2><p class="muted">The best value of each metric is in bold (every configuration that ties with it).</p>${table}`,
    `<h2>Charts</h2>${charts.join('')}`,
    base.length > 0 ? `<h2>Options every configuration shares</h2><table><thead><tr><th>Option</th><th>Value</th></tr></thead><tbody>${base.join('')}</tbody></table>` : '',
  ].join('\n');
  return htmlPage('Chunkscope sweep', SWEEP_STYLE, body);
}

const SWEEP_STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;max-width:1100px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.5rem 0;font-size:14px}
th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:#666}figure{margin:1rem 0}figcaption{color:#555;font-size:.9rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}th,td{border-color:#444}svg{background:#fff}}`;

export function sweepReportMarkdown(input: SweepReportInput): string {
  const axes = sweepAxes(input.points);
  const metrics = sweepMetrics(input.points);
  const out = ['# Chunkscope sweep', '', md(summaryLine(input)), ''];
  for (const l of bestLines(input, axes)) out.push(`- ${md(l)}`);
  if (input.files.length > 0) out.push('', `Documents: ${input.files.map(md).join(', ')}`);
  out.push('', '## Every configuration', '', ...markdownRows([...axes, ...metrics.map(label), 'Chunks', 'Embedding tokens', 'Note'], input.points.map((p) => cells(p, axes, metrics))), '');
  const base = Object.entries(input.base);
  if (base.length > 0) out.push('## Options every configuration shares', '', ...markdownRows(['Option', 'Value'], base.map(([k, v]) => [k, valueText(v)])), '');
  return out.join('\n') + '\n';
}
