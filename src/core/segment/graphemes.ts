import { isWhitespaceCode } from '../measure';
import type { PieceOffsets, Range } from '../types';

/**
 * User-perceived characters (grapheme clusters) of source[start, end): the finest level any splitter cuts at, so an
 * emoji ZWJ sequence, a flag or a letter with combining marks is never cut, nor is a surrogate pair.
 *
 * Intl.Segmenter in Node 20 copies the whole input string into every segment it returns, so its cost grows with
 * (segments × input length): 50,000 characters at once exhaust the heap. So:
 * - between two "simple" characters (ASCII, or plain letters of CJK, kana, Latin-1, Greek, Cyrillic) there is
 *   always a boundary (both have Grapheme_Cluster_Break Other; only CR LF joins), so such text is cut directly;
 * - only the stretches around other characters (combining marks, emoji, Hangul, Indic, Arabic...) go through the
 *   segmenter, in short windows cut where a boundary is certain.
 */

let segmenter: Intl.Segmenter | null = null;
/** Preferred length of a window given to Intl.Segmenter; longer only when no certain boundary is found. */
const WINDOW = 64;

export function graphemes(source: string, start: number, end: number): Range[] {
  return toRanges(graphemeOffsets(source, start, end));
}

/** Offset arrays as Range objects. */
export function toRanges(pieces: PieceOffsets): Range[] {
  const out: Range[] = new Array(pieces.length);
  for (let k = 0; k < pieces.length; k++) out[k] = { start: pieces.starts[k]!, end: pieces.ends[k]! };
  return out;
}

/** The same as offset arrays (what the packer takes for a long run: 8 bytes a cluster instead of an object). */
export function graphemeOffsets(source: string, start: number, end: number): PieceOffsets {
  // A cluster is at least one code unit: room for the most there can be, so a long run is never copied to grow.
  const out = new OffsetsBuilder(source, end - start);
  let i = start;
  while (i < end) {
    const c = source.charCodeAt(i);
    if (c < 0x80 && c !== 0x0d) {
      // A run of ASCII (not CR): one cluster per unit, up to the last one before a character that may join it.
      let k = i;
      let blank = false; // a space or a control character in the run (found on the way: no second pass)
      for (let d = c; k < end && d < 0x80 && d !== 0x0d; d = source.charCodeAt(++k)) if (d <= 0x20) blank = true;
      if (k < end && !isSimple(source.charCodeAt(k))) k--;
      if (k > i) {
        out.pushRun(i, k, 1, blank);
        i = k;
        continue;
      }
    }
    if (isSimple(c) && (i + 1 >= end || isSimple(source.charCodeAt(i + 1)))) {
      const width = c === 0x0d && i + 1 < end && source.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      out.push(i, i + width);
      i += width;
      continue;
    }
    // A lone emoji (a pictograph that no rule joins to a neighbour unless a ZWJ, modifier or variation selector
    // follows) before a simple character or another lone emoji is one cluster: runs of emoji skip the segmenter.
    if (isHighSurrogate(c)) {
      let k = i;
      while (k + 2 <= end && isHighSurrogate(source.charCodeAt(k)) && isLoneEmoji(source.codePointAt(k)!)) k += 2;
      if (k < end && !isSimple(source.charCodeAt(k))) k -= 2; // the run's last emoji may join what follows
      if (k > i) {
        out.pushRun(i, k, 2, false);
        i = k;
        continue;
      }
    }
    let k = i + 1;
    while (k < end && !certainBoundary(source, k, k - i >= WINDOW)) k++;
    segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
    for (const seg of segmenter.segment(source.slice(i, k))) out.push(i + seg.index, i + seg.index + seg.segment.length);
    i = k;
  }
  return out.done();
}

/**
 * Growable offset arrays; whether every piece so far begins and ends with a character that is not whitespace, and the
 * longest piece's length.
 */
class OffsetsBuilder {
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;
  private edgesAreContent = true;
  private longest = 0;
  constructor(
    private readonly source: string,
    capacity: number,
  ) {
    this.starts = new Int32Array(Math.max(16, capacity));
    this.ends = new Int32Array(this.starts.length);
  }

