// Types only: the detector (and franc-min's profiles) stays in the chunk worker's bundle.
import type { LanguageWindows } from '../core/languageWindows';
import type { PaintableResult, TokenCounts } from './resultsSlice';
import { tokensFor } from './selectors';
import { unitDescriptor } from '../core/units';

/**
 * Tokens per word and characters per token, per detected language: a 512-token budget holds very different amounts
 * of text in English, German or Japanese. The chunk worker finds the language once per document on paragraph windows
 * (core/languageWindows.ts) and sends the windows with the token counts; a chunk counts under the language that holds
 * at least 80% of it (chunks mixing languages are left out and counted). Words are Intl.Segmenter's word-like
 * segments (as the words unit counts them).
 */

/** A language with less than this share of the classified tokens is counted as "other" (a trigram detector
 * calls a few windows of code, names or numbers Zulu or Madurese in an English document). */
const MIN_SHARE_OF_DOCUMENT = 0.02;

export interface LanguageRow {
  /** ISO 639-3 code ('und' when franc cannot tell). */
  code: string;
  name: string;
  chunks: number;
  chars: number;
  words: number;
  tokens: number;
  charsPerToken: number;
  tokensPerWord: number;
  /** What the size setting means in words for this language (null when the unit is words). */
  sizeInWords: number | null;
}

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;

/** Words as the words unit counts them: Intl.Segmenter's word-like segments. */
export function wordCount(text: string): number {
  if (!segmenter) return text.split(/\s+/).filter(Boolean).length;
  let n = 0;
  for (const s of segmenter.segment(text)) if (s.isWordLike) n++;
  return n;
}

function languageName(code: string): string {
  if (code === 'und') return 'Undetermined';
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? name : `${code} (ISO 639-3)`;
  } catch {
    return `${code} (ISO 639-3)`;
  }
}

/** The language of window `w`. */
function windowLanguage(windows: LanguageWindows, w: number): string {
  return windows.codes[windows.index[w]!]!;
}

