import type { Pieces, Separator } from './pieces';
import type { LangchainSpan, RunControl } from './run';

/**
 * LangChain JS's `mergeSplits`, on source ranges. Its rules, quirks included:
 * - the running total is the SUM of the pieces' own lengths (for tokens: per-piece counts, which can differ from
 *   the count of the joined text), and separators count as `separator.length` characters whatever the unit;
 * - a piece that does not fit closes the current chunk, then pieces are dropped from the front while the total
 *   exceeds the overlap, or while the new piece still does not fit: the overlap is whole trailing pieces whose
 *   summed length is <= overlap, and may be nothing at all even when overlap > 0;
 * - a single piece longer than the size becomes a chunk of its own, over the size (LangChain only warns; chunk()
 *   flags every chunk whose re-counted size is over the limit, so no flag is set here);
 * - every chunk is `pieces.join(separator).trim()`, and a chunk that trims to "" is dropped.
 */
export interface MergeInput {
  source: string;
  pieces: Pieces;
  /** Measured length of each piece (same indexing as `pieces`). */
  lengths: number[];
  /** First piece and one past the last piece to merge. */
  from: number;
  to: number;
  /** The string LangChain joins with ("" when separators are kept in the pieces). */
  separator: Separator;
  size: number;
  overlap: number;
  /** Progress (by source offset) and cancellation, checked every few hundred pieces. */
  run: RunControl;
}

export function mergeSplits(input: MergeInput, out: LangchainSpan[]): void {
  const { pieces, lengths, from, to, size, overlap } = input;
  if (to <= from) return;
  if (input.separator === undefined) {
    // LangChain reaches mergeSplits with an undefined separator when a custom separator list runs out without ""
    // and keepSeparator is off; it then fails on `separator.length`. Fail the same way, with a readable message.
    throw new TypeError(
      "LangChain's RecursiveCharacterTextSplitter fails on this input (TypeError: Cannot read properties of undefined (reading 'length')): the separator list ran out without \"\" and keepSeparator is off",
    );
  }
  const sepLength = input.separator.length;
  let total = 0;
  let first = from; // the current chunk is pieces[first, k)
  for (let k = from; k < to; k++) {
    if ((k & 63) === 63) input.run.step(pieces.starts[k]!);
    const len = lengths[k]!;
    if (total + len + (k - first) * sepLength > size) {
      if (k > first) {
        emitJoined(input, first, k, out);
        while (
          first < k &&
          (total > overlap || (total + len + (k - first) * sepLength > size && total > 0))
        ) {
          total -= lengths[first]!;
          first++;
        }
      }
    }
    total += len;
  }
  emitJoined(input, first, to, out);
}

/** Emit `pieces[first, last).join(separator).trim()` with the source range it came from. */
function emitJoined(input: MergeInput, first: number, last: number, out: LangchainSpan[]): void {
  const { source, pieces } = input;
  const { starts, ends } = pieces;
  const separator = input.separator as string;
  const sepLength = separator.length;

  // When every gap between neighbouring pieces is exactly one separator (always the case when separators are kept
  // or the separator is ""), the joined text IS the source range, and trimming it is trimming the range.
  let exact = true;
  for (let i = first + 1; i < last; i++) {
    if (starts[i]! - ends[i - 1]! !== sepLength) {
      exact = false;
      break;
    }
  }
  if (exact) {
    let start = starts[first]!;
    let end = ends[last - 1]!;
    while (start < end && isTrimmed(source.charCodeAt(start))) start++;
    while (end > start && isTrimmed(source.charCodeAt(end - 1))) end--;
    if (start === end) return;
    out.push({ start, end });
    return;
  }

  // QUIRK (content !== text): without keepSeparator, repeated separators ("foo  bar" split on " ") leave empty
  // pieces that LangChain drops, and its join puts back ONE separator: "foo bar" is not in the source. The content
  // keeps LangChain's string; the range runs from its first to its last character in the source, where a joined
  // separator stands for the first separator of the run it replaced.
  const parts: string[] = [];
  for (let i = first; i < last; i++) parts.push(source.slice(starts[i]!, ends[i]!));
  const joined = parts.join(separator);
  let lead = 0;
  let trail = joined.length;
  while (lead < trail && isTrimmed(joined.charCodeAt(lead))) lead++;
  while (trail > lead && isTrimmed(joined.charCodeAt(trail - 1))) trail--;
  if (lead === trail) return;
  const start = sourceIndexOfJoined(input, first, last, lead);
  const end = sourceIndexOfJoined(input, first, last, trail - 1) + 1;
  out.push({ start, end, content: joined.slice(lead, trail) });
}

/** Where character `at` of `pieces[first, last).join(separator)` lies in the source. */
function sourceIndexOfJoined(input: MergeInput, first: number, last: number, at: number): number {
  const { starts, ends } = input.pieces;
  const sepLength = (input.separator as string).length;
  let offset = 0;
  for (let i = first; i < last; i++) {
    const pieceLength = ends[i]! - starts[i]!;
    if (at < offset + pieceLength) return starts[i]! + (at - offset);
    offset += pieceLength;
    if (i < last - 1) {
      if (at < offset + sepLength) return ends[i]! + (at - offset);
      offset += sepLength;
    }
  }
  return ends[last - 1]!;
}

/** The characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator). */
function isTrimmed(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
