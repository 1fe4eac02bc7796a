import { porterStem } from './porter';
import { ENGLISH_STOP_WORDS } from './stopWords';
import { upperBound } from '../sorted';
import { ANALYZER_OPTION_ROWS } from '../optionRows';
import type { RowValues } from '../types';

/**
 * The words BM25 counts: maximal runs of Unicode letters, combining marks and digits (`[\p{L}\p{M}\p{N}]+`),
 * lower-cased; optionally without stop words and reduced to Porter stems. The same analysis runs on chunks and
 * questions. Its settings are the analyzer's rows (src/core/optionRows.ts, ANALYZER_OPTION_ROWS).
 */
export type Analyzer = RowValues<typeof ANALYZER_OPTION_ROWS>;

/** The rows' defaults (no stop words dropped, no stemming). */
export const DEFAULT_ANALYZER = Object.fromEntries(ANALYZER_OPTION_ROWS.map((row) => [row.name, row.default])) as Analyzer;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The word runs of source[start, end) as offsets (a run cut by the range is clipped, as if the slice were tokenized). */
export function wordRuns(source: string, start = 0, end = source.length): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const text = start === 0 && end === source.length ? source : source.slice(start, end);
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) out.push({ start: start + m.index, end: start + m.index + m[0].length });
  return out;
}

const stems = new Map<string, string>();
function stemOf(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = porterStem(word);
    if (stems.size > 200_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/** One word as a term, or null when the analyzer drops it (a stop word). `word` is already lower-cased. */
export function termOf(word: string, analyzer: Analyzer): string | null {
  if (analyzer.stopWords === 'english' && ENGLISH_STOP_WORDS.has(word)) return null;
  return analyzer.stemming ? stemOf(word) : word;
}

/** The terms of `text`, in order (duplicates kept). */
export function terms(text: string, analyzer: Analyzer = DEFAULT_ANALYZER): string[] {
  const out: string[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const t = termOf(m[0].toLowerCase(), analyzer);
    if (t !== null) out.push(t);
  }
  return out;
}

/** A document's word runs and their terms, found once and shared by every chunk of it (a sweep re-chunks often). */
interface DocumentWords {
  starts: Int32Array;
  ends: Int32Array;
  /** The run's term, or null when the analyzer drops it. */
  terms: (string | null)[];
  /** The run's term id in the analyzer's vocabulary (-1: dropped). */
  ids: Int32Array;
}

/** Term ids shared by every document analysed the same way, so that an index over several documents agrees. */
export interface Vocabulary {
  idOf: Map<string, number>;
}

const vocabularies = new Map<string, Vocabulary>();
const MAX_VOCABULARY = 2_000_000;

/** The vocabulary of an analyzer (term → id). */
export function vocabularyOf(analyzer: Analyzer): Vocabulary {
  const key = `${analyzer.stopWords} ${analyzer.stemming}`;
  let v = vocabularies.get(key);
  if (!v || v.idOf.size > MAX_VOCABULARY) {
    // A new vocabulary invalidates the documents' ids made with the old one.
    documentWords.delete(key);
    vocabularies.set(key, (v = { idOf: new Map() }));
  }
  return v;
}

function idFor(vocabulary: Vocabulary, term: string): number {
  let id = vocabulary.idOf.get(term);
  if (id === undefined) vocabulary.idOf.set(term, (id = vocabulary.idOf.size));
  return id;
}

// Per analyzer, the last documents' words (keyed by the text itself: V8 keeps a string's hash, so a lookup with the
// same text is cheap). The oldest out first.
const documentWords = new Map<string, Map<string, DocumentWords>>();
const MAX_DOCUMENTS = 64;

function wordsOf(text: string, analyzer: Analyzer): DocumentWords {
  const analyzerKey = `${analyzer.stopWords} ${analyzer.stemming}`;
  vocabularyOf(analyzer); // (re)made first: a fresh vocabulary drops the documents' old ids
  let byText = documentWords.get(analyzerKey);
  if (!byText) documentWords.set(analyzerKey, (byText = new Map()));
  let found = byText.get(text);
  if (found) return found;
  const runs = wordRuns(text);
  const vocabulary = vocabularyOf(analyzer);
  found = { starts: new Int32Array(runs.length), ends: new Int32Array(runs.length), terms: new Array(runs.length), ids: new Int32Array(runs.length) };
  for (let i = 0; i < runs.length; i++) {
    found.starts[i] = runs[i]!.start;
    found.ends[i] = runs[i]!.end;
    const term = termOf(text.slice(runs[i]!.start, runs[i]!.end).toLowerCase(), analyzer);
    found.terms[i] = term;
    found.ids[i] = term === null ? -1 : idFor(vocabulary, term);
  }
  if (byText.size >= MAX_DOCUMENTS) byText.delete(byText.keys().next().value!);
  byText.set(text, found);
  return found;
}

/**
 * Walks the words of text.slice(start, end) from the whole text's word runs: `inside(i)` for a run wholly in the
 * span (its index), `cut(s, e)` for the part of a run the span cuts (analysed as the slice would show it).
 */
function forSpanWords(words: DocumentWords, start: number, end: number, inside: (i: number) => void, cut: (s: number, e: number) => void): void {
  const { starts, ends } = words;
  // From the first run ending after `start`.
  for (let i = upperBound(ends, start); i < starts.length && starts[i]! < end; i++) {
    if (starts[i]! >= start && ends[i]! <= end) inside(i);
    else cut(Math.max(start, starts[i]!), Math.min(end, ends[i]!));
  }
}

/**
 * The terms of text.slice(start, end), exactly as terms() would find them in that slice, from the whole text's word
 * runs: a run inside the span is taken as it is, a run the span cuts is analysed as the slice would show it.
 */
export function spanTerms(text: string, start: number, end: number, analyzer: Analyzer = DEFAULT_ANALYZER): string[] {
  const words = wordsOf(text, analyzer);
  const out: string[] = [];
  forSpanWords(
    words,
    start,
    end,
    (i) => {
      const t = words.terms[i];
      if (t !== null && t !== undefined) out.push(t);
    },
    (s, e) => out.push(...terms(text.slice(s, e), analyzer)),
  );
  return out;
}

/**
 * The term ids (in the analyzer's vocabulary) of text.slice(start, end): spanTerms() as ids, without making a string
 * per word. Pushed onto `out`.
 */
export function spanTermIds(text: string, start: number, end: number, analyzer: Analyzer, out: number[]): number[] {
  const words = wordsOf(text, analyzer);
  const vocabulary = vocabularyOf(analyzer);
  forSpanWords(
    words,
    start,
    end,
    (i) => {
      if (words.ids[i]! >= 0) out.push(words.ids[i]!);
    },
    (s, e) => {
      for (const t of terms(text.slice(s, e), analyzer)) out.push(idFor(vocabulary, t));
    },
  );
  return out;
}

/** The term ids of any text (content that is not a source span). */
export function termIds(text: string, analyzer: Analyzer, out: number[]): number[] {
  const vocabulary = vocabularyOf(analyzer);
  for (const t of terms(text, analyzer)) out.push(idFor(vocabulary, t));
  return out;
}
