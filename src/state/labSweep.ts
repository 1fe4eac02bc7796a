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
