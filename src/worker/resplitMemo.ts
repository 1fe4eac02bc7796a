import type { orphanBits } from '../core/eval/orphans';
import type { SemanticDetail } from '../core/types';
import type { SemanticPayload } from './embedProtocol';

/**
 * What a semantic re-split (a threshold key, a drag) would otherwise redo over the whole document in the chunk
 * worker on every job, kept from one job to the next:
 * - the curve's arrays of one analysis (distances, values, sentence starts and ends): converted once per analysis,
 *   then each job sends copies (a memcpy; the copies are transferred, the kept arrays never are);
 * - each chunk's orphan bits (core's orphanBits, whose heading test trims and scans every chunk's text): a
 *   threshold move changes a few boundaries, so most spans were flagged by the previous job.
 */

/** The payload's curve arrays; `analysis` is the serial the page keys its curve on (equal serials, equal data). */
export type CurveArrays = Pick<SemanticPayload, 'analysis' | 'distances' | 'values' | 'sentenceStarts' | 'sentenceEnds'>;

export function curveMemo(): (d: SemanticDetail) => CurveArrays {
  let kept: { distances: Float64Array; values: Float64Array; sentences: SemanticDetail['sentences']; arrays: CurveArrays } | null = null;
  // Random start: a restarted worker must not reuse a serial the page still holds for another analysis.
  let serial = Math.floor(Math.random() * 2 ** 30);
  return (d) => {
    // Core's document cache hands back the same arrays for the same analysis (SemanticDetail: shared, not copied).
    if (!kept || kept.distances !== d.distances || kept.values !== d.values || kept.sentences !== d.sentences) {
      const n = d.sentences.length;
      const starts = new Int32Array(n);
      const ends = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        starts[i] = d.sentences[i]!.start;
        ends[i] = d.sentences[i]!.end;
      }
      const arrays = { analysis: ++serial, distances: Float64Array.from(d.distances), values: Float64Array.from(d.values), sentenceStarts: starts, sentenceEnds: ends };
      kept = { distances: d.distances, values: d.values, sentences: d.sentences, arrays };
    }
    const a = kept.arrays;
    return { analysis: a.analysis, distances: a.distances.slice(), values: a.values.slice(), sentenceStarts: a.sentenceStarts.slice(), sentenceEnds: a.sentenceEnds.slice() };
  };
}

/** What orphanBits reads of a chunk. */
type FlaggedSpan = Parameters<typeof orphanBits>[1][number];

/** Most spans kept per document; past it the memo starts again (a long session of drags on one document). */
const MAX_SPANS = 200_000;

/**
 * `flag` (core's orphanBits, which the chunk worker loads after its first paint) with each span's bits remembered for
 * the document: only spans not flagged before are flagged now.
 */
export function orphanMemo(flag: typeof orphanBits): (text: string, spans: readonly FlaggedSpan[]) => Uint8Array {
  let forText = '';
  let known = spanBits(0);
  return (text, spans) => {
    if (text !== forText || known.size() > MAX_SPANS) {
      forText = text;
      known = spanBits(text.length);
    }
    const bits = new Uint8Array(spans.length);
    const missing: number[] = [];
    for (let i = 0; i < spans.length; i++) {
      const b = known.get(spans[i]!);
      if (b === undefined) missing.push(i);
      else bits[i] = b;
    }
    if (missing.length > 0) {
      const fresh = flag(text, missing.map((i) => spans[i]!));
      missing.forEach((i, k) => {
        bits[i] = fresh[k]!;
        known.set(spans[i]!, fresh[k]!);
      });
    }
    return bits;
  };
}

/**
 * Bits by span. They depend on the span's offsets and, for a heading-only chunk, on its last heading title. A span
 * without a heading (most of them; every semantic one) is keyed by one number, start × (length + 1) + end, exact
 * while that stays below 2^53: a string key per span was most of a threshold step's time at 7,000 chunks.
 */
function spanBits(length: number) {
  const stride = length + 1;
  const numeric = stride * stride <= Number.MAX_SAFE_INTEGER;
  const byOffsets = new Map<number, number>();
  const byKey = new Map<string, number>();
  const keyOf = (s: FlaggedSpan) => `${s.start}:${s.end}:${s.metadata.headingPath?.at(-1) ?? ''}`;
  const plain = (s: FlaggedSpan) => numeric && s.metadata.headingPath === undefined;
  return {
    size: () => byOffsets.size + byKey.size,
    get: (s: FlaggedSpan) => (plain(s) ? byOffsets.get(s.start * stride + s.end) : byKey.get(keyOf(s))),
    set(s: FlaggedSpan, bits: number): void {
      if (plain(s)) byOffsets.set(s.start * stride + s.end, bits);
      else byKey.set(keyOf(s), bits);
    },
  };
}
