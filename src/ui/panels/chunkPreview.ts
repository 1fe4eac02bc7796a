/** A run of preview text; `overlap` marks characters shared with the previous or next chunk. */
export interface PreviewSegment {
  text: string;
  overlap: 'prev' | 'next' | null;
}

export interface PreviewOptions {
  /** Chunks longer than this show their head and tail around an ellipsis. */
  maxChars?: number;
}

export const ELLIPSIS = ' … ';

/**
 * The text of a chunk as the list shows it: the part shared with the previous chunk, the chunk's own part and
 * the part shared with the next chunk, as segments. Long chunks keep their head and tail (where the overlaps
 * are) and elide the middle. Overlap lengths come from the real offsets and are clamped to the chunk.
 */
export function chunkPreview(text: string, overlapPrev: number, overlapNext: number, options: PreviewOptions = {}): PreviewSegment[] {
  const max = options.maxChars ?? 170;
  const len = text.length;
  const a = Math.min(Math.max(0, overlapPrev), len);
  const b = Math.max(a, len - Math.max(0, overlapNext));
  const parts: { from: number; to: number; overlap: PreviewSegment['overlap'] }[] = [
    { from: 0, to: a, overlap: 'prev' },
    { from: a, to: b, overlap: null },
    { from: b, to: len, overlap: 'next' },
  ];
  const keep = (from: number, to: number): PreviewSegment[] =>
    parts
      .map((p) => ({ from: Math.max(p.from, from), to: Math.min(p.to, to), overlap: p.overlap }))
      .filter((p) => p.to > p.from)
      .map((p) => ({ text: text.slice(p.from, p.to), overlap: p.overlap }));
  if (len <= max) return keep(0, len);
  const half = Math.floor(max / 2);
  let headEnd = half;
  let tailStart = len - half;
  // Never cut a surrogate pair in two.
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return [...keep(0, headEnd), { text: ELLIPSIS, overlap: null }, ...keep(tailStart, len)];
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
