import { searcherOf, type LeafSearcher, type RetrieverInput } from '../types';
import type { Scored } from '../bm25/okapi';
import { denseRanking, embeddingCache } from './embeddings';

/**
 * Cosine similarity of the question's embedding to each text's: every embedded text is matched. Embeddings come
 * through the (model, text) cache, so a rebuild after a slider move embeds only new chunk texts.
 */
export async function denseSearcher({ texts, settings, embed }: RetrieverInput): Promise<LeafSearcher & { ranking(question: string): Promise<Scored[]> }> {
  if (!embed) throw new Error(`the ${settings.retriever} retriever needs embeddings: pass hooks.embed`);
  const cache = embeddingCache(settings.embedder ?? 'builtin');
  const vectors = await cache.embed(texts, embed);
  /** Every embedded text, best first (what hybrid fuses). */
  const ranking = async (question: string): Promise<Scored[]> => {
    const [q] = await cache.embed([question], embed);
    return denseRanking(q!, vectors);
  };
  const searcher = searcherOf(async (question) => {
    const out = new Float64Array(vectors.length).fill(-Infinity);
    for (const d of await ranking(question)) out[d.index] = d.score;
    return out;
  });
  return { ...searcher, ranking };
}
