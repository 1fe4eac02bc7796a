import type { Range } from '../types';
import { METRIC_NAMES, type DocumentSpan, type MeanMetrics, type QuestionMetrics } from './types';

/**
 * Chroma's chunking_evaluation metrics (evaluation_framework/base_evaluation.py) restated on merged ranges. For the
 * question's references E (in document D) and the k retrieved units R, C = the union of the units of R in D:
 *   N = |C ∩ ∪E|                      (the answer text retrieved, each character once)
 *   recall    = N / Σ|e|              (a plain sum over the references, as Chroma's)
 *   precision = N / Σ|r|              (every retrieved unit counts, also those of other documents)
 *   iou       = N / (Σ|r| + Σ_e |e \ C|)
 *   precisionOmega = |∪T ∩ ∪E| / |∪T ∪ ∪E|, T = the units of D touching a reference (an empty intersection
 *                  counts, as Chroma's `intersect_two_ranges` returns (x, x)); 0 when no unit touches one.
 * Answer-bearing (hit@k, MRR, first answer rank): a unit of D sharing at least one character with a reference.
 */

/** Sorted, merged ranges (overlapping or touching ones joined); empty ranges dropped. */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

export function totalLength(ranges: readonly Range[]): number {
  let n = 0;
  for (const r of ranges) n += r.end - r.start;
  return n;
}

/** |∪a ∩ ∪b| for merged (sorted, disjoint) lists. */
export function intersectionLength(a: readonly Range[], b: readonly Range[]): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i]!.start, b[j]!.start);
    const e = Math.min(a[i]!.end, b[j]!.end);
    if (e > s) n += e - s;
    if (a[i]!.end < b[j]!.end) i++;
    else j++;
  }
  return n;
}

/** |r \ ∪covered| for one range and a merged list. */
function uncovered(r: Range, covered: readonly Range[]): number {
  return r.end - r.start - intersectionLength([r], covered);
}

/** Whether a unit shares at least one character with a reference. */
export function bearsAnswer(unit: Range, references: readonly Range[]): boolean {
  return references.some((e) => Math.min(unit.end, e.end) > Math.max(unit.start, e.start));
}

/** Recall, precision and IoU of the retrieved units (top k, in rank order) for references in `documentId`. */
export function retrievalMetrics(references: readonly Range[], retrieved: readonly DocumentSpan[], documentId: string): Pick<QuestionMetrics, 'recall' | 'precision' | 'iou'> {
  const refs = references.map((r) => ({ start: r.start, end: r.end }));
  const refTotal = totalLength(refs);
  const covered = mergeRanges(retrieved.filter((r) => r.documentId === documentId));
  const n = intersectionLength(covered, mergeRanges(refs));
  const retrievedTotal = totalLength(retrieved);
  let missed = 0;
  for (const e of refs) missed += uncovered(e, covered);
  return {
    recall: refTotal > 0 ? n / refTotal : 0,
    precision: retrievedTotal > 0 ? n / retrievedTotal : 0,
    iou: retrievedTotal + missed > 0 ? n / (retrievedTotal + missed) : 0,
  };
}

/** Chroma's precision_omega over every unit of the question's document (`units`: their spans, any order). */
export function precisionOmega(references: readonly Range[], units: readonly Range[]): number {
  const touching = units.filter((u) => references.some((e) => Math.max(u.start, e.start) <= Math.min(u.end, e.end)));
  if (touching.length === 0) return 0;
  const covered = mergeRanges(touching);
  const n = intersectionLength(covered, mergeRanges(references));
  // Chroma: the union of the touching units and the references' pieces none of them covers = |∪T ∪ ∪E|.
  const denominator = totalLength(mergeRanges([...covered, ...references]));
  return denominator > 0 ? n / denominator : 0;
}

/**
 * A question's figures. `ranking`: every retrieved unit in rank order (the first k are "retrieved"); `units`: every
 * retrievable unit of the question's document (for precision_omega).
 */
export function questionMetrics(
  references: readonly Range[],
  documentId: string,
  ranking: readonly DocumentSpan[],
  k: number,
  units: readonly Range[],
  /** The first answer-bearing rank when the caller knows it beyond `ranking` (else found in `ranking`). */
  knownFirstAnswerRank?: number | null,
): QuestionMetrics {
  const top = ranking.slice(0, k);
  const { recall, precision, iou } = retrievalMetrics(references, top, documentId);
  let firstAnswerRank: number | null;
  if (knownFirstAnswerRank !== undefined) firstAnswerRank = knownFirstAnswerRank;
  else {
    const i = ranking.findIndex((u) => u.documentId === documentId && bearsAnswer(u, references));
    firstAnswerRank = i < 0 ? null : i + 1;
  }
  const within = firstAnswerRank !== null && firstAnswerRank <= k;
  return {
    recall,
    precision,
    iou,
    precisionOmega: precisionOmega(references, units),
    hit: within ? 1 : 0,
    reciprocalRank: within ? 1 / firstAnswerRank! : 0,
    firstAnswerRank,
  };
}

/** The mean of each figure over the questions (0s for none). */
export function meanMetrics(all: readonly QuestionMetrics[]): MeanMetrics {
  const out = Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as MeanMetrics;
  if (all.length === 0) return out;
  for (const q of all) for (const m of METRIC_NAMES) out[m] += q[m];
  for (const m of METRIC_NAMES) out[m] /= all.length;
  return out;
}
