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

interface Postings {
  docs: number[];
  tfs: number[];
}

export class Bm25Index {
  readonly size: number;
  readonly avgLength: number;
  private readonly lengths: Float64Array;
  private readonly postings = new Map<string, Postings>();
  private readonly idfs = new Map<string, number>();

  /** `texts`: what is indexed (chunk content); `termLists`: their terms when the caller already has them. */
  constructor(
    texts: readonly string[] | { terms: readonly (readonly string[])[] },
    readonly analyzer: Analyzer = DEFAULT_ANALYZER,
    readonly params: Bm25Params = BM25_DEFAULTS,
  ) {
    const lists = 'terms' in texts ? texts.terms : (texts as readonly string[]).map((t) => terms(t, analyzer));
    this.size = lists.length;
    this.lengths = new Float64Array(lists.length);
    let total = 0;
    for (let d = 0; d < lists.length; d++) {
      const list = lists[d]!;
      this.lengths[d] = list.length;
      total += list.length;
      const counts = new Map<string, number>();
      for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [t, tf] of counts) {
        let p = this.postings.get(t);
        if (!p) {
          p = { docs: [], tfs: [] };
          this.postings.set(t, p);
        }
        p.docs.push(d);
        p.tfs.push(tf);
      }
    }
    this.avgLength = lists.length > 0 ? total / lists.length : 0;
    // k1 · (1 − b + b · |d| / avgdl), once per text.
    const { k1, b } = this.params;
    const avg = this.avgLength || 1;
    this.norms = new Float64Array(lists.length);
    for (let d = 0; d < lists.length; d++) this.norms[d] = k1 * (1 - b + (b * this.lengths[d]!) / avg);
  }

  private readonly norms: Float64Array;

  /** ln(1 + (N − n + 0.5) / (n + 0.5)); 0 for a term no text holds. */
  idf(term: string): number {
    let v = this.idfs.get(term);
    if (v === undefined) {
      const n = this.postings.get(term)?.docs.length ?? 0;
      v = n === 0 ? 0 : Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
      this.idfs.set(term, v);
    }
    return v;
  }

  /** Every text's score for the question's terms (0 where none occurs). */
  scores(queryTerms: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    const k1 = this.params.k1;
    const norms = this.norms;
    for (const t of queryTerms) {
      const p = this.postings.get(t);
      if (!p) continue;
      const w = this.idf(t) * (k1 + 1);
      const { docs, tfs } = p;
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
