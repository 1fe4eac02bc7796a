import type { Chunk, EmbedTexts, Range } from '../types';
import { getRetriever } from './registry';
import { spanTermIds, termIds } from './tokenize';
import type { LeafSearcher, RetrieverSettings } from './types';

export { Bm25Index, BM25_DEFAULTS, type Bm25Params, type Scored } from './bm25/okapi';
export { EmbeddingCache, embeddingCache, cosine, denseRanking } from './dense/embeddings';
export { reciprocalRankFusion, RRF_K } from './hybrid/fusion';
export { terms, spanTerms, spanTermIds, wordRuns, termOf, DEFAULT_ANALYZER, type Analyzer } from './tokenize';
export { porterStem } from './porter';
export { ENGLISH_STOP_WORDS } from './stopWords';
export { RETRIEVER_REGISTRY, RETRIEVER_NAMES, getRetriever, type RetrieverName } from './registry';
export { ANALYZER_OPTIONS, searcherOf, topOfScores, type RetrieverDescriptor, type RetrieverInput, type LeafSearcher, type RetrieverSettings } from './types';

/** A document with its chunks (as chunk() returned them). */
export interface IndexedDocument {
  id: string;
  text: string;
  chunks: readonly Chunk[];
}

/**
 * What a question gets back: a unit of a document. For plain chunks a unit is the chunk; for parent–child units it is
 * the parent (children are matched); for sentence windows it is the window (sentences are matched); for
 * hierarchical units the leaf.
 */
export interface RetrievalUnit extends Range {
  /** Index into the index's `documents`. */
  document: number;
  documentId: string;
  /** The chunk that is the unit (index into its document's chunks), or null for a sentence window. */
  chunk: number | null;
}

/** One ranked unit. */
export interface Hit {
  /** 1 = best. */
  rank: number;
  /** The best score of the matched texts (BM25 score, cosine, or fused RRF score). */
  score: number;
  /** Index into `units`. */
  unit: number;
  /** The chunks that matched (children, sentences; the unit itself for plain chunks), best first. */
  matched: { chunk: number; score: number }[];
}

/** The indexed texts: every leaf chunk of every document (what a pipeline embeds). */
interface Leaf {
  document: number;
  chunk: number;
  unit: number;
}

/**
 * One index over several documents' chunks (Chroma's harness: one collection). Built once per chunk set; dense
 * embeddings come from `embed` through the (model, text) cache, so a rebuild after a slider move embeds only new
 * chunk texts. `rank(question)` returns every matching unit best first, `search(question, k)` the first k.
 */
export class RetrievalIndex {
  readonly units: RetrievalUnit[] = [];
  private readonly leaves: Leaf[] = [];
  /** The retriever's searcher over the leaves (set by build). */
  private searcher!: LeafSearcher;

  private constructor(
    readonly documents: readonly IndexedDocument[],
    readonly settings: RetrieverSettings,
  ) {
    documents.forEach((doc, d) => this.addDocument(doc, d));
  }

  /** Index the documents' leaves with the settings' retriever (./registry.ts). */
  static async build(documents: readonly IndexedDocument[], settings: RetrieverSettings, hooks: { embed?: EmbedTexts } = {}): Promise<RetrievalIndex> {
    const retriever = getRetriever(settings.retriever);
    const index = new RetrievalIndex(documents, settings);
    if (retriever.needsEmbeddings && !hooks.embed) throw new Error(`the ${settings.retriever} retriever needs embeddings: pass hooks.embed`);
    index.searcher = await retriever.index({ texts: index.leafTexts(), termIds: () => index.leafTermIds(), settings, embed: hooks.embed });
    return index;
  }

  /** True when leaf i is unit i (plain chunks): a leaf's score is its unit's. */
  get leavesAreUnits(): boolean {
    if (this.identity === null) this.identity = this.leaves.length === this.units.length && this.leaves.every((l, i) => l.unit === i);
    return this.identity;
  }
  private identity: boolean | null = null;

  /** The unit a leaf (index into the indexed texts) belongs to. */
  leafUnit(leaf: number): number {
    return this.leaves[leaf]!.unit;
  }

  /** How many texts are indexed (leaf chunks). */
  get indexedCount(): number {
    return this.leaves.length;
  }

  /** The indexed leaves (document and chunk indexes), in index order. */
  indexedLeaves(): readonly { document: number; chunk: number }[] {
    return this.leaves;
  }

  /** The indexed chunks (leaves), in index order. */
  indexedChunks(): Chunk[] {
    return this.leaves.map((l) => this.documents[l.document]!.chunks[l.chunk]!);
  }

  /** Each leaf's term ids: a chunk that is its source span reads them from the document's word runs (found once). */
  private leafTermIds(): number[][] {
    return this.leaves.map((l) => {
      const doc = this.documents[l.document]!;
      const c = doc.chunks[l.chunk]!;
      return c.content === c.text ? spanTermIds(doc.text, c.start, c.end, this.settings, []) : termIds(c.content, this.settings, []);
    });
  }

  private leafTexts(): string[] {
    return this.leaves.map((l) => this.documents[l.document]!.chunks[l.chunk]!.content);
  }

