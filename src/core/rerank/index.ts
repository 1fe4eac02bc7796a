/** Reranking: the retriever's N candidates reordered to k by the LLM (listwise) or a pair scorer (cross-encoder). */
export { emptyCost, repairRanking, type RerankCost, type Reranker } from './types';
export { scoreReranker, type PairScorer } from './scorer';
export { llmReranker, listPassages, RERANK_TEMPLATE, type LlmRerankOptions } from './llm';
export { evaluateReranked, RERANK_METRICS, type RerankMeans, type RerankQuestion, type RerankResult } from './evaluate';
