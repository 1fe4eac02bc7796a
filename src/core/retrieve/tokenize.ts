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
