import { RETRIEVERS, type MeanMetrics } from '../core/describe';
import type { DerivedRetrieval } from '../core/eval/derived';
import type { LlmPageResult } from './llmSlice';

/**
 * The lab's LLM comparison (pure): the painted chunks ("plain") against the chunks of the page's last LLM run ("with
 * the feature") under BM25, dense and hybrid retrieval, with what the run cost beside recall. What runs is in
 * labJobs.ts (two worker evaluations per retriever); the page shows it on the lab's "With LLM" tab.
 */

/** The retrievers the comparison scores, in this order (those of the registry among them). */
export const LLM_COMPARE_RETRIEVERS: readonly string[] = ['bm25', 'dense', 'hybrid'].filter((r) => (RETRIEVERS as readonly string[]).includes(r));

export interface LlmCompareRow {
  retriever: string;
  plain: MeanMetrics | null;
  llm: MeanMetrics | null;
  /** Entries in each index (the LLM side counts propositions or summaries too). */
  plainIndexed: number | null;
  llmIndexed: number | null;
  /** A retriever that failed (e.g. the embedder could not load): its one line; the other rows still run. */
  error?: string;
}

/** What the LLM run cost, as the LLM panel recorded it. */
export interface LlmRunCost {
  requests: number;
  cached: number;
  sent: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  /** At the user's prices; null when no price was set. */
  money: number | null;
}

export interface LlmCompareState {
  feature: string;
  retrieval: DerivedRetrieval;
  /** The llmResult it scored (its configKey and document serial): a new run makes it stale. */
  resultKey: string;
  rows: LlmCompareRow[];
  done: number;
  running: boolean;
  error: string | null;
  cost: LlmRunCost;
}

/** Summaries route two-stage (summaries first, then the chunks inside the spans they chose); the rest is flat. */
export function llmRetrievalFor(feature: string): DerivedRetrieval {
  return feature === 'summaries' ? 'two-stage' : 'flat';
}

export const resultKeyOf = (r: LlmPageResult) => `${r.documentSerial}\u0000${r.configKey}\u0000${r.feature}`;

export type LlmCompareReadiness = { kind: 'none' } | { kind: 'stale'; message: string } | { kind: 'ready'; result: LlmPageResult };

/**
 * Whether the page's LLM result can be scored over the current document: one exists, it was made for this document
 * and every chunk's span still holds its text (an edit since the run moves offsets: it must run again).
 */
export function llmCompareReadiness(result: LlmPageResult | null, documentSerial: number, text: string): LlmCompareReadiness {
  if (!result) return { kind: 'none' };
  const moved = result.documentSerial !== documentSerial || result.chunks.some((c) => c.end > text.length || text.slice(c.start, c.end) !== c.text);
  if (moved) return { kind: 'stale', message: `The ${result.feature} result was made over another version of the document: run it again in the LLM panel.` };
  return { kind: 'ready', result };
}

export function llmRunCost(result: LlmPageResult): LlmRunCost {
  const r = result.report;
  return { requests: r.requests, cached: r.cached, sent: r.sent, failed: r.failed, inputTokens: r.usage.input, outputTokens: r.usage.output, money: result.cost };
}

/** Recall gained, in percentage points (with − plain), or null when a side is missing. */
export function recallGain(row: LlmCompareRow): number | null {
  return row.plain && row.llm ? (row.llm.recall - row.plain.recall) * 100 : null;
}

/**
 * What one point of recall costs: the run's money (else its tokens) over the points gained. "no gain" when recall did
 * not rise; null when the row has no figures.
 */
export function costPerPoint(row: LlmCompareRow, cost: LlmRunCost): string | null {
  const gain = recallGain(row);
  if (gain === null) return null;
  if (gain <= 1e-9) return 'no gain';
  if (cost.money !== null && cost.money > 0) return `${formatMoney(cost.money / gain)} per point`;
  const tokens = cost.inputTokens + cost.outputTokens;
  if (tokens > 0) return `${formatCount(tokens / gain)} tokens per point`;
  return 'no tokens counted (answers from the cache)';
}

export function formatMoney(x: number): string {
  if (x === 0) return '0';
  return x >= 1 ? x.toFixed(2) : x >= 0.01 ? x.toFixed(3) : x.toPrecision(2);
}

export function formatCount(x: number): string {
  return x >= 1e6 ? `${(x / 1e6).toFixed(1)}M` : x >= 1e4 ? `${Math.round(x / 1e3)}k` : String(Math.round(x));
}