  push(start: number, end: number): void {
    if (this.length === this.starts.length) this.grow(this.length + 1);
    this.starts[this.length] = start;
    this.ends[this.length++] = end;
    if (end - start > this.longest) this.longest = end - start;
    if (isWhitespaceCode(this.source.charCodeAt(start)) || isWhitespaceCode(this.source.charCodeAt(end - 1))) this.edgesAreContent = false;
  }

  /** Pieces of `width` units each from `from` to `to`; `mayBeBlank`: some of them may be whitespace. */
  pushRun(from: number, to: number, width: number, mayBeBlank: boolean): void {
    if (mayBeBlank) this.edgesAreContent = false;
    if (to > from && width > this.longest) this.longest = width;
    const count = (to - from) / width;
    if (this.length + count > this.starts.length) this.grow(this.length + count);
    const starts = this.starts;
    const ends = this.ends;
    let n = this.length;
    for (let u = from; u < to; u += width, n++) {
      starts[n] = u;
      ends[n] = u + width;
    }
    this.length = n;
  }

  private grow(atLeast: number): void {
    let capacity = this.starts.length * 2;
    while (capacity < atLeast) capacity *= 2;
    const starts = new Int32Array(capacity);
    starts.set(this.starts.subarray(0, this.length));
    this.starts = starts;
    const ends = new Int32Array(capacity);
    ends.set(this.ends.subarray(0, this.length));
    this.ends = ends;
  }

  done(): PieceOffsets {
    return { starts: this.starts, ends: this.ends, length: this.length, edgesAreContent: this.edgesAreContent, longest: this.longest };
  }
}

/** An emoji of the pictograph blocks that is neither a regional indicator nor a skin-tone modifier. */
function isLoneEmoji(cp: number): boolean {
  return cp >= 0x1f000 && cp <= 0x1faff && !(cp >= 0x1f1e6 && cp <= 0x1f1ff) && !(cp >= 0x1f3fb && cp <= 0x1f3ff);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isSimple(c: number): boolean {
  return (
    c < 0x80 ||
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0x3040 && c <= 0x3098) || // hiragana (U+3099, U+309A are combining voicing marks)
    (c >= 0x309b && c <= 0x30ff) || // katakana
    (c >= 0x00c0 && c <= 0x00ff) || // Latin-1 letters
    (c >= 0x0391 && c <= 0x03c9) || // Greek
    (c >= 0x0410 && c <= 0x044f) // Cyrillic
  );
}

/** BMP Prepend characters (they join the character after them). Astral ones are handled by never cutting after a surrogate. */
function isPrepend(c: number): boolean {
  return (c >= 0x0600 && c <= 0x0605) || c === 0x06dd || c === 0x070f || c === 0x0890 || c === 0x0891 || c === 0x08e2 || c === 0x0d4e;
}

/**
 * Whether a grapheme boundary certainly falls before source[k]. Always: between two simple characters (not CR LF).
 * In a long stretch also: before a simple character after anything but a Prepend mark or a surrogate; or before an
 * emoji that is not a regional indicator, a skin-tone modifier or a tag, and does not follow a ZWJ.
 */
function certainBoundary(source: string, k: number, longStretch: boolean): boolean {
  const a = source.charCodeAt(k - 1);
  const b = source.charCodeAt(k);
  if (isSimple(a) && isSimple(b)) return !(a === 0x0d && b === 0x0a);
  if (!longStretch) return false;
  if (isSimple(b)) return !isPrepend(a) && !(a >= 0xd800 && a <= 0xdfff);
  if (b >= 0xd800 && b <= 0xdbff && a !== 0x200d && !(a >= 0xd800 && a <= 0xdbff)) {
    const cp = source.codePointAt(k)!;
    const joins = (cp >= 0x1f1e6 && cp <= 0x1f1ff) || (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0000 && cp <= 0xe0fff);
    return cp >= 0x1f000 && !joins;
  }
  return false;
}
