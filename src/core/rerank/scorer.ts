import { emptyCost, type Reranker } from './types';

/** Scores each (question, passage) pair: higher is more relevant. A cross-encoder is one; tests pass a stand-in. */
export type PairScorer = (question: string, passages: readonly string[]) => Promise<ArrayLike<number>>;

/** A reranker from a pair scorer: candidates by score, best first (ties: the retriever's order). */
export function scoreReranker(name: string, scorer: PairScorer): Reranker {
  const cost = emptyCost();
  return {
    name,
    async rerank(question, passages) {
      cost.questions++;
      if (passages.length === 0) return [];
      const scores = await scorer(question, passages);
      if (scores.length !== passages.length) throw new Error(`the ${name} scorer gave ${scores.length} scores for ${passages.length} passages`);
      cost.pairs += passages.length;
      return passages.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
    },
    cost: () => ({ ...cost, failuresByKind: { ...cost.failuresByKind }, tokens: { ...cost.tokens } }),
  };
}
