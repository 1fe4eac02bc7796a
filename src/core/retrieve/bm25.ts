import { DEFAULT_ANALYZER, terms, type Analyzer } from './tokenize';

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

  /** `texts`: what is indexed (chunk content); `terms`: their terms when the caller already has them. */
  constructor(
    texts: readonly string[] | { terms: readonly (readonly string[])[] },
    readonly analyzer: Analyzer = DEFAULT_ANALYZER,
    readonly params: Bm25Params = BM25_DEFAULTS,
  ) {
    const lists = 'terms' in texts ? texts.terms : (texts as readonly string[]).map((t) => terms(t, analyzer));
    this.size = lists.length;
    this.lengths = new Float64Array(lists.length);
    let total = 0;
    // Term frequencies per text counted in a scratch array indexed by term id (no map per text).
    let counts = new Int32Array(1024);
    const touched: number[] = [];
    for (let d = 0; d < lists.length; d++) {
      const list = lists[d]!;
      this.lengths[d] = list.length;
      total += list.length;
      for (const t of list) {
        let id = this.ids.get(t);
        if (id === undefined) {
          id = this.docs.length;
          this.ids.set(t, id);
          this.docs.push([]);
          this.tfs.push([]);
          if (id >= counts.length) {
            const grown = new Int32Array(counts.length * 2);
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

  /** ln(1 + (N − n + 0.5) / (n + 0.5)); 0 for a term no text holds. */
  idf(term: string): number {
    const id = this.ids.get(term);
    return id === undefined ? 0 : this.idfs[id]!;
  }

  /** Every text's score for the question's terms (0 where none occurs), into `out` when given (reused buffers). */
  scores(queryTerms: readonly string[], out: Float64Array = new Float64Array(this.size)): Float64Array {
    out.fill(0);
    const k1 = this.params.k1;
    const norms = this.norms;
    for (const t of queryTerms) {
      const id = this.ids.get(t);
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
