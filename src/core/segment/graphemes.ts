import type { Range } from '../types';

/**
 * User-perceived characters (grapheme clusters) of source[start, end): the finest level any splitter cuts at, so an
 * emoji ZWJ sequence, a flag or a letter with combining marks is never cut, nor is a surrogate pair.
 *
 * Intl.Segmenter is slow in Node on long strings, and most text is ASCII: between two ASCII characters (other than
 * CR LF) there is always a grapheme boundary, so ASCII runs are cut directly and only the stretches around
 * non-ASCII characters go through the segmenter, in windows cut before characters that always start a cluster.
 */

let segmenter: Intl.Segmenter | null = null;
const WINDOW = 4096;

export function graphemes(source: string, start: number, end: number): Range[] {
  const out: Range[] = [];
  let i = start;
  while (i < end) {
    const c = source.charCodeAt(i);
    const nextIsAscii = i + 1 >= end || source.charCodeAt(i + 1) < 0x80;
    if (c < 0x80 && nextIsAscii) {
      const width = c === 0x0d && i + 1 < end && source.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      out.push({ start: i, end: i + width });
      i += width;
      continue;
    }
    // A stretch that needs the segmenter: up to the next pair of ASCII characters (a sure boundary between
    // them) or, in long non-ASCII text, a window cut before a character that always starts a cluster.
    let k = i + 1;
    while (k < end) {
      const a = source.charCodeAt(k - 1);
      const b = source.charCodeAt(k);
      if (a < 0x80 && b < 0x80 && !(a === 0x0d && b === 0x0a)) break;
      if (k - i >= WINDOW && startsCluster(source, k)) break;
      k++;
    }
    segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
    for (const seg of segmenter.segment(source.slice(i, k))) {
      out.push({ start: i + seg.index, end: i + seg.index + seg.segment.length });
    }
    i = k;
  }
  return out;
}

/**
 * True when a grapheme boundary certainly falls before source[k]: it is a CJK ideograph or kana (Grapheme_Cluster_Break
 * Other, never joined to what precedes except after a Prepend mark, which we also rule out).
 */
function startsCluster(source: string, k: number): boolean {
  const c = source.charCodeAt(k);
  const p = source.charCodeAt(k - 1);
  const cjk = (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3040 && c <= 0x30ff);
  const prevPlain = (p >= 0x4e00 && p <= 0x9fff) || (p >= 0x3040 && p <= 0x30ff) || p < 0x80;
  return cjk && prevPlain;
}
