import { isWhitespaceCode } from './measure';
import type { Range } from './types';

/** Small helpers over source ranges, shared by the structure splitters and the retrieval units. */

/** The range without the whitespace at its edges (empty, start === end, when it is all whitespace). */
export function trimRange(text: string, r: Range): Range {
  let { start, end } = r;
  while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

/** Index of the last of `ranges` (sorted by start) starting at or before `at`, -1 for none. */
export function lastStartingAtOrBefore(ranges: readonly Range[], at: number): number {
  let lo = 0;
  let hi = ranges.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start <= at) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** [a, a + 1, ..., b] (empty when b < a). */
export function inclusiveRange(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}
