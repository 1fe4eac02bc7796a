import type { Range } from '../types';
import { intersectionLength, mergeRanges, totalLength } from './metrics';
import type { DocumentSpan } from './types';

/**
 * Rank metrics on character ranges. A unit's gain is the number of answer characters it holds:
 * g(u) = |u ∩ ∪E| (u a unit of the question's document; 0 for a unit of another document), so a chunk is relevant
 * in proportion to the answer it holds, and overlapping chunks each count what they hold.
 *
 *   NDCG@k = DCG@k / IDCG@k, DCG@k = Σ_{i=1..k} g(r_i) / log2(i + 1), IDCG@k = the same over the document's units
 *            sorted by gain, largest first (the best ranking there is); 0 when no unit holds answer characters.
 *   AP@k   = Σ_{i ≤ k, g(r_i) > 0} (g(r_i) / G) · P@i, G = Σ g(u) over every unit of the document, P@i = the share of
 *            the first i units that hold answer characters. With equal gains it is the usual AP@k (each relevant
 *            unit weighs 1/R); a unit holding 80% of the answer weighs four times one holding 20%. MAP = the mean of AP.
 *   recall@k for k = 1..20: Chroma's recall (./metrics.ts) of the first k units, as a curve.
 */

export interface RankMetrics {
  ndcg: number;
  averagePrecision: number;
}

export const RECALL_CURVE_MAX_K = 20;

/** g(u) for each unit: the answer characters it holds (units of other documents hold none). */
export function answerGains(references: readonly Range[], documentId: string, units: readonly DocumentSpan[]): number[] {
  const refs = mergeRanges(references);
  return units.map((u) => (u.documentId === documentId ? intersectionLength([{ start: u.start, end: u.end }], refs) : 0));
}

/** NDCG@k of a ranking's gains, against every unit's gains (the ideal ranking is drawn from those). */
export function ndcgAtK(rankedGains: readonly number[], allGains: readonly number[], k: number): number {
  const dcg = (gains: readonly number[]) => gains.slice(0, k).reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  const ideal = dcg([...allGains].sort((a, b) => b - a));
  return ideal > 0 ? Math.min(1, dcg(rankedGains) / ideal) : 0;
}

/** AP@k with each relevant unit weighed by its share of the answer characters (see the header). */
export function averagePrecisionAtK(rankedGains: readonly number[], allGains: readonly number[], k: number): number {
  const total = allGains.reduce((s, g) => s + g, 0);
  if (total <= 0) return 0;
  let relevant = 0;
  let ap = 0;
  rankedGains.slice(0, k).forEach((g, i) => {
    if (g <= 0) return;
    relevant++;
    ap += (g / total) * (relevant / (i + 1));
  });
  return Math.min(1, ap);
}

/** A question's NDCG@k and AP@k. `ranking`: the retrieved units best first; `units`: every unit of its document. */
export function rankMetrics(references: readonly Range[], documentId: string, ranking: readonly DocumentSpan[], units: readonly DocumentSpan[], k: number): RankMetrics {
  const ranked = answerGains(references, documentId, ranking);
  const all = answerGains(references, documentId, units);
  return { ndcg: ndcgAtK(ranked, all, k), averagePrecision: averagePrecisionAtK(ranked, all, k) };
}

/**
 * recall@k for k = 1..maxK: Chroma's recall (./metrics.ts) of the first k units, in one pass: each answer character
 * is marked once when a unit first covers it (a ranking shorter than k keeps its last value).
 */
export function recallCurve(references: readonly Range[], documentId: string, ranking: readonly DocumentSpan[], maxK = RECALL_CURVE_MAX_K): number[] {
  const refs = mergeRanges(references);
  const total = totalLength(references);
  const offsets: number[] = [];
  let length = 0;
  for (const r of refs) {
    offsets.push(length);
    length += r.end - r.start;
  }
  const seen = new Uint8Array(length);
  let covered = 0;
  const out: number[] = [];
  for (let k = 1; k <= maxK; k++) {
    const u = ranking[k - 1];
    if (u && u.documentId === documentId) {
      refs.forEach((r, j) => {
        for (let c = Math.max(r.start, u.start); c < Math.min(r.end, u.end); c++) {
          const at = offsets[j]! + c - r.start;
          if (seen[at] === 0) {
            seen[at] = 1;
            covered++;
          }
        }
      });
    }
    out.push(total > 0 ? covered / total : 0);
  }
  return out;
}

/** The mean curve over questions: [{ k: 1, recall }, ...]. */
export function meanRecallCurve(curves: readonly (readonly number[])[], maxK = RECALL_CURVE_MAX_K): { k: number; recall: number }[] {
  return Array.from({ length: maxK }, (_, i) => ({ k: i + 1, recall: curves.length > 0 ? curves.reduce((s, c) => s + c[i]!, 0) / curves.length : 0 }));
}

/** Mean NDCG and MAP over questions. */
export function meanRankMetrics(all: readonly RankMetrics[]): { ndcg: number; map: number } {
  if (all.length === 0) return { ndcg: 0, map: 0 };
  return { ndcg: all.reduce((s, r) => s + r.ndcg, 0) / all.length, map: all.reduce((s, r) => s + r.averagePrecision, 0) / all.length };
}
