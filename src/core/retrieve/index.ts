import type { Chunk, EmbedTexts, Range, RetrievalMode } from '../types';
import { Bm25Index, BM25_DEFAULTS, type Bm25Params, type Scored } from './bm25';
import { denseRanking, embeddingCache } from './dense';
import { reciprocalRankFusion, RRF_K } from './fusion';
import { terms, type Analyzer } from './tokenize';

export { Bm25Index, BM25_DEFAULTS, type Bm25Params, type Scored } from './bm25';
export { EmbeddingCache, embeddingCache, cosine, denseRanking } from './dense';
export { reciprocalRankFusion, RRF_K } from './fusion';
export { terms, wordRuns, termOf, DEFAULT_ANALYZER, type Analyzer } from './tokenize';
export { porterStem } from './porter';
export { ENGLISH_STOP_WORDS } from './stopWords';

export type RetrieverName = 'bm25' | 'dense' | 'hybrid';

export interface RetrieverSettings extends Analyzer {
  retriever: RetrieverName;
  /** Hybrid: the dense ranking's weight (BM25's is 1 − w). */
  hybridWeight: number;
  /** Dense and hybrid: the model id the embeddings are cached under (e.g. 'builtin'). */
  embedder?: string;
  bm25?: Bm25Params;
  /** The chunks' retrieval units (chunk options' `retrieval`): 'parent-child' returns parents, 'window' windows. */
  retrieval?: RetrievalMode;
}

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
  private bm25: Bm25Index | null = null;
  private vectors: Float32Array[] | null = null;

  private constructor(
    readonly documents: readonly IndexedDocument[],
    readonly settings: RetrieverSettings,
    private readonly embed: EmbedTexts | undefined,
  ) {
    documents.forEach((doc, d) => this.addDocument(doc, d));
  }

  static async build(documents: readonly IndexedDocument[], settings: RetrieverSettings, hooks: { embed?: EmbedTexts } = {}): Promise<RetrievalIndex> {
    const index = new RetrievalIndex(documents, settings, hooks.embed);
    const texts = index.leafTexts();
    if (settings.retriever !== 'dense') index.bm25 = new Bm25Index(texts, settings, settings.bm25 ?? BM25_DEFAULTS);
    if (settings.retriever !== 'bm25') {
      if (!hooks.embed) throw new Error(`the ${settings.retriever} retriever needs embeddings: pass hooks.embed`);
      index.vectors = await embeddingCache(settings.embedder ?? 'builtin').embed(texts, hooks.embed);
    }
    return index;
  }

  /** How many texts are indexed (leaf chunks). */
  get indexedCount(): number {
    return this.leaves.length;
  }

  /** The indexed chunks (leaves), in index order. */
  indexedChunks(): Chunk[] {
    return this.leaves.map((l) => this.documents[l.document]!.chunks[l.chunk]!);
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

  /** The leaves ranked for a question (BM25, dense cosine, or their fusion). */
  async rankLeaves(question: string): Promise<Scored[]> {
    const { retriever, hybridWeight } = this.settings;
    const lexical = this.bm25 ? this.bm25.rankTerms(terms(question, this.settings)) : [];
    if (retriever === 'bm25') return lexical;
    const [q] = await embeddingCache(this.settings.embedder ?? 'builtin').embed([question], this.embed!);
    const dense = denseRanking(q!, this.vectors!);
    if (retriever === 'dense') return dense;
    return reciprocalRankFusion(
      [
        { ranking: dense, weight: hybridWeight },
        { ranking: lexical, weight: 1 - hybridWeight },
      ],
      RRF_K,
    );
  }

  /** Every unit that matched, best first: leaves mapped to their units, each unit once (at its best leaf's rank). */
  async rank(question: string): Promise<Hit[]> {
    const leaves = await this.rankLeaves(question);
    const hits: Hit[] = [];
    const at = new Map<number, Hit>();
    for (const s of leaves) {
      const leaf = this.leaves[s.index]!;
      let hit = at.get(leaf.unit);
      if (!hit) {
        hit = { rank: hits.length + 1, score: s.score, unit: leaf.unit, matched: [] };
        hits.push(hit);
        at.set(leaf.unit, hit);
      }
      hit.matched.push({ chunk: leaf.chunk, score: s.score });
    }
    return hits;
  }

  async search(question: string, k: number): Promise<Hit[]> {
    return (await this.rank(question)).slice(0, k);
  }
}

