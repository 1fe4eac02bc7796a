/**
 * Recall with and without a reranker, on the same index and questions: the retriever ranks every unit, its top N
 * (the candidates) go to the reranker, which keeps k. "Without" is the retriever's own top k. Metrics are the lab's
 * (core/eval/metrics.ts) on source characters; precision-Ω is left out (it does not depend on the ranking).
 */
import { meanMetrics, questionMetrics } from '../eval/metrics';
import { now, prepareQuestions, retrieverSettings, type PreparedQuestion } from '../eval/evaluate';
import type { EvalSettings } from '../eval/options';
import type { GoldenQuestion, QuestionMetrics } from '../eval/types';
import { RetrievalIndex, type IndexedDocument } from '../retrievers';
import type { EmbedTexts, ResolvedOptions } from '../types';
import type { RerankCost, Reranker } from './types';

export const RERANK_METRICS = ['recall', 'precision', 'iou', 'hit', 'reciprocalRank'] as const;
export type RerankMeans = Record<(typeof RERANK_METRICS)[number], number>;

export interface RerankQuestion {
  index: number;
  question: string;
  document: string;
  /** Recall at k from the retriever alone and after reranking its candidates. */
  recall: { retriever: number; reranked: number };
}

export interface RerankResult {
  reranker: string;
  candidates: number;
  k: number;
  measured: number;
  /** Means without (the retriever's top k) and with the reranker, and reranked minus retriever. */
  retriever: RerankMeans;
  reranked: RerankMeans;
  difference: RerankMeans;
  /** The candidates' recall (the most the reranker can reach). */
  candidateRecall: number;
  cost: RerankCost;
  /** Milliseconds spent in the reranker (all questions; timings on a shared machine are noisy). */
  rerankMs: number;
  questions: RerankQuestion[];
}

const pick = (m: ReturnType<typeof meanMetrics>): RerankMeans => Object.fromEntries(RERANK_METRICS.map((n) => [n, m[n]])) as RerankMeans;

export async function evaluateReranked(
  documents: readonly IndexedDocument[],
  questions: readonly GoldenQuestion[] | { prepared: PreparedQuestion[] },
  resolved: ResolvedOptions,
  settings: EvalSettings,
  reranker: Reranker,
  options: { candidates: number; embed?: EmbedTexts },
): Promise<RerankResult> {
  const { prepared } = Array.isArray(questions) ? prepareQuestions(documents, questions as readonly GoldenQuestion[]) : (questions as { prepared: PreparedQuestion[] });
  const index = await RetrievalIndex.build(documents, retrieverSettings(resolved, settings), { embed: options.embed });
  const k = settings.chunksInContext;
  const n = Math.max(k, options.candidates);
  const before: QuestionMetrics[] = [];
  const after: QuestionMetrics[] = [];
  const pool: QuestionMetrics[] = [];
  const out: RerankQuestion[] = [];
  let rerankMs = 0;
  for (const q of prepared) {
    const candidates = index.top(await index.unitScores(q.question), n);
    const spans = candidates.map((u) => index.units[u]!);
    const t0 = now();
    const order = await reranker.rerank(q.question, spans.map((u) => documents[u.document]!.text.slice(u.start, u.end)));
    rerankMs += now() - t0;
    const reranked = order.map((i) => spans[i]!);
    const m0 = questionMetrics(q.references, q.documentId, spans, k, []);
    const m1 = questionMetrics(q.references, q.documentId, reranked, k, []);
    before.push(m0);
    after.push(m1);
    pool.push(questionMetrics(q.references, q.documentId, spans, n, []));
    out.push({ index: q.index, question: q.question, document: q.documentId, recall: { retriever: m0.recall, reranked: m1.recall } });
  }
  const retriever = pick(meanMetrics(before));
  const rerankedMeans = pick(meanMetrics(after));
  const difference = Object.fromEntries(RERANK_METRICS.map((m) => [m, rerankedMeans[m] - retriever[m]])) as RerankMeans;
  return {
    reranker: reranker.name,
    candidates: n,
    k,
    measured: prepared.length,
    retriever,
    reranked: rerankedMeans,
    difference,
    candidateRecall: meanMetrics(pool).recall,
    cost: reranker.cost(),
    rerankMs: Math.round(rerankMs),
    questions: out,
  };
}
