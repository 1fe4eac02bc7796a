import { documentCache } from '../documentCache';
import { lowerBound } from '../sorted';
import type { Unit } from '../types';
import type { SpanMeter } from './meter';
import { provideWords } from './wordsDescriptor';

/**
 * Words, for any language: the segments of Intl.Segmenter's word granularity that are word-like (`isWordLike`:
 * letters, digits, ideographs, kana, Thai words found by the dictionary...), plus emoji (a segment holding an
 * Extended_Pictographic character counts as one word). Punctuation and whitespace are not words. A 345-character
 * Japanese text is about a hundred words, not the 4 runs of non-whitespace it contains.
 *
 * Intl.Segmenter in Node 20 is very slow on long strings (superlinear), so text is segmented in windows of at most
 * WINDOW code units, cut where a cut cannot change the segmentation: after whitespace (preferably a newline) that is
 * not followed by a combining mark, format character or ZWJ (which would attach to the space). A window with no
 * such place (e.g. 4 KB of CJK with no space or line break) is cut after a CJK or Latin sentence mark, and only
 * failing that between two code points (the one case where a word at the seam may be counted differently).
 */
const WINDOW = 4096;
const MIN_WINDOW = 1024;

let segmenter: Intl.Segmenter | null = null;
const wordSegmenter = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' }));

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const ATTACHES = /^[\p{M}\p{Cf}\u200d]/u;
/** Sentence marks a window may be cut after (CJK, Latin, Devanagari danda). */
const SENTENCE_MARKS = new Set(Array.from('。．！？、，；：!?.;,\u0964\u0965', (ch) => ch.charCodeAt(0)));
const ASCII_SENTENCE_MARK = Uint8Array.from({ length: 128 }, (_, c) => (SENTENCE_MARKS.has(c) ? 1 : 0));

function isWs(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Whether the segmentation of text[a, b) is that of [a, p) followed by [p, b). */
function safeCut(text: string, p: number): boolean {
  return (isWs(text.charCodeAt(p - 1)) && !ATTACHES.test(text.slice(p, p + 1))) || emojiSeam(text, p);
}

/**
 * Between two emoji, neither a skin-tone modifier (an Extend) nor an enclosed letter (U+1F1xx: regional
 * indicators pair up, squared letters are ALetter): no word-break rule joins them or looks across (only a ZWJ or an
 * Extend between them would), so a line of emoji can be segmented in short stretches. Without this, a long line of
 * emoji went to the segmenter whole, whose cost grows with segments x input length.
 */
function emojiSeam(text: string, p: number): boolean {
  // An astral code point at p - 2 is a surrogate pair ending at p.
  return p >= 2 && isSeamEmoji(text.codePointAt(p - 2)!) && isSeamEmoji(text.codePointAt(p) ?? 0);
}

/** A safe cut follows whitespace or ends an astral emoji (a low surrogate): only then is it worth checking. */
function mayBeSafeCut(before: number): boolean {
  return isWs(before) || (before >= 0xdc00 && before <= 0xdfff);
}

function isSeamEmoji(cp: number): boolean {
  return cp >= 0x1f300 && cp <= 0x1faff && !(cp >= 0x1f3fb && cp <= 0x1f3ff);
}

/**
 * Where to end the window that starts at `start` (exclusive), for text[.., end): in its last three quarters the
 * last safe cut after a line break, else the last safe cut; else the last safe cut before them; else the last
 * sentence mark; else a hard cut. One pass down the window (a window with no safe cut, such as a line of letters
 * without spaces, is scanned often by the packer's counts).
 */
function windowEnd(text: string, start: number, end: number): number {
  if (end - start <= WINDOW) return end;
  const hi = start + WINDOW;
  const lo = start + MIN_WINDOW;
  let lastSafe = -1;
  let lastMark = -1;
  for (let p = hi; p > lo; p--) {
    const before = text.charCodeAt(p - 1);
    if (mayBeSafeCut(before) && (before === 0x0a || lastSafe < 0) && safeCut(text, p)) {
      if (before === 0x0a) return p;
      lastSafe = p;
    }
    if (lastMark < 0 && (before < 0x80 ? ASCII_SENTENCE_MARK[before] === 1 : SENTENCE_MARKS.has(before))) lastMark = p;
  }
  if (lastSafe >= 0) return lastSafe;
  // Failing that, a safe cut nearer the start (a short window) before a mark or a hard cut: those depend on where
  // the window began, so a span counted alone (the meter's count(slice)) would cut a long run elsewhere than the
  // document's windows did; a safe cut before such a run is where both windowings meet again.
  for (let p = lo; p > start; p--) if (mayBeSafeCut(text.charCodeAt(p - 1)) && safeCut(text, p)) return p;
  if (lastMark >= 0) return lastMark;
  const c = text.charCodeAt(hi);
  return c >= 0xdc00 && c <= 0xdfff ? hi - 1 : hi; // never cut a surrogate pair
}

function isWord(segment: Intl.SegmentData): boolean {
  return segment.isWordLike === true || PICTOGRAPHIC.test(segment.segment);
}

/**
 * ASCII text without the segmenter. Intl.Segmenter costs about 200 ns a character (10 MiB of English: 2.2 s in the
 * page's worker, for the stats' word counts); on ASCII its word rules (UAX #29 as this ICU tailors them) come down to
 * a few cases, scanned here in one pass: letters and digits join; an underscore joins either side (WB13a/b); a
 * punctuation character between two letters, or between two digits, joins when this segmenter joins it (WB6/7,
 * WB11/12: which ones differs, Node's ICU joins "e.g" and "a:b", Chromium's does not), anything else breaks. A
 * segment is word-like when it holds a letter or a digit, or is two or more underscores (ICU's rule status; a lone
 * underscore is not). The joiners are read from the segmenter once, then the scan is checked against it on a
 * probe of every such case: if they differ anywhere, the segmenter does all the text.
 */
const LETTER_CLASS = 1;
const DIGIT_CLASS = 2;
const UNDERSCORE_CLASS = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = LETTER_CLASS;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = LETTER_CLASS;
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = DIGIT_CLASS;
ASCII_CLASS[0x5f] = UNDERSCORE_CLASS;
/** ASCII punctuation and symbols: the candidates for joining two letters or two digits. */
const ASCII_PUNCTUATION = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i)).filter((ch) => ASCII_CLASS[ch.charCodeAt(0)] === 0);
/** Per ASCII code: 1 when it joins two letters (JOINS_LETTERS) or two digits (JOINS_DIGITS) for this segmenter. */
const JOINS_LETTERS = new Uint8Array(128);
const JOINS_DIGITS = new Uint8Array(128);

