import { isWhitespaceCode } from '../measure';
import type { Range } from '../types';

/**
 * Whitespace-delimited words of source[start, end) as contiguous pieces: each piece is a word plus the whitespace
 * after it (the first also carries any leading whitespace), so the pieces tile the range and trimming at chunk
 * edges is left to the merger.
 */
export function words(source: string, start: number, end: number): Range[] {
  const cuts: number[] = [];
  let prevWs = true;
  for (let i = start; i < end; i++) {
    const ws = isWhitespaceCode(source.charCodeAt(i));
    if (!ws && prevWs && i > start) cuts.push(i);
    prevWs = ws;
  }
  const out: Range[] = [];
  let s = start;
  for (const c of cuts) {
    if (c > s && hasContent(source, s, c)) {
      out.push({ start: s, end: c });
      s = c;
    }
  }
  if (end > s) out.push({ start: s, end });
  return out;
}

function hasContent(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isWhitespaceCode(source.charCodeAt(i))) return true;
  return false;
}
