import type { Config } from './configSlice';

/**
 * The sweep (pure parts): the grid the user asked for, parsed from the boxes ("128, 256, 512"), and the series the
 * charts draw (one line per overlap, or per strategy / retriever when those vary).
 */

export interface SweepSpec {
  sizes: number[];
  overlaps: number[];
  /** Optional: several strategies or retrievers (empty: the current one). */
  strategies: string[];
  retrievers: string[];
}

export interface SweepPoint {
  /** The configuration's values over the current one. */
  values: Partial<Config>;
  /** Null while not run; error: refused (overlap >= size) or failed. */
  means: Record<string, number> | null;
  chunks: number | null;
  tokens: number | null;
  ms: number;
  error?: string;
}

/** "128, 256 512" → [128, 256, 512]: whole non-negative numbers, duplicates dropped, in order; null when a piece is not one. */
export function parseNumberList(text: string): number[] | null {
  const pieces = text.split(/[\s,;]+/).filter((p) => p !== '');
  const out: number[] = [];
  for (const p of pieces) {
    if (!/^\d+$/.test(p)) return null;
    const n = Number(p);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Every combination, sizes outermost; combinations whose overlap is not below the size are left out. */
export function sweepConfigurations(spec: SweepSpec): Partial<Config>[] {
  const strategies = spec.strategies.length ? spec.strategies : [undefined];
  const retrievers = spec.retrievers.length ? spec.retrievers : [undefined];
  const out: Partial<Config>[] = [];
  for (const strategy of strategies)
    for (const retriever of retrievers)
      for (const size of spec.sizes)
        for (const overlap of spec.overlaps) {
          if (overlap >= size) continue;
          const values: Record<string, unknown> = { size, overlap };
          if (strategy !== undefined) values.strategy = strategy;
          if (retriever !== undefined) values.retriever = retriever;
          out.push(values as Partial<Config>);
        }
  return out;
}

export interface SeriesPoint {
  x: number;
  y: number;
  /** Index into the sweep's points. */
  point: number;
}

export interface Series {
  key: string;
  label: string;
  points: SeriesPoint[];
}

/** The lines of a chart of `metric` against size: one per overlap (and strategy / retriever when those vary). */
export function sweepSeries(points: readonly SweepPoint[], metric: (p: SweepPoint) => number | null): Series[] {
  const byKey = new Map<string, Series>();
  points.forEach((p, i) => {
    const y = metric(p);
    if (y === null || !Number.isFinite(y) || p.values.size === undefined) return;
    const parts: string[] = [];
    if (p.values.strategy !== undefined) parts.push(p.values.strategy);
    if (p.values.retriever !== undefined) parts.push(p.values.retriever);
    parts.push(`overlap ${p.values.overlap ?? 0}`);
    const key = parts.join(' · ');
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = { key, label: key, points: [] }));
    s.points.push({ x: p.values.size, y, point: i });
  });
  for (const s of byKey.values()) s.points.sort((a, b) => a.x - b.x);
  return [...byKey.values()];
}

// ---- the table of every configuration, its sort and its exports ----

/** A column of the sweep's table: a configuration value, a metric mean, or the index's cost. */
export interface SweepColumn {
  key: string;
  label: string;
  kind: 'config' | 'metric' | 'cost';
}

export interface SweepRow {
  /** Index into the sweep's points (a click applies that configuration). */
  point: number;
  values: Record<string, string | number | null>;
  error?: string;
}

const CONFIG_COLUMNS: SweepColumn[] = [
  { key: 'strategy', label: 'Strategy', kind: 'config' },
  { key: 'retriever', label: 'Retriever', kind: 'config' },
  { key: 'size', label: 'Size', kind: 'config' },
  { key: 'overlap', label: 'Overlap', kind: 'config' },
];

/**
 * The table's columns: the configuration values that vary (strategy and retriever only when the sweep set them),
 * then every metric the points carry (in `metricOrder`, others after), then chunks, embedding tokens and time.
 */
export function sweepColumns(points: readonly SweepPoint[], metricOrder: readonly string[], labels: Record<string, string> = {}): SweepColumn[] {
  const config = CONFIG_COLUMNS.filter((c) => c.key === 'size' || c.key === 'overlap' || points.some((p) => (p.values as Record<string, unknown>)[c.key] !== undefined));
  const present = new Set(points.flatMap((p) => (p.means ? Object.keys(p.means) : [])));
  const metrics = [...metricOrder.filter((m) => present.has(m)), ...[...present].filter((m) => !metricOrder.includes(m)).sort()];
  return [
    ...config,
    ...metrics.map((m) => ({ key: m, label: labels[m] ?? m, kind: 'metric' as const })),
    { key: 'chunks', label: 'Chunks', kind: 'cost' },
    { key: 'tokens', label: 'Emb. tokens', kind: 'cost' },
    { key: 'ms', label: 'ms', kind: 'cost' },
  ];
}

/** One row per measured or refused point (points not yet run are left out). */
export function sweepRows(points: readonly SweepPoint[], columns: readonly SweepColumn[]): SweepRow[] {
  const rows: SweepRow[] = [];
  points.forEach((p, point) => {
    if (!p.means && !p.error) return;
    const values: SweepRow['values'] = {};
    for (const c of columns) {
      if (c.kind === 'config') {
        const v = (p.values as Record<string, unknown>)[c.key];
        values[c.key] = typeof v === 'number' || typeof v === 'string' ? v : c.key === 'overlap' ? 0 : null;
      } else if (c.kind === 'metric') values[c.key] = p.means?.[c.key] ?? null;
      else values[c.key] = c.key === 'ms' ? Math.round(p.ms) : (p[c.key as 'chunks' | 'tokens'] ?? null);
    }
    rows.push(p.error ? { point, values, error: p.error } : { point, values });
  });
  return rows;
}

export type SortDirection = 'asc' | 'desc';

/** Rows sorted by a column (numbers numerically, text alphabetically; empty cells last either way); stable. */
export function sortSweepRows(rows: readonly SweepRow[], key: string, direction: SortDirection): SweepRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      const x = a.row.values[key] ?? null;
      const y = b.row.values[key] ?? null;
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((e) => e.row);
}

const csvCell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The table as CSV: a header of column keys, one line per row, metric means as fractions (full precision). */
export function sweepCsv(rows: readonly SweepRow[], columns: readonly SweepColumn[]): string {
  const header = [...columns.map((c) => c.key), 'error'];
  const lines = rows.map((r) => [...columns.map((c) => csvCell(r.values[c.key])), csvCell(r.error)].join(','));
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

/** The sweep as JSON: k, the columns, and one object per configuration (its values, means and cost). */
export function sweepJson(rows: readonly SweepRow[], columns: readonly SweepColumn[], k: number): string {
  const configurations = rows.map((r) => {
    const pick = (kind: SweepColumn['kind']) => Object.fromEntries(columns.filter((c) => c.kind === kind).map((c) => [c.key, r.values[c.key] ?? null]));
    return { configuration: pick('config'), means: pick('metric'), cost: pick('cost'), ...(r.error ? { error: r.error } : {}) };
  });
  return `${JSON.stringify({ k, columns: columns.map((c) => ({ key: c.key, label: c.label })), configurations }, null, 2)}\n`;
}
