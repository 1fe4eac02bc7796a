import { ORPHAN_ENDS_MID, ORPHAN_HEADING, ORPHAN_STARTS_MID } from '../core/eval/orphans';
import type { PaintableResult, TokenCounts } from './resultsSlice';

/**
 * Orphan chunks of the painted result (core's orphanChunks: starting or ending mid-sentence, heading-only) and the
 * budget arithmetic for a whole corpus from this document's measured figures. Pure; memoized per result.
 */

export { ORPHAN_ENDS_MID, ORPHAN_HEADING, ORPHAN_STARTS_MID };

export interface OrphanSummary {
  /** Per painted leaf: a bit set of ORPHAN_* (0: not an orphan). */
  flags: Uint8Array;
  count: number;
  startsMid: number;
  endsMid: number;
  headingOnly: number;
}

let memo: { flags: Uint8Array; value: OrphanSummary } | null = null;

/**
 * The painted result's orphan chunks, from the worker's flags: the result carries them, or (the first job on a
 * document, whose sentence segmentation is kept off the first paint's path) the token counts for that job bring
 * them. null until one of them has. Never computed here: segmenting a document is the worker's work.
 */
export function orphanSummary(result: PaintableResult | null, tokens: TokenCounts | null): OrphanSummary | null {
  if (!result) return null;
  const flags = result.orphans ?? (tokens?.jobId === result.jobId ? tokens.orphans : undefined);
  if (!flags || flags.length !== result.starts.length) return null;
  if (memo?.flags === flags) return memo.value;
  const value: OrphanSummary = { flags, count: 0, startsMid: 0, endsMid: 0, headingOnly: 0 };
  for (const bits of flags) {
    if (bits) value.count++;
    if (bits & ORPHAN_STARTS_MID) value.startsMid++;
    if (bits & ORPHAN_ENDS_MID) value.endsMid++;
    if (bits & ORPHAN_HEADING) value.headingOnly++;
  }
  memo = { flags, value };
  return value;
}

export function orphanLabel(bits: number): string | null {
  if (!bits) return null;
  const parts: string[] = [];
  if (bits & ORPHAN_HEADING) parts.push('only a heading');
  if (bits & ORPHAN_STARTS_MID) parts.push('starts mid-sentence');
  if (bits & ORPHAN_ENDS_MID) parts.push('ends mid-sentence');
  return parts.join(', ');
}