/** First index i with starts[i] > offset, minus one: the window holding `offset`. */
function windowAt(starts: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Per language: the chunks whose middle lies in its windows, their characters, words and tokens (the token counts
 * the page has: the chosen encoding, or cl100k for character and word units), largest share first.
 */
export function languageRows(
  result: PaintableResult,
  /** `words`: each chunk's word count, from the chunk worker (the page never segments the document itself). */
  tokens: { counts: ArrayLike<number>; encoding: string; words?: ArrayLike<number> },
  windows: LanguageWindows,
  size: number,
): { rows: LanguageRow[]; mixed: number; other: number } {
  const sums = new Map<string, { chunks: number; chars: number; words: number; tokens: number }>();
  const text = result.text;
  let mixed = 0;
  for (let i = 0; i < result.starts.length; i++) {
    const start = result.starts[i]!;
    const end = result.ends[i]!;
    // A chunk counts under its language when at least MIN_SHARE of it is in that language; a chunk that mixes
    // languages would blur both figures, so it is left out (and counted).
    const code = dominantLanguage(windows, start, end, text.length);
    if (code === null) {
      mixed++;
      continue;
    }
    const row = sums.get(code) ?? { chunks: 0, chars: 0, words: 0, tokens: 0 };
    row.chunks++;
    row.chars += end - start;
    row.words += tokens.words ? (tokens.words[i] ?? 0) : wordCount(result.text.slice(start, end));
    row.tokens += tokens.counts[i] ?? 0;
    sums.set(code, row);
  }
  const unit = result.unit;
  // The share in tokens, not characters: a dense script (Japanese) holds many tokens in few characters.
  let classified = 0;
  for (const r of sums.values()) classified += r.tokens;
  let other = 0;
  const rows = [...sums.entries()]
    .filter(([, r]) => {
      const kept = r.tokens > 0 && r.words > 0 && r.tokens >= MIN_SHARE_OF_DOCUMENT * classified;
      if (!kept) other += r.chunks;
      return kept;
    })
    .map(([code, r]) => {
      const charsPerToken = r.chars / r.tokens;
      const tokensPerWord = r.tokens / r.words;
      return { code, name: languageName(code), ...r, charsPerToken, tokensPerWord, sizeInWords: sizeInWordsFor(unit, size, r) };
    })
    .sort((a, b) => b.chars - a.chars);
  return { rows, mixed, other };
}

/** What the size setting holds in words in a language (null for words themselves, and for a unit the sample does not count). */
function sizeInWordsFor(unit: string, size: number, r: { chars: number; words: number; tokens: number }): number | null {
  const counted = unitDescriptor(unit)?.sampleCount;
  if (counted === undefined) return null;
  return size / (r[counted] / r.words);
}

/** A chunk is of one language when at least this share of its characters lies in that language's windows. */
const MIN_SHARE = 0.8;

/** The language holding at least MIN_SHARE of [start, end), or null for a chunk that mixes languages. */
function dominantLanguage(windows: LanguageWindows, start: number, end: number, length: number): string | null {
  const first = windowAt(windows.starts, start);
  if (end <= start) return windowLanguage(windows, first);
  // Most chunks lie in windows of one language (every window it touches holds some of it): all of it is theirs.
  let last = first;
  while (last + 1 < windows.starts.length && windows.starts[last + 1]! < end && windows.index[last + 1] === windows.index[first]) last++;
  if (last + 1 >= windows.starts.length || windows.starts[last + 1]! >= end) return windowLanguage(windows, first);
  const share = new Map<string, number>();
  for (let w = first; w < windows.starts.length && windows.starts[w]! < end; w++) {
    const from = Math.max(start, windows.starts[w]!);
    const to = Math.min(end, w + 1 < windows.starts.length ? windows.starts[w + 1]! : length);
    const code = windowLanguage(windows, w);
    share.set(code, (share.get(code) ?? 0) + Math.max(0, to - from));
  }
  for (const [code, chars] of share) if (chars >= MIN_SHARE * (end - start)) return code;
  return null;
}

export interface LanguageStats {
  rows: LanguageRow[];
  /** Chunks left out because no language holds 80% of them. */
  mixed: number;
  /** Chunks of languages under 2% of the tokens (detector noise or a short quote), counted, not listed. */
  other: number;
}
let rowsMemo: { result: PaintableResult; tokens: TokenCounts; size: number; rows: LanguageStats | null } | null = null;

/**
 * The stats panel's per-language rows for the painted chunks: null until the chunk worker's counts for this job
 * arrive (tokens, words and the language windows, all found off the main thread). Memoized per job; a new size only redoes the "size in
 * words" column.
 */
export function selectLanguageRows(s: { result: PaintableResult | null; tokens: TokenCounts | null; config: { size: number } }): LanguageStats | null {
  const { result, tokens } = s;
  if (!result || !tokens || tokens.jobId !== result.jobId || !tokens.words || !tokens.languages || result.starts.length === 0) return null;
  if (rowsMemo?.result === result && rowsMemo.tokens === tokens) {
    if (rowsMemo.size !== s.config.size && rowsMemo.rows) rowsMemo = { ...rowsMemo, size: s.config.size, rows: withSize(rowsMemo.rows, result.unit, s.config.size) };
    return rowsMemo.rows;
  }
  const counts = tokensFor(result, tokens)!;
  const rows = languageRows(result, { ...counts, words: tokens.words }, tokens.languages, s.config.size);
  rowsMemo = { result, tokens, size: s.config.size, rows };
  return rows;
}

function withSize(stats: LanguageStats, unit: string, size: number): LanguageStats {
  return { ...stats, rows: stats.rows.map((r) => ({ ...r, sizeInWords: sizeInWordsFor(unit, size, r) })) };
}