/** The words of text[from, to), which must be ASCII and end where the segmenter would break anyway. */
export function forEachAsciiWord(text: string, each: (start: number, end: number) => void, from: number, to: number): void {
  let i = from;
  while (i < to) {
    const first = ASCII_CLASS[text.charCodeAt(i)]!;
    if (first === 0) {
      i++;
      continue;
    }
    const start = i++;
    let prev = first;
    let lettersOrDigits = first !== UNDERSCORE_CLASS;
    while (i < to) {
      const code = text.charCodeAt(i);
      const c = ASCII_CLASS[code]!;
      if (c !== 0) {
        // After a letter, digit or underscore any of these joins (WB5, WB8-10, WB13a/b).
        prev = c;
        lettersOrDigits ||= c !== UNDERSCORE_CLASS;
        i++;
        continue;
      }
      if (i + 1 < to && (prev === LETTER_CLASS ? JOINS_LETTERS[code] : prev === DIGIT_CLASS && JOINS_DIGITS[code])) {
        const next = ASCII_CLASS[text.charCodeAt(i + 1)]!;
        if (next === prev) {
          i += 2;
          continue;
        }
      }
      break;
    }
    if (lettersOrDigits || i - start >= 2) each(start, i);
  }
}

/** The word-like segments of `text` by the segmenter, as [start, end, start, end, ...]. */
function segmenterWords(text: string): number[] {
  const out: number[] = [];
  for (const s of wordSegmenter().segment(text)) if (isWord(s)) out.push(s.index, s.index + s.segment.length);
  return out;
}

/** Every case the scan decides: each candidate between letters, digits and underscores, and a few longer runs. */
function asciiProbe(): string {
  const sides = ['a', '1', '_'];
  const cases = ["can't", 'e.g.', 'a.b.c', '1.2.3', 'a..b', '1,,2', "x''y", "o'clock_", '12:30', 'a1b2', '1a', '_', '__', 'a_', '_1', 'A-Z'];
  for (const x of sides) for (const ch of ASCII_PUNCTUATION) for (const y of sides) cases.push(x + ch + y);
  return cases.join(' ');
}

