import { DEFAULT_ANALYZER, terms, type Analyzer, type Vocabulary } from '../tokenize';

/**
 * Okapi BM25 over a fixed list of texts (one chunk set), built once and queried many times:
 *
 *   score(q, d) = Σ over the question's terms t (repeats included) of
 *                 idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * with k1 = 1.2, b = 0.75; |d| the text's number of terms, avgdl their mean over the N texts, n(t) how many texts
 * hold t. The idf is the non-negative form (Lucene's, also MiniSearch's and Orama's): the classic
 * ln((N − n + 0.5) / (n + 0.5)) turns negative for a word in more than half the chunks, which would make a text
 * that shares a common word with the question rank below one that shares nothing.
 * Texts without any of the question's terms are not returned (score 0: nothing matched).
 */
export interface Bm25Params {
  k1: number;
  b: number;
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

export interface Scored {
  /** Index of the text in the list the index was built from. */
  index: number;
  score: number;
}

export class Bm25Index {
  readonly size: number;
  readonly avgLength: number;
  private readonly lengths: Float64Array;
  /** Term → id; postings per id as parallel arrays of text indexes and term frequencies. */
  private readonly ids = new Map<string, number>();
  private readonly docs: number[][] = [];
  private readonly tfs: number[][] = [];
  private readonly idfs: number[] = [];
  private readonly norms: Float64Array;

  /** With term ids (`termIds`): the vocabulary they index, and each id's place in this index's postings. */
  private readonly vocabulary: Vocabulary | null = null;
  private readonly local: Int32Array | null = null;

  /**
   * `texts`: what is indexed (chunk content); `terms`: their terms when the caller already has them; `termIds`: their
   * term ids in a shared vocabulary (no string per word: what a slider move re-indexes).
   */
  constructor(
    texts: readonly string[] | { terms: readonly (readonly string[])[] } | { termIds: readonly (readonly number[])[]; vocabulary: Vocabulary },
    readonly analyzer: Analyzer = DEFAULT_ANALYZER,
    readonly params: Bm25Params = BM25_DEFAULTS,
  ) {
    let lists: readonly (readonly number[])[];
    if ('termIds' in texts) {
      this.vocabulary = texts.vocabulary;
      lists = texts.termIds;
      this.local = new Int32Array(texts.vocabulary.idOf.size).fill(-1);
    } else {
      // Strings are given ids of this index's own.
      const strings = 'terms' in texts ? texts.terms : (texts as readonly string[]).map((t) => terms(t, analyzer));
      lists = strings.map((list) =>
        list.map((t) => {
          let id = this.ids.get(t);
          if (id === undefined) this.ids.set(t, (id = this.ids.size));
          return id;
        }),
      );
    }
    this.size = lists.length;
    this.lengths = new Float64Array(lists.length);
    let total = 0;
    // Term frequencies per text counted in a scratch array indexed by posting id (no map per text).
    let counts = new Int32Array(1024);
    const touched: number[] = [];
    const local = this.local;
    for (let d = 0; d < lists.length; d++) {
      const list = lists[d]!;
      this.lengths[d] = list.length;
      total += list.length;
      for (let j = 0; j < list.length; j++) {
        let id = list[j]!;
        if (local) {
          // A vocabulary id → this index's posting id (made on first sight).
          if (local[id]! < 0) local[id] = this.docs.length;
          id = local[id]!;
        }
        if (id >= this.docs.length) {
          while (this.docs.length <= id) {
            this.docs.push([]);
            this.tfs.push([]);
          }
          if (id >= counts.length) {
            const grown = new Int32Array(Math.max(counts.length * 2, id + 1));
            grown.set(counts);
            counts = grown;
          }
        }
        if (counts[id]!++ === 0) touched.push(id);
      }
      for (const id of touched) {
        this.docs[id]!.push(d);
        this.tfs[id]!.push(counts[id]!);
        counts[id] = 0;
      }
      touched.length = 0;
    }
    this.avgLength = lists.length > 0 ? total / lists.length : 0;
    // k1 · (1 − b + b · |d| / avgdl), once per text.
    const { k1, b } = this.params;
    const avg = this.avgLength || 1;
    this.norms = new Float64Array(lists.length);
    for (let d = 0; d < lists.length; d++) this.norms[d] = k1 * (1 - b + (b * this.lengths[d]!) / avg);
    for (const list of this.docs) this.idfs.push(Math.log(1 + (this.size - list.length + 0.5) / (list.length + 0.5)));
  }

  /** The posting id of a term, or undefined when no text holds it. */
  private postingOf(term: string): number | undefined {
    if (!this.vocabulary) return this.ids.get(term);
    const id = this.vocabulary.idOf.get(term);
    if (id === undefined || id >= this.local!.length) return undefined;
    const p = this.local![id]!;
    return p < 0 ? undefined : p;
  }

  /** ln(1 + (N − n + 0.5) / (n + 0.5)); 0 for a term no text holds. */
  idf(term: string): number {
    const id = this.postingOf(term);
    return id === undefined ? 0 : this.idfs[id]!;
  }

  /** Every text's score for the question's terms (0 where none occurs), into `out` when given (reused buffers). */
  scores(queryTerms: readonly string[], out: Float64Array = new Float64Array(this.size)): Float64Array {
    out.fill(0);
    const k1 = this.params.k1;
    const norms = this.norms;
    for (const t of queryTerms) {
      const id = this.postingOf(t);
      if (id === undefined) continue;
      const w = this.idfs[id]! * (k1 + 1);
      const docs = this.docs[id]!;
      const tfs = this.tfs[id]!;
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        const tf = tfs[i]!;
        out[d]! += (w * tf) / (tf + norms[d]!);
      }
    }
    return out;
  }

  /** The texts holding at least one of the question's words, best first (ties: earlier text first). */
  search(query: string, limit = Infinity): Scored[] {
    return this.rankTerms(terms(query, this.analyzer), limit);
  }

  rankTerms(queryTerms: readonly string[], limit = Infinity): Scored[] {
    const scores = this.scores(queryTerms);
    const out: Scored[] = [];
    for (let d = 0; d < scores.length; d++) if (scores[d]! > 0) out.push({ index: d, score: scores[d]! });
    out.sort((x, y) => y.score - x.score || x.index - y.index);
    return limit < out.length ? out.slice(0, limit) : out;
  }
}
