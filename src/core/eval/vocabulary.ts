import { porterStem } from '../retrievers/porter';
import { ENGLISH_STOP_WORDS } from '../retrievers/stopWords';
import { termOf, terms, type Analyzer } from '../retrievers/tokenize';
import { isRetrieved, quote, type ExplainInput, type ExplainUnit, type Failure, type ReferenceLabel } from './failures';

/**
 * Vocabulary mismatches of a word-matching retriever (BM25, hybrid), for an answer whose chunk was not retrieved:
 * - stemming (when off): a question word is not in the answer's chunk but shares its Porter stem with a word that
 *   is ("refunded" / "refunds"): with stemming they would match;
 * - stop words (when kept): a retrieved chunk shares only stop words with the question, while the answer's chunk
 *   shares content words: without stop words that chunk would not have matched at all.
 */
export function vocabularyMismatch(i: number, bearing: readonly ExplainUnit[], input: ExplainInput, label: ReferenceLabel): Failure[] {
  const { question, analyzer } = input;
  if (!question || !analyzer) return [];
  const lost = bearing.filter((u) => !isRetrieved(u, input.k) && u.chunk);
  if (lost.length === 0) return [];
  const chunkText = lost.length === 1 ? lost[0]!.chunk!.content : lost.map((u) => u.chunk!.content).join('\n');
  const chunks = lost.map((u) => u.chunk!.index);
  const out: Failure[] = [];
  if (!analyzer.stemming) {
    const pairs = stemOnlyMatches(question, chunkText, analyzer);
    if (pairs.length > 0) {
      const list = pairs.slice(0, 4).map(([q, c]) => `${quote(q)} / ${quote(c)}`).join(', ');
      out.push({
        kind: 'vocabulary-mismatch',
        reference: i,
        chunks,
        hint: 'stemming',
        words: pairs.map(([q, c]) => `${q}/${c}`),
        message: `the question and the chunk holding ${label(i)} share ${list} only after stemming: try --stemming (the lab's Stemming)`,
      });
    }
  }
  if (analyzer.stopWords !== 'english' && input.retrieved) {
    const stop = stopWordsOnly(question, chunkText, analyzer, input.retrieved);
    if (stop) {
      out.push({
        kind: 'vocabulary-mismatch',
        reference: i,
        chunks,
        hint: 'stop-words',
        words: stop.stopWords,
        message:
          `chunk ${stop.chunk ?? '(window)'} (rank ${stop.rank}) shares only stop words (${stop.stopWords.map(quote).join(', ')}) with the question, ` +
          `while the chunk holding ${label(i)} shares ${stop.content.map(quote).join(', ')}: try --stop-words english (the lab's Stop words)`,
      });
    }
  }
  return out;
}

const PLAIN: Analyzer = { stopWords: 'none', stemming: false } as Analyzer;

/**
 * The set of a text's terms under an analyzer, remembered per (analyzer, text): the questions of a golden set meet
 * the same chunks again and again, and tokenizing them for every failing question cost more than the search.
 */
const termSets = new Map<string, Map<string, Set<string>>>();
function termSet(text: string, analyzer: Analyzer): Set<string> {
  const key = `${analyzer.stopWords}\u0000${analyzer.stemming}`;
  let byText = termSets.get(key);
  if (!byText) termSets.set(key, (byText = new Map()));
  let set = byText.get(text);
  if (!set) {
    if (byText.size > 4096) byText.clear();
    set = new Set(terms(text, analyzer));
    byText.set(text, set);
  }
  return set;
}

const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size > 100_000) stems.clear();
    s = porterStem(word);
    stems.set(word, s);
  }
  return s;
}

/** Question words missing from the text whose stem one of the text's words has: [question word, text word]. */
export function stemOnlyMatches(question: string, text: string, analyzer: Analyzer): [string, string][] {
  const words = termSet(text, PLAIN);
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (const w of terms(question, PLAIN)) {
    // Stop words say little about a mismatch ("its" / "it"): only content words are named.
    if (seen.has(w) || words.has(w) || ENGLISH_STOP_WORDS.has(w) || termOf(w, { ...analyzer, stemming: false }) === null) continue;
    seen.add(w);
    const s = stem(w);
    // Porter keeps a word's first letters: only the text's words starting like the stem are stemmed.
    const head = s.slice(0, 3);
    for (const candidate of words) {
      if (candidate.startsWith(head) && stem(candidate) === s) {
        out.push([w, candidate]);
        break;
      }
    }
  }
  return out;
}

/** The first retrieved unit sharing only stop words with the question, when the answer's chunk shares content words. */
function stopWordsOnly(question: string, chunkText: string, analyzer: Analyzer, retrieved: NonNullable<ExplainInput['retrieved']>): { rank: number; chunk: number | null; stopWords: string[]; content: string[] } | null {
  const qWords = [...new Set(terms(question, PLAIN))];
  const shared = (text: string) => {
    const have = termSet(text, analyzer);
    return qWords.filter((w) => {
      const t = termOf(w, analyzer);
      return t !== null && have.has(t);
    });
  };
  const content = shared(chunkText).filter((w) => !ENGLISH_STOP_WORDS.has(w));
  if (content.length === 0) return null;
  for (const r of retrieved) {
    const s = shared(r.text);
    if (s.length > 0 && s.every((w) => ENGLISH_STOP_WORDS.has(w))) return { rank: r.rank, chunk: r.chunk, stopWords: s, content };
  }
  return null;
}