let asciiAgrees: boolean | null = null;
/** Whether the scan finds exactly the words the segmenter finds, on the probe (the joiners read first; once). */
export function asciiScanAgrees(): boolean {
  if (asciiAgrees !== null) return asciiAgrees;
  for (const ch of ASCII_PUNCTUATION) {
    const code = ch.charCodeAt(0);
    JOINS_LETTERS[code] = segmenterWords(`a${ch}b`).join() === '0,3' ? 1 : 0;
    JOINS_DIGITS[code] = segmenterWords(`1${ch}2`).join() === '0,3' ? 1 : 0;
  }
  const probe = asciiProbe();
  const fast: number[] = [];
  forEachAsciiWord(probe, (a, b) => fast.push(a, b), 0, probe.length);
  const slow = segmenterWords(probe);
  asciiAgrees = fast.length === slow.length && fast.every((v, i) => v === slow[i]);
  return asciiAgrees;
}

/** Per code point from U+1F300 (the seam-emoji range): 0 not yet known, 1 Extended_Pictographic, 2 not. */
const SEAM_PICTOGRAPHIC = new Uint8Array(0x1fb00 - 0x1f300);

/**
 * Whether text[from, to) is only emoji that stand alone (seam emoji: between two of them nothing joins, see
 * emojiSeam), each Extended_Pictographic, so each is one word and the segmenter need not look: a line of one
 * repeated emoji took 20-40x the time of English of its size once English no longer went to the segmenter.
 */
function isLoneEmojiRun(text: string, from: number, to: number): boolean {
  if ((to - from) % 2 !== 0) return false;
  for (let i = from; i < to; i += 2) {
    const cp = text.codePointAt(i)!;
    if (cp < 0x10000 || !isSeamEmoji(cp)) return false;
    const k = cp - 0x1f300;
    if (SEAM_PICTOGRAPHIC[k] === 0) SEAM_PICTOGRAPHIC[k] = PICTOGRAPHIC.test(String.fromCodePoint(cp)) ? 1 : 2;
    if (SEAM_PICTOGRAPHIC[k] !== 1) return false;
  }
  return true;
}

