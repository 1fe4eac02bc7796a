import type { Range } from '../types';

/**
 * A paragraph break: a line break followed by one or more blank lines (lines holding only spaces or tabs), in any
 * line-ending convention (\n, \r\n, \r).
 */
const PARAGRAPH_BREAK = /(?:\r\n|\r|\n)(?:[^\S\r\n]*(?:\r\n|\r|\n))+/g;

/** Paragraphs of source[start, end) as contiguous pieces: each paragraph keeps the blank lines after it. */
export function paragraphs(source: string, start: number, end: number): Range[] {
  const text = source.slice(start, end);
  const out: Range[] = [];
  let s = start;
  PARAGRAPH_BREAK.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PARAGRAPH_BREAK.exec(text)) !== null) {
    const breakEnd = start + m.index + m[0].length;
    if (breakEnd > s) out.push({ start: s, end: breakEnd });
    s = breakEnd;
  }
  if (end > s) out.push({ start: s, end });
  return out;
}
