import type { Scored } from '../bm25/okapi';

/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of rankings (best first): score(d) = Σ weight / (k + rank(d)), ranks from 1; a text absent
 * from a ranking gets nothing from it. Returned best first (ties: earlier text first).
 */
export function reciprocalRankFusion(rankings: readonly { ranking: readonly Scored[]; weight: number }[], k = RRF_K): Scored[] {
  const fused = new Map<number, number>();
  for (const { ranking, weight } of rankings) {
    if (weight === 0) continue;
    ranking.forEach((s, i) => fused.set(s.index, (fused.get(s.index) ?? 0) + weight / (k + i + 1)));
  }
  return [...fused].map(([index, score]) => ({ index, score })).sort((x, y) => y.score - x.score || x.index - y.index);
}