function isAscii(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Calls `each(start, end)` for every word of text[start, end), in order, with offsets into `text`. */
export function forEachWord(text: string, each: (start: number, end: number) => void, from = 0, to = text.length): void {
  const seg = wordSegmenter();
  const ascii = asciiScanAgrees();
  let w = from;
  while (w < to) {
    const e = windowEnd(text, w, to);
    // The window ends at a safe cut (or the text's end), so an ASCII window is scanned whole.
    if (ascii && isAscii(text, w, e)) {
      forEachAsciiWord(text, each, w, e);
      w = e;
      continue;
    }
    // Segment the window in short stretches cut at safe cuts (which change nothing, so the words are those of the
    // whole window): Node's segmenter copies its whole input into every segment it returns, so its cost grows with
    // segments x input length.
    let a = w;
    while (a < e) {
      const b = stretchEnd(text, a, e);
      if (ascii && isAscii(text, a, b)) {
        forEachAsciiWord(text, each, a, b);
        a = b;
        continue;
      }
      if (isLoneEmojiRun(text, a, b)) {
        for (let i = a; i < b; i += 2) each(i, i + 2);
        a = b;
        continue;
      }
      const piece = a === 0 && b === text.length ? text : text.slice(a, b);
      for (const s of seg.segment(piece)) if (isWord(s)) each(a + s.index, a + s.index + s.segment.length);
      a = b;
    }
    w = e;
  }
}

/** Preferred length of a stretch given to the segmenter inside a window. */
const STRETCH = 256;

/** The end of the stretch of window text[.., end) that starts at `start`: a safe cut near STRETCH, else `end`. */
function stretchEnd(text: string, start: number, end: number): number {
  if (end - start <= STRETCH) return end;
  const hi = start + STRETCH;
  for (let p = hi; p > start + STRETCH / 8; p--) if (safeCut(text, p)) return p;
  for (let p = hi + 1; p < end; p++) if (safeCut(text, p)) return p;
  return end;
}

/** The words of `text` as parallel arrays of UTF-16 start and end offsets (kept in the document's cache). */
export function wordRanges(text: string): { starts: Int32Array; ends: Int32Array } {
  // Short texts (hover counts, tests) are cheaper to scan again than to cache.
  if (text.length <= 4096) return scanWordRanges(text);
  return documentCache.getOrCompute(text, 'words.ranges', () => scanWordRanges(text), (r) => r.starts.byteLength + r.ends.byteLength);
}

function scanWordRanges(text: string): { starts: Int32Array; ends: Int32Array } {
  let starts = new Int32Array(Math.max(16, text.length >> 3));
  let ends = new Int32Array(starts.length);
  let n = 0;
  forEachWord(text, (a, b) => {
    if (n === starts.length) {
      const s2 = new Int32Array(n * 2);
      s2.set(starts);
      starts = s2;
      const e2 = new Int32Array(n * 2);
      e2.set(ends);
      ends = e2;
    }
    starts[n] = a;
    ends[n++] = b;
  });
  return { starts: starts.slice(0, n), ends: ends.slice(0, n) };
}

export const wordsUnit: Unit = {
  name: 'words',
  count(text) {
    let n = 0;
    forEachWord(text, () => n++);
    return n;
  },
};

/**
 * Span counts in words over one source: `exact(a, b)` is always wordsUnit.count(source.slice(a, b)). The words
 * between the first safe cut at or after `a` and the last one at or before `b` come from a prefix table of the
 * document's word starts (O(1)); only the partial runs at the two edges are segmented again (a slice can begin
 * inside a word, or re-segment a dictionary-script run differently).
 */
export function wordsSpanCounter(source: string): (a: number, b: number) => number {
  const n = source.length;
  let before: Int32Array | null = null;
  const table = (): Int32Array => {
    if (before) return before;
    const t = new Int32Array(n + 1);
    const { starts } = wordRanges(source);
    let k = 0;
    for (let i = 0; i <= n; i++) {
      t[i] = k; // words starting before i
      while (k < starts.length && starts[k] === i) k++;
    }
    before = t;
    return t;
  };
  const EDGE = 256;
  // Below this a span is segmented whole; above, its middle comes from the table. (Segmenting costs per word, and
  // a line of emoji is a word every two code units: the packer's many counts of such spans were most of the time.)
  const SHORT = 64;
  // A span with no safe cut near an edge is counted as count(slice) counts it, window by window from its start.
  // The windows of [a, ..) do not depend on where the span ends, except the last: so the packer's many estimates
  // from one start (doubling, then bisecting) reuse them instead of segmenting the whole span each time (a line of
  // letters with no space: every estimate was a pass over up to a megabyte).
  let from = -1;
  /** Starts of the windows from `from` (starts[0] = from), and the words before each start. */
  let starts: number[] = [];
  let wordsBefore: number[] = [];
  const countFrom = (a: number, b: number): number => {
    if (a !== from) {
      from = a;
      starts = [a];
      wordsBefore = [0];
    }
    // The span's last window is the first that starts within WINDOW of b; every one before it is full.
    while (starts.at(-1)! < b - WINDOW) {
      const w = starts.at(-1)!;
      const e = windowEnd(source, w, n); // = windowEnd(source, w, b) while b - w > WINDOW
      let k = 0;
      forEachWord(source, () => k++, w, e);
      starts.push(e);
      wordsBefore.push(wordsBefore.at(-1)! + k);
    }
    const last = lowerBound(starts, b - WINDOW);
    return wordsBefore[last]! + wordsUnit.count(source.slice(starts[last]!, b));
  };
  return (a, b) => {
    if (b <= a) return 0;
    if (b - a <= SHORT) return wordsUnit.count(source.slice(a, b));
    let a2 = a;
    while (a2 < b && a2 - a < EDGE && !(a2 === 0 || safeCut(source, a2))) a2++;
    let b2 = b;
    while (b2 > a2 && b - b2 < EDGE && !(b2 === n || safeCut(source, b2))) b2--;
    if (!(a2 === 0 || safeCut(source, a2)) || !(b2 === n || safeCut(source, b2)) || b2 <= a2) {
      return countFrom(a, b);
    }
    const t = table();
    return wordsUnit.count(source.slice(a, a2)) + (t[b2]! - t[a2]!) + wordsUnit.count(source.slice(b2, b));
  };
}

/** Words (Intl.Segmenter word-like segments); span counts from wordsSpanCounter. */
function wordsMeter(source: string): SpanMeter {
  const count = wordsSpanCounter(source);
  return { exactEstimates: true, atMostOnePerCluster: true, exact: count, estimate: count };
}

// The descriptor (./wordsDescriptor.ts) counts with these once this file is loaded (getUnit('words') loads it).
provideWords({ wordRanges, wordsMeter });
