import type { Scored } from '../bm25/okapi';
import type { EmbedTexts } from '../../types';
import { cosineSimilarity } from '../../vectors';

/**
 * Embeddings cached per (model, text): the probe re-embeds only chunk texts a slider move changed, and a sweep
 * embeds each distinct chunk text once. One cache per model id (caches() returns it); entries are dropped oldest
 * first past `maxEntries`.
 */
export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  constructor(
    readonly model: string,
    readonly maxEntries = 200_000,
  ) {}

  get size(): number {
    return this.vectors.size;
  }

  /** One vector per text, embedding (in one call) only the texts not cached. Blank texts get a zero vector. */
  async embed(texts: readonly string[], embed: EmbedTexts): Promise<Float32Array[]> {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const t of texts) if (t.trim() !== '' && !this.vectors.has(t) && !seen.has(t)) (seen.add(t), missing.push(t));
    if (missing.length > 0) {
      const got = await embed(missing);
      if (got.length !== missing.length) throw new Error(`the embedder returned ${got.length} vectors for ${missing.length} texts`);
      missing.forEach((t, i) => this.vectors.set(t, got[i]!));
      while (this.vectors.size > this.maxEntries) this.vectors.delete(this.vectors.keys().next().value!);
    }
    let dims = 0;
    for (const t of texts) {
      const v = this.vectors.get(t);
      if (v) {
        dims = v.length;
        break;
      }
    }
    return texts.map((t) => this.vectors.get(t) ?? new Float32Array(dims));
  }
}

const caches = new Map<string, EmbeddingCache>();

/** The shared cache of a model (one per model id). */
export function embeddingCache(model: string): EmbeddingCache {
  let c = caches.get(model);
  if (!c) {
    c = new EmbeddingCache(model);
    caches.set(model, c);
  }
  return c;
}

/** Cosine similarity (core's one cosine; 0 instead of NaN when either vector is zero or empty — an embedder may give
 * an empty query no vector at all — so it ranks as unrelated). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  const similarity = cosineSimilarity(a, b);
  return Number.isNaN(similarity) ? 0 : similarity;
}

/** Every vector ranked by cosine similarity to the query, best first (ties: earlier first); zero vectors last, left out. */
export function denseRanking(query: Float32Array, vectors: readonly Float32Array[], limit = Infinity): Scored[] {
  const out: Scored[] = [];
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    if (v.length === 0) continue;
    out.push({ index: i, score: cosine(query, v) });
  }
  out.sort((x, y) => y.score - x.score || x.index - y.index);
  return limit < out.length ? out.slice(0, limit) : out;
}
