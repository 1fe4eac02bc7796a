import type { SpanMeter } from './measure';
import type { RunGuard } from './merge';
import type { SplitSpan } from './registry';
import type { TokenSpan, Unit } from './types';
import { isTiktokenUnit } from './units/unit';

/** Token i covers [starts[i], ends[i]) of the text. */
export interface TokenBounds {
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
}

/** The unit's tokens of `text` as bounds: the token units' compact arrays, or any unit's tokenize(). */
export function tokenBoundsOf(unit: Unit, text: string): TokenBounds {
  if (isTiktokenUnit(unit)) return unit.tokenOffsets(text);
  const spans: readonly TokenSpan[] = unit.tokenize!(text);
  return { starts: spans.map((t) => t.start), ends: spans.map((t) => t.end) };
}

/**
 * Windows of `size` tokens; each next window starts `overlap` tokens before the previous one ends (LangChain
 * TokenTextSplitter's stepping), on token boundaries from unit.tokenize, so a window never cuts a character
 * (a token ending inside a multi-byte character is widened to the character's end by tokenize).
 *
 * The guarantees are checked on the re-counted text, not assumed from the token indices: re-encoding a window's
 * text can differ from the document's tokens at its edges, so a window that re-counts over `size` loses tokens at
 * its end, and an overlap that re-counts over `overlap` starts a token later.
 */
export function tokenWindows(
  tokens: TokenBounds,
  size: number,
  overlap: number,
  meter: SpanMeter,
  guard: RunGuard,
  keep: (start: number, end: number) => boolean,
): SplitSpan[] {
  const out: SplitSpan[] = [];
  const { starts, ends } = tokens;
  const total = starts.length;
  let previous: SplitSpan | null = null;
  let first = 0;
  while (first < total) {
    guard.tick(starts[first]!);
    let last = Math.min(first + size, total); // exclusive
    const start = starts[first]!;
    while (last - first > 1 && meter.exact(start, ends[last - 1]!) > size) last--;
    const end = ends[last - 1]!;
    // Tokens widened to whole characters can leave a window with no new text (e.g. only the empty tail tokens
    // of an emoji): such a window adds nothing and is skipped, so chunks strictly advance.
    if (end > start && (previous === null || end > previous.end) && keep(start, end)) {
      const span: SplitSpan = { start, end };
      if (meter.exact(start, end) > size) span.oversize = true;
      out.push(span);
      previous = span;
    }
    if (last >= total) break;
    let next = Math.max(first + 1, last - overlap);
    while (next < last && (starts[next]! <= start || meter.exact(starts[next]!, end) > overlap)) next++;
    first = next;
  }
  return out;
}
