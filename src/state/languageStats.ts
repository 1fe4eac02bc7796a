import { franc } from 'franc-min';
import type { PaintableResult, TokenCounts } from './resultsSlice';
import { tokensFor } from './selectors';

/**
 * Tokens per word and characters per token, per detected language: a 512-token budget holds very different amounts
 * of text in English, German or Japanese. The language is found once per document (franc-min, trigram profiles of
 * 82 languages shipped in the package, nothing fetched) on paragraph windows; a chunk counts under the language
 * that holds at least 80% of it (chunks mixing languages are left out and counted). Words are Intl.Segmenter's word-like segments (as the words unit counts them).
 */

/** A window is whole paragraphs, at least this long (a heading line joins the paragraph after it). */
const WINDOW_CHARS = 40;
/** At most this many windows are detected per document (evenly spread); the others take the nearest one's. */
const MAX_DETECTED = 80;
/** franc reads this much of a window (its trigram profile is stable by then). */
const DETECT_CHARS = 600;
/** A language with less than this share of the classified tokens is counted as "other" (a trigram detector
 * calls a few windows of code, names or numbers Zulu or Madurese in an English document). */
const MIN_SHARE_OF_DOCUMENT = 0.02;

export interface LanguageWindows {
  /** Start offset of each window (ascending, first 0). */
  starts: number[];
  /** ISO 639-3 code per window ('und': too short or unknown). */
  languages: string[];
}

/** Split the text into windows of whole paragraphs and detect each (a sample of them on long documents). */
export function detectLanguageWindows(text: string): LanguageWindows {
  const starts: number[] = [];
  const paragraph = /\n\s*\n/g;
  let windowStart = 0;
  starts.push(0);
  for (let m = paragraph.exec(text); m; m = paragraph.exec(text)) {
    const end = m.index + m[0].length;
    if (end - windowStart >= WINDOW_CHARS && end < text.length) {
      starts.push(end);
      windowStart = end;
    }
  }
  const n = starts.length;
  const step = Math.max(1, n / MAX_DETECTED);
  const detected = new Map<number, string>();
  for (let k = 0; k < n; k += step) {
    const i = Math.floor(k);
    const end = i + 1 < n ? starts[i + 1]! : text.length;
    detected.set(i, franc(text.slice(starts[i]!, Math.min(end, starts[i]! + DETECT_CHARS)), { minLength: 20 }));
  }
  const sampled = [...detected.keys()];
  const languages = starts.map((_, i) => {
    const own = detected.get(i);
    if (own !== undefined) return own;
    let best = sampled[0]!;
    for (const j of sampled) if (Math.abs(j - i) < Math.abs(best - i)) best = j;
    return detected.get(best)!;
  });
  return { starts, languages };
}

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

/** First index i with starts[i] > offset, minus one: the window holding `offset`. */
function windowAt(starts: readonly number[], offset: number): number {
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

/** What the size setting holds in words in a language (null when the unit is words). */
function sizeInWordsFor(unit: string, size: number, r: { chars: number; words: number; tokens: number }): number | null {
  if (unit === 'words') return null;
  return unit === 'chars' ? size / (r.chars / r.words) : size / (r.tokens / r.words);
}

/** A chunk is of one language when at least this share of its characters lies in that language's windows. */
const MIN_SHARE = 0.8;

/** The language holding at least MIN_SHARE of [start, end), or null for a chunk that mixes languages. */
function dominantLanguage(windows: LanguageWindows, start: number, end: number, length: number): string | null {
  if (end <= start) return windows.languages[windowAt(windows.starts, start)] ?? 'und';
  const share = new Map<string, number>();
  for (let w = windowAt(windows.starts, start); w < windows.starts.length && windows.starts[w]! < end; w++) {
    const from = Math.max(start, windows.starts[w]!);
    const to = Math.min(end, w + 1 < windows.starts.length ? windows.starts[w + 1]! : length);
    const code = windows.languages[w]!;
    share.set(code, (share.get(code) ?? 0) + Math.max(0, to - from));
  }
  for (const [code, chars] of share) if (chars >= MIN_SHARE * (end - start)) return code;
  return null;
}

let windowsMemo: { text: string; windows: LanguageWindows } | null = null;
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
 * arrive (tokens and words, counted off the main thread). Memoized per job; a new size only redoes the "size in
 * words" column.
 */
export function selectLanguageRows(s: { result: PaintableResult | null; tokens: TokenCounts | null; config: { size: number } }): LanguageStats | null {
  const { result, tokens } = s;
  if (!result || !tokens || tokens.jobId !== result.jobId || !tokens.words || result.starts.length === 0) return null;
  if (rowsMemo?.result === result && rowsMemo.tokens === tokens) {
    if (rowsMemo.size !== s.config.size && rowsMemo.rows) rowsMemo = { ...rowsMemo, size: s.config.size, rows: withSize(rowsMemo.rows, result.unit, s.config.size) };
    return rowsMemo.rows;
  }
  const counts = tokensFor(result, tokens)!;
  if (windowsMemo?.text !== result.text) windowsMemo = { text: result.text, windows: detectLanguageWindows(result.text) };
  const rows = languageRows(result, { ...counts, words: tokens.words }, windowsMemo.windows, s.config.size);
  rowsMemo = { result, tokens, size: s.config.size, rows };
  return rows;
}

function withSize(stats: LanguageStats, unit: string, size: number): LanguageStats {
  return { ...stats, rows: stats.rows.map((r) => ({ ...r, sizeInWords: sizeInWordsFor(unit, size, r) })) };
}
