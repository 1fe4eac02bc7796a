import { documentCache } from '../documentCache';
import type { Range } from '../types';

/**
 * Sentences of source[start, end) with Intl.Segmenter for `locale` (any language it knows), as contiguous pieces
 * (a sentence keeps its trailing whitespace).
 *
 * Intl.Segmenter in Node 20 is very slow on long strings (1 MiB: ~28 s; it copies the whole input into every
 * segment object it returns, so the cost is segments × length), so the text is segmented in windows of a few KB. Windows are cut right after a line break: Unicode sentence rules always break after a paragraph separator
 * (UAX #29, SB4), so the result equals segmenting the whole text at once. A window with no line break is cut after
 * the space in ". X" (X a capital letter) or after 。！？, which are boundaries too; failing those, after any
 * whitespace or at a code point boundary (the only case where a window can cut a sentence: a line over 8 KB
 * without a sentence end).
 */

const WINDOW = 2048;
/**
 * A character that may end a sentence or a paragraph (UAX #29: breaks fall only after terminators and separators):
 * anything but letters, marks, decimal digits, emoji, ZWJ, space and tab. Conservative: commas and the like also
 * send a window to the segmenter.
 */
export const MAY_END_SENTENCE = /[^\p{L}\p{M}\p{Nd}\p{Extended_Pictographic}\u200d \t]/u;
const MAX_WINDOW = 4 * WINDOW;
/** A letter at the start of the string (one code point: an ideograph, kana, a Latin letter...). */
const LETTER = /^\p{L}/u;
// Not a document cache: one segmenter per locale for the life of the thread (a handful of locales), whatever the text.
const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'sentence' });
    segmenters.set(locale, s);
  }
  return s;
}

/**
 * Sentences of [start, end) of `source`. Results are kept per (document, locale) in the document's cache, so
 * moving a slider does not segment it again; a caller cutting many ranges takes `sentenceSplitter` once instead.
 */
export function sentences(source: string, start: number, end: number, locale: string): Range[] {
  return sentenceSplitter(source, locale)(start, end);
}

/** `sentences` for one document and locale, its memo looked up once (a packer level calls it for every range). */
export function sentenceSplitter(source: string, locale: string): (start: number, end: number) => Range[] {
  // Estimated at creation (it fills while packing): ranges of about 40 bytes, about one per 40 characters or fewer.
  const memo = documentCache.getOrCompute(source, `sentences:${locale}`, () => new Map<number, Range[]>(), () => source.length);
  const stride = source.length + 1;
  return (start, end) => {
    const key = start * stride + end;
    let found = memo.get(key);
    if (!found) {
      found = segment(source, start, end, locale);
      if (memo.size > 10_000) memo.clear();
      memo.set(key, found);
    }
    return found;
  };
}

function segment(source: string, start: number, end: number, locale: string): Range[] {
  const segmenter = segmenterFor(locale);
  const out: Range[] = [];
  let windowStart = start;
  const newlines = new NewlineFinder(source);
  while (windowStart < end) {
    const windowEnd = windowCut(source, windowStart, end, newlines);
    const text = source.slice(windowStart, windowEnd);
    if (!mayEndSentence(text)) {
      // Nothing here can end a sentence, so the segmenter would return the window whole: skip it (a long line of
      // letters, emoji or one repeated word is all such windows).
      out.push({ start: windowStart, end: windowEnd });
    } else {
      for (const seg of segmenter.segment(text)) {
        out.push({ start: windowStart + seg.index, end: windowStart + seg.index + seg.segment.length });
      }
    }
    windowStart = windowEnd;
  }
  return out;
}

/**
 * MAY_END_SENTENCE.test(text), through a table made from that regex (one entry per BMP unit and per code point of
 * the emoji blocks, filled 256 at a time as they are met), since the regex costs about 100 ns a code point on a long
 * line of emoji; anything else is left to the regex.
 */
export function mayEndSentence(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) {
      if (mayEndAt(c)) return true;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp < EMOJI_FROM || cp >= EMOJI_TO) return MAY_END_SENTENCE.test(text.slice(i)); // a lone surrogate too
    if (mayEndAt(0x10000 + cp - EMOJI_FROM)) return true;
    i++;
  }
  return false;
}

const EMOJI_FROM = 0x1f000;
const EMOJI_TO = 0x1fb00;
/** Index: a BMP unit, or 0x10000 + an emoji block code point's offset. */
const mayEndTable = new Uint8Array(0x10000 + EMOJI_TO - EMOJI_FROM);
const blockFilled = new Uint8Array(mayEndTable.length >> 8);

function mayEndAt(index: number): boolean {
  const block = index >> 8;
  if (blockFilled[block] === 0) {
    for (let j = block << 8; j < (block + 1) << 8; j++) {
      const cp = j < 0x10000 ? j : j - 0x10000 + EMOJI_FROM;
      mayEndTable[j] = MAY_END_SENTENCE.test(String.fromCodePoint(cp)) ? 1 : 0;
    }
    blockFilled[block] = 1;
  }
  return mayEndTable[index] === 1;
}

/**
 * The first line break at or after a position, for positions that only grow: one indexOf per line break found, not
 * one per window (a text without line breaks was scanned to its end for every window: quadratic).
 */
class NewlineFinder {
  private searchedFrom = Infinity;
  private found = -1;
  constructor(private readonly source: string) {}
  from(at: number): number {
    if (!(this.searchedFrom <= at && (this.found === -1 || this.found >= at))) {
      this.searchedFrom = at;
      this.found = this.source.indexOf('\n', at);
    }
    return this.found;
  }
}

function windowCut(source: string, from: number, end: number, newlines: NewlineFinder): number {
  if (end - from <= MAX_WINDOW) return end;
  const limit = from + MAX_WINDOW;
  const newline = newlines.from(from + WINDOW);
  if (newline >= 0 && newline < limit) return newline + 1;
  let anySpace = -1;
  for (let i = from + WINDOW; i < limit; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x3000) {
      const p = source.charCodeAt(i - 1);
      const next = source.charCodeAt(i + 1);
      // ". X", "! X", "? X" with X an ASCII capital: a sentence boundary by UAX #29 (SB11; SB8 needs lowercase).
      if ((p === 0x2e || p === 0x21 || p === 0x3f) && next >= 0x41 && next <= 0x5a) return i + 1;
      if (anySpace < 0) anySpace = i + 1;
    } else if ((c === 0x3002 || c === 0xff01 || c === 0xff1f) && LETTER.test(source.slice(i + 1, i + 3))) {
      // 。！？ end a sentence in CJK text without spaces when a letter follows (UAX #29 SB11; another terminator,
      // a closing mark or a comma would continue the sentence: SB8a, SB9).
      return i + 1;
    }
  }
  if (anySpace >= 0) return anySpace;
  const c = source.charCodeAt(limit);
  return c >= 0xdc00 && c <= 0xdfff ? limit + 1 : limit;
}
