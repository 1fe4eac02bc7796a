import type { Range } from '../types';
import { intersectionLength, mergeRanges } from './metrics';
import { isRetrieved, ordinal, type ExplainInput, type ExplainUnit, type Failure, type ReferenceLabel } from './failures';
import type { Reference } from './types';

/**
 * A near miss: part of the answer was not retrieved, but a unit right next to the answer's chunk was. Computed,
 * not guessed, in the chunk unit (`input.measure`):
 * - the neighbour comes after the answer: overlap carries the end of a chunk into the start of the next, so an
 *   overlap of N = size of [first missed answer character, the neighbour's start) would have put the missed part
 *   into the neighbour (it must stay below the size);
 * - the neighbour comes before: overlap never carries text backwards, so it would not help; the message says how
 *   far the missed part runs past the neighbour's end.
 * The nearest such neighbour is named (an "after" one first: that is the one overlap fixes).
 */
export function nearMiss(ref: Reference, i: number, bearing: readonly ExplainUnit[], input: ExplainInput, label: ReferenceLabel): Failure | null {
  const { k } = input;
  const retrievedNeighbours = (input.neighbours ?? []).filter((n) => isRetrieved(n, k));
  if (retrievedNeighbours.length === 0) return null;
  const missed = uncoveredParts(ref, bearing.filter((u) => isRetrieved(u, k)));
  if (missed.length === 0) return null;
  const first = missed[0]!.start;
  const last = missed[missed.length - 1]!.end;
  const measure = input.measure ?? ((a: number, b: number) => b - a);
  const unit = unitWords(input.unitName);
  const name = (n: ExplainUnit) => (n.chunk ? `chunk ${n.chunk.index}` : `the window ${n.start}–${n.end}`);
  const after = retrievedNeighbours.filter((n) => n.start >= last).sort((a, b) => a.start - b.start)[0];
  if (after) {
    const overlap = measure(first, after.start);
    const tooBig = input.sizeLimit !== undefined && overlap >= input.sizeLimit ? ` (not below the size ${input.sizeLimit}: the size would have to grow too)` : '';
    return {
      kind: 'near-miss',
      reference: i,
      chunks: after.chunk ? [after.chunk.index] : [],
      neighbour: { chunk: after.chunk?.index ?? null, rank: after.rank!, side: 'after' },
      overlap,
      message: `${name(after)}, right after the chunk holding ${label(i)}, was retrieved (${ordinal(after.rank!)}): an overlap of ${overlap} ${unit} would have carried the missed part into it${tooBig}`,
    };
  }
  const before = retrievedNeighbours.filter((n) => n.end <= first).sort((a, b) => b.end - a.end)[0];
  if (!before) return null;
  const beyond = measure(before.end, last);
  return {
    kind: 'near-miss',
    reference: i,
    chunks: before.chunk ? [before.chunk.index] : [],
    neighbour: { chunk: before.chunk?.index ?? null, rank: before.rank!, side: 'before' },
    beyond,
    message: `${name(before)}, right before the chunk holding ${label(i)}, was retrieved (${ordinal(before.rank!)}); the missed part ends ${beyond} ${unit} past its end, and overlap only carries text forward into the next chunk, so it would not help: a larger size would`,
  };
}

/** The parts of a reference no given unit holds. */
export function uncoveredParts(ref: Range, units: readonly Range[]): Range[] {
  const covered = mergeRanges(units.map((u) => ({ start: u.start, end: u.end })));
  const out: Range[] = [];
  let at = ref.start;
  for (const c of covered) {
    if (c.end <= at || c.start >= ref.end) continue;
    if (c.start > at) out.push({ start: at, end: c.start });
    at = Math.max(at, c.end);
  }
  if (at < ref.end) out.push({ start: at, end: ref.end });
  return out.filter((r) => r.end > r.start && intersectionLength([r], [ref]) > 0);
}

/** "chars", "words", or "cl100k_base tokens" for a tokenizer's name. */
function unitWords(name: string | undefined): string {
  if (name === undefined) return 'characters';
  return /^(chars|characters|words|sentences|bytes|lines)$/.test(name) ? name : `${name} tokens`;
}
