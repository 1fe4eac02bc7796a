/**
 * The two byte-level routines @chonkiejs/core 0.0.11 runs in WASM (@chonkiejs/chunk 0.9.3), restated from their
 * behaviour: splitting at every delimiter byte, and Chonkie's `_merge_splits` grouping of token counts.
 * Both work on UTF-8 bytes; the offsets they return are byte offsets.
 */

export type IncludeDelim = 'prev' | 'next' | 'none';

/** UTF-8 bytes as the package makes them (TextEncoder's: a lone surrogate becomes U+FFFD). Core has no TextEncoder
 * in its type environment, so this is written out. */
export function utf8Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[k++] = c;
      continue;
    }
    if (c < 0x800) {
      out[k++] = 0xc0 | (c >> 6);
      out[k++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = text.charCodeAt(i + 1);
      if (c <= 0xdbff && (d & 0xfc00) === 0xdc00) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[k++] = 0xf0 | (cp >> 18);
        out[k++] = 0x80 | ((cp >> 12) & 0x3f);
        out[k++] = 0x80 | ((cp >> 6) & 0x3f);
        out[k++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
      c = 0xfffd;
    }
    out[k++] = 0xe0 | (c >> 12);
    out[k++] = 0x80 | ((c >> 6) & 0x3f);
    out[k++] = 0x80 | (c & 0x3f);
  }
  return out.subarray(0, k);
}

/**
 * split_offsets(text, { delimiters, includeDelim, minChars }): a cut after (prev), before (next) or around (none)
 * every byte that is one of the delimiter string's UTF-8 bytes — so a multi-byte delimiter such as "—" makes each
 * of its three bytes a delimiter, continuation bytes of other characters included. Empty segments are skipped.
 * With minChars > 0, a segment merges into the one being accumulated while either is shorter than minChars bytes.
 * Returns [start, end] byte offsets, flattened.
 */
export function splitOffsets(bytes: Uint8Array, delimiters: string, include: IncludeDelim, minChars: number): number[] {
  const n = bytes.length;
  if (n === 0) return [];
  const delims = utf8Bytes(delimiters);
  if (delims.length === 0) return [0, n];
  const isDelim = new Uint8Array(256);
  for (const b of delims) isDelim[b] = 1;

  const out: number[] = [];
  let accumStart = 0;
  let accumEnd = 0;
  const emit = (s: number, e: number): void => {
    if (minChars === 0) {
      out.push(s, e);
    } else if (accumStart === accumEnd) {
      accumStart = s;
      accumEnd = e;
    } else if (accumEnd - accumStart < minChars || e - s < minChars) {
      accumEnd = e;
    } else {
      out.push(accumStart, accumEnd);
      accumStart = s;
      accumEnd = e;
    }
  };

  let segmentStart = 0;
  for (let pos = 0; pos < n; pos++) {
    if (isDelim[bytes[pos]!] === 0) continue;
    if (include === 'prev') {
      if (segmentStart < pos + 1) emit(segmentStart, pos + 1);
      segmentStart = pos + 1;
    } else if (include === 'next') {
      if (segmentStart < pos) emit(segmentStart, pos);
      segmentStart = pos;
    } else {
      if (segmentStart < pos) emit(segmentStart, pos);
      segmentStart = pos + 1;
    }
  }
  if (segmentStart < n) emit(segmentStart, n);
  if (minChars > 0 && accumStart < accumEnd) out.push(accumStart, accumEnd);
  return out;
}

/**
 * merge_splits(tokenCounts, chunkSize, combineWhitespace): greedy groups over the cumulative counts (each count +1
 * when combining whitespace). A group ends before the first prefix whose cumulative count reaches
 * `start + chunkSize` (a bisect_left), so a group's total stays strictly below chunkSize unless it is one piece.
 * Returns each group's end index (exclusive) and its count.
 */
export function mergeSplits(counts: readonly number[], chunkSize: number, combineWhitespace: boolean): { ends: number[]; counts: number[] } {
  const n = counts.length;
  const ends: number[] = [];
  const totals: number[] = [];
  if (n === 0) return { ends, counts: totals };
  const cumulative = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) cumulative[i + 1] = cumulative[i]! + counts[i]! + (combineWhitespace ? 1 : 0);
  let current = 0;
  while (current < n) {
    const required = cumulative[current]! + chunkSize;
    let lo = current;
    let hi = n + 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < required) lo = mid + 1;
      else hi = mid;
    }
    let index = Math.min(Math.max(lo - 1, 0), n);
    if (index === current) index++;
    ends.push(index);
    totals.push(cumulative[Math.min(index, n)]! - cumulative[current]!);
    current = index;
  }
  return { ends, counts: totals };
}
