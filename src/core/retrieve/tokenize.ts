import { porterStem } from './porter';
import { ENGLISH_STOP_WORDS } from './stopWords';

/**
 * The words BM25 counts: maximal runs of Unicode letters, combining marks and digits (`[\p{L}\p{M}\p{N}]+`),
 * lower-cased; optionally without stop words and reduced to Porter stems. The same analysis runs on chunks and
 * questions.
 */
export interface Analyzer {
  stopWords: 'none' | 'english';
  stemming: boolean;
}

export const DEFAULT_ANALYZER: Analyzer = { stopWords: 'none', stemming: false };

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
}

// Per analyzer, the last documents' words (keyed by the text itself: V8 keeps a string's hash, so a lookup with the
// same text is cheap). The oldest out first.
const documentWords = new Map<string, Map<string, DocumentWords>>();
const MAX_DOCUMENTS = 64;

function wordsOf(text: string, analyzer: Analyzer): DocumentWords {
  const analyzerKey = `${analyzer.stopWords} ${analyzer.stemming}`;
  let byText = documentWords.get(analyzerKey);
  if (!byText) documentWords.set(analyzerKey, (byText = new Map()));
  let found = byText.get(text);
  if (found) return found;
  const runs = wordRuns(text);
  found = { starts: new Int32Array(runs.length), ends: new Int32Array(runs.length), terms: new Array(runs.length) };
  for (let i = 0; i < runs.length; i++) {
    found.starts[i] = runs[i]!.start;
    found.ends[i] = runs[i]!.end;
    found.terms[i] = termOf(text.slice(runs[i]!.start, runs[i]!.end).toLowerCase(), analyzer);
  }
  if (byText.size >= MAX_DOCUMENTS) byText.delete(byText.keys().next().value!);
  byText.set(text, found);
  return found;
}

/**
 * The terms of text.slice(start, end), exactly as terms() would find them in that slice, from the whole text's word
 * runs: a run inside the span is taken as it is, a run the span cuts is analysed as the slice would show it.
 */
export function spanTerms(text: string, start: number, end: number, analyzer: Analyzer = DEFAULT_ANALYZER): string[] {
  const words = wordsOf(text, analyzer);
  const { starts, ends } = words;
  // The first run ending after `start`.
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! <= start) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < starts.length && starts[i]! < end; i++) {
    if (starts[i]! >= start && ends[i]! <= end) {
      const t = words.terms[i];
      if (t !== null && t !== undefined) out.push(t);
    } else {
      out.push(...terms(text.slice(Math.max(start, starts[i]!), Math.min(end, ends[i]!)), analyzer));
    }
  }
  return out;
}