  private addDocument(doc: IndexedDocument, d: number): void {
    const byId = new Map<string, number>();
    doc.chunks.forEach((c, i) => byId.set(c.id, i));
    const unitOfChunk = new Map<number, number>();
    const unitFor = (chunk: number): number => {
      let u = unitOfChunk.get(chunk);
      if (u === undefined) {
        const c = doc.chunks[chunk]!;
        u = this.units.push({ document: d, documentId: doc.id, start: c.start, end: c.end, chunk }) - 1;
        unitOfChunk.set(chunk, u);
      }
      return u;
    };
    const mode = this.settings.retrieval ?? 'chunks';
    doc.chunks.forEach((c, i) => {
      if (c.metadata.leaf === false) return; // parents and upper levels: returned, not matched
      let unit: number;
      const parent = c.metadata.parentId !== undefined ? byId.get(c.metadata.parentId) : undefined;
      if (mode === 'window' && c.metadata.window) {
        unit = this.units.push({ document: d, documentId: doc.id, start: c.metadata.window.start, end: c.metadata.window.end, chunk: null }) - 1;
      } else if (mode === 'parent-child' && parent !== undefined) {
        unit = unitFor(parent);
      } else {
        unit = unitFor(i);
      }
      this.leaves.push({ document: d, chunk: i, unit });
    });
  }

  /** Leaves of each unit (index into the leaves). */
  private leavesOfUnit(): number[][] {
    if (!this.unitLeaves) {
      this.unitLeaves = this.units.map(() => []);
      this.leaves.forEach((l, i) => this.unitLeaves![l.unit]!.push(i));
    }
    return this.unitLeaves;
  }
  private unitLeaves: number[][] | null = null;

  /**
   * Every leaf's score for a question (-Infinity: not matched): the retriever's (BM25: texts sharing no word are not
   * matched; dense: every embedded text is; hybrid: the fused RRF score of the texts either ranking holds).
   */
  leafScores(question: string, { reuse = false }: { reuse?: boolean } = {}): Promise<Float64Array> {
    return this.searcher.scores(question, { reuse });
  }

  /** Each unit's score: its best leaf's (-Infinity: no leaf matched). */
  async unitScores(question: string): Promise<Float64Array> {
    const leaf = await this.leafScores(question);
    const out = new Float64Array(this.units.length).fill(-Infinity);
    for (let i = 0; i < leaf.length; i++) {
      const u = this.leaves[i]!.unit;
      if (leaf[i]! > out[u]!) out[u] = leaf[i]!;
    }
    return out;
  }

  /** The k best units of `scores` (from unitScores), best first; ties: earlier unit first. O(n log k). */
  top(scores: Float64Array, k: number): number[] {
    const best: number[] = [];
    const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
    for (let u = 0; u < scores.length; u++) {
      if (scores[u] === -Infinity) continue;
      if (best.length === k && !better(u, best[k - 1]!)) continue;
      let at = best.length === k ? k - 1 : best.length;
      if (best.length === k) best.pop();
      while (at > 0 && better(u, best[at - 1]!)) at--;
      best.splice(at, 0, u);
    }
    return best;
  }

  /** A unit's rank (from 1) under `scores`, or null when it did not match. O(n). */
  rankOf(scores: Float64Array, unit: number): number | null {
    const s = scores[unit]!;
    if (s === -Infinity) return null;
    let rank = 1;
    for (let v = 0; v < scores.length; v++) if (scores[v]! > s || (scores[v] === s && v < unit)) rank++;
    return rank;
  }

  /** How many units matched. */
  matchedCount(scores: Float64Array): number {
    let n = 0;
    for (let u = 0; u < scores.length; u++) if (scores[u] !== -Infinity) n++;
    return n;
  }

  /** Hits for units in rank order (their matched leaves best first). */
  async hitsFor(question: string, units: readonly number[], leafScores?: Float64Array): Promise<Hit[]> {
    const leaf = leafScores ?? (await this.leafScores(question));
    const of = this.leavesOfUnit();
    return units.map((u, i) => {
      const matched = of[u]!.filter((l) => leaf[l]! !== -Infinity)
        .map((l) => ({ chunk: this.leaves[l]!.chunk, score: leaf[l]! }))
        .sort((a, b) => b.score - a.score || a.chunk - b.chunk);
      return { rank: i + 1, score: matched[0]?.score ?? 0, unit: u, matched };
    });
  }

  /** Every unit that matched, best first: leaves mapped to their units, each unit once (at its best leaf's score). */
  async rank(question: string): Promise<Hit[]> {
    return this.search(question, Infinity);
  }

  /** The k best units for a question (a probe's ranking). */
  async search(question: string, k: number): Promise<Hit[]> {
    const leaf = await this.leafScores(question);
    const scores = new Float64Array(this.units.length).fill(-Infinity);
    for (let i = 0; i < leaf.length; i++) {
      const u = this.leaves[i]!.unit;
      if (leaf[i]! > scores[u]!) scores[u] = leaf[i]!;
    }
    let order: number[];
    if (k >= 64) {
      order = [];
      for (let u = 0; u < scores.length; u++) if (scores[u] !== -Infinity) order.push(u);
      order.sort((a, b) => scores[b]! - scores[a]! || a - b);
      if (k < order.length) order.length = k;
    } else order = this.top(scores, k);
    return this.hitsFor(question, order, leaf);
  }
}
