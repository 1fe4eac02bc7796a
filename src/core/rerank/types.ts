/**
 * A reranker reorders a retriever's N candidates for one question and keeps the best k (the stage the guides put
 * between retrieval and the LLM). Two kinds: the LLM, listwise (./llm.ts), and any pair scorer — a cross-encoder
 * through transformers.js in Node (src/node/rerank/crossEncoder.ts), or a stand-in in tests (./scorer.ts).
 */

/** What reranking cost so far: requests (LLM) or scored pairs (cross-encoder), tokens, and repaired answers. */
export interface RerankCost {
  /** Questions reranked. */
  questions: number;
  /** LLM requests: answered from the cache, sent, failed (their order fell back to the retriever's). */
  requests: number;
  cached: number;
  sent: number;
  failed: number;
  /** Answers whose ids had to be repaired (out of range, repeated, missing): kept ids first, then the retriever's order. */
  repaired: number;
  /** Failures by kind (invalid-json, http-5xx, ...). */
  failuresByKind: Record<string, number>;
  /** Tokens as the server reported them (sent requests only). */
  tokens: { input: number; output: number };
  /** Cross-encoder: (question, passage) pairs scored. */
  pairs: number;
}

export interface Reranker {
  /** 'llm' or 'cross-encoder:<model>'. */
  readonly name: string;
  /** The candidates' new order (a permutation of 0..passages.length-1), best first. Never rejects but on Cancel. */
  rerank(question: string, passages: readonly string[]): Promise<number[]>;
  /** Running totals since the reranker was made. */
  cost(): RerankCost;
}

export function emptyCost(): RerankCost {
  return { questions: 0, requests: 0, cached: 0, sent: 0, failed: 0, repaired: 0, failuresByKind: {}, tokens: { input: 0, output: 0 }, pairs: 0 };
}

/**
 * A permutation from a model's ranking: valid ids (whole numbers in range) in the order given, each once, then every
 * id it left out in the retriever's order. `repaired` when anything had to be dropped or added.
 */
export function repairRanking(given: readonly unknown[], count: number): { order: number[]; repaired: boolean } {
  const seen = new Set<number>();
  const order: number[] = [];
  let dropped = false;
  for (const id of given) {
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < count && !seen.has(id)) {
      seen.add(id);
      order.push(id === 0 ? 0 : id); // -0 reads as 0
    } else dropped = true;
  }
  const added = count - order.length;
  for (let i = 0; i < count; i++) if (!seen.has(i)) order.push(i);
  return { order, repaired: dropped || added > 0 };
}
