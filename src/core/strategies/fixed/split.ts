import { isWhitespaceCode, meterFor, type SpanMeter } from '../../measure';
import { RunGuard } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import { unitDescriptor, type UnitDescriptor } from '../../units';
import { tokenBoundsOf, tokenWindows } from '../../windows';
import { loadChonkie } from '../../compat/load';

/**
 * Fixed windows of N units, each next window starting `overlap` units before the previous one ends, regardless of
 * sentences or words:
 * - chars: N UTF-16 code units, never cutting a surrogate pair;
 * - other additive units (bytes): the longest span counting at most N, never cutting a surrogate pair;
 * - words: N words of the words unit (Intl.Segmenter word-like segments; see wordWindows);
 * - tokens: N tokens on token boundaries, never cutting a character.
 * Windows are not trimmed; a window of whitespace only is skipped.
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options, unit } = ctx;
    if (options.compat === 'chonkie') return loadChonkie().then((m) => m.chonkieFast(text, ctx));
    const guard = new RunGuard(ctx, text.length);
    const notBlank = (start: number, end: number) => hasContent(text, start, end);
    if (unit.tokenize) {
      return tokenWindows(tokenBoundsOf(unit, text), options.size, options.overlap, meterFor(unit, text), guard, notBlank);
    }
    const counts = unitDescriptor(unit.name);
    if (counts?.segments) return wordWindows(text, counts.segments, options.size, options.overlap, guard);
    if (counts?.isLength) return charWindows(text, options.size, options.overlap, guard, notBlank);
    if (counts?.additive) return additiveWindows(text, options.size, options.overlap, meterFor(unit, text), guard, notBlank);
    throw new Error(`the fixed strategy does not support unit ${unit.name}`);
  },
};

function hasContent(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isWhitespaceCode(text.charCodeAt(i))) return true;
  return false;
}

function isLowSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1));
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function charWindows(
  text: string,
  size: number,
  overlap: number,
  guard: RunGuard,
  keep: (start: number, end: number) => boolean,
): SplitSpan[] {
  const out: SplitSpan[] = [];
  let start = 0;
  while (start < text.length) {
    guard.tick(start);
    let end = Math.min(start + size, text.length);
    if (end < text.length && isLowSurrogate(text, end)) end--; // keep the pair together
    let oversize = false;
    if (end <= start) {
      end = start + 2; // size 1 and an astral character: the pair is one unsplittable piece
      oversize = true;
    }
    // A window shortened to keep a surrogate pair whole can end where the previous one ended: it adds nothing.
    const advances = out.length === 0 || end > out[out.length - 1]!.end;
    if (advances && keep(start, end)) out.push(oversize ? { start, end, oversize } : { start, end });
    if (end >= text.length) break;
    let next = Math.max(start + 1, end - overlap);
    if (isLowSurrogate(text, next)) next++;
    start = next;
  }
  return out;
}

/**
 * Windows of an additive unit other than the length (bytes): each window is the longest span from its start that
 * counts at most `size`, ending between code points; the next one starts at the earliest position after the window's
 * start from which the rest of the window counts at most `overlap`. A character counting more than `size` on its own
 * is an oversize window of one character. The meter's count grows with the end and shrinks with the start (the unit
 * is additive), so both are binary searches.
 */
function additiveWindows(
  text: string,
  size: number,
  overlap: number,
  meter: SpanMeter,
  guard: RunGuard,
  keep: (start: number, end: number) => boolean,
): SplitSpan[] {
  const out: SplitSpan[] = [];
  const n = text.length;
  let start = 0;
  while (start < n) {
    guard.tick(start);
    let lo = start;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (meter.exact(start, mid) <= size) lo = mid;
      else hi = mid - 1;
    }
    let end = lo;
    if (end < n && isLowSurrogate(text, end)) end--; // keep the pair together
    let oversize = false;
    if (end <= start) {
      end = start + (start + 1 < n && isLowSurrogate(text, start + 1) ? 2 : 1);
      oversize = true;
    }
    const advances = out.length === 0 || end > out[out.length - 1]!.end;
    if (advances && keep(start, end)) out.push(oversize ? { start, end, oversize } : { start, end });
    if (end >= n) break;
    lo = start + 1;
    hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (meter.exact(mid, end) <= overlap) hi = mid;
      else lo = mid + 1;
    }
    start = lo < n && isLowSurrogate(text, lo) ? lo + 1 : lo;
  }
  return out;
}

/**
 * Windows of N words (the words unit: Intl.Segmenter word-like segments, any language). A window runs from its
 * first word's start (the first window: from the text's first non-whitespace character) to the end of what follows
 * its last word up to the next word, trimmed of whitespace, so punctuation between words is never lost.
 */
function wordWindows(text: string, segments: NonNullable<UnitDescriptor['segments']>, size: number, overlap: number, guard: RunGuard): SplitSpan[] {
  const { starts } = segments(text);
  const out: SplitSpan[] = [];
  const n = starts.length;
  let lead = 0;
  while (lead < text.length && isWhitespaceCode(text.charCodeAt(lead))) lead++;
  if (n === 0) {
    // Punctuation or symbols only: one window with no words, so no character is dropped.
    const end = trimEnd(text, text.length);
    return end > lead ? [{ start: lead, end }] : [];
  }
  let first = 0;
  while (first < n) {
    guard.tick(starts[first]!);
    const last = Math.min(first + size, n);
    const start = first === 0 ? lead : starts[first]!;
    out.push({ start, end: trimEnd(text, last >= n ? text.length : starts[last]!) });
    if (last >= n) break;
    first = Math.max(first + 1, last - overlap);
  }
  return out;
}

function trimEnd(text: string, end: number): number {
  while (end > 0 && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return end;
}
