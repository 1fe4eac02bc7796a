import { isWhitespaceCode, meterFor } from '../../measure';
import { RunGuard } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import type { Range } from '../../types';
import { tokenWindows } from '../../windows';

/**
 * Fixed windows of N units, each next window starting `overlap` units before the previous one ends, regardless of
 * sentences or words:
 * - chars: N UTF-16 code units, never cutting a surrogate pair;
 * - words: N whitespace-delimited words (a window runs from its first word's start to its last word's end);
 * - tokens: N tokens on token boundaries, never cutting a character.
 * Windows are not trimmed; a window of whitespace only is skipped.
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options, unit } = ctx;
    const guard = new RunGuard(ctx, text.length);
    const notBlank = (start: number, end: number) => hasContent(text, start, end);
    if (unit.tokenize) {
      return tokenWindows(unit.tokenize(text), options.size, options.overlap, meterFor(unit, text), guard, notBlank);
    }
    if (unit.name === 'words') return wordWindows(text, options.size, options.overlap, guard);
    if (unit.name === 'chars') return charWindows(text, options.size, options.overlap, guard, notBlank);
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

function wordWindows(text: string, size: number, overlap: number, guard: RunGuard): SplitSpan[] {
  const words: Range[] = [];
  for (const m of text.matchAll(/\S+/g)) words.push({ start: m.index!, end: m.index! + m[0].length });
  const out: SplitSpan[] = [];
  let first = 0;
  while (first < words.length) {
    guard.tick(words[first]!.start);
    const last = Math.min(first + size, words.length);
    out.push({ start: words[first]!.start, end: words[last - 1]!.end });
    if (last >= words.length) break;
    first = last - overlap;
  }
  return out;
}
