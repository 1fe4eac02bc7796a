import { strategyDefinition } from './strategyInfo';
import type { StrategyDefinition } from '../core/registry';
import type { AppState } from './store';
import type { PaintableResult, TokenCounts } from './resultsSlice';

/** Selectors live at module level so components subscribe to stable functions. */

export const selectConfig = (s: AppState) => s.config;
export const selectResult = (s: AppState) => s.result;
export const selectTokens = (s: AppState) => s.tokens;
export const selectError = (s: AppState) => s.error;
export const selectNotice = (s: AppState) => s.notice;
export const selectSelectedIndex = (s: AppState) => s.selectedIndex;
export const selectChunkCount = (s: AppState) => s.result?.starts.length ?? 0;
export const selectStats = (s: AppState) => s.result?.stats ?? null;
export const selectRunning = (s: AppState) => s.running;
export const selectProgress = (s: AppState) => s.progress;
export const selectDocLength = (s: AppState) => s.text.length;
export const selectDocName = (s: AppState) => s.docName;

export const selectStrategy = (s: AppState): StrategyDefinition => strategyDefinition(s.config.strategy);

/** Token count of each painted chunk, when known: the worker's counts, or the sizes themselves for token units. */
export function tokensFor(result: PaintableResult | null, tokens: TokenCounts | null): { counts: ArrayLike<number>; encoding: string } | null {
  if (!result) return null;
  if (tokens && tokens.jobId === result.jobId) return { counts: tokens.tokens, encoding: tokens.encoding };
  if (result.unit !== 'chars' && result.unit !== 'words') return { counts: result.sizes, encoding: result.unit };
  return null;
}

export interface ContextBudget {
  /** Mean chunk size in tokens (null until token counts arrive). */
  meanTokens: number | null;
  chunksInContext: number;
  /** k × mean tokens. */
  usedTokens: number | null;
  contextWindow: number;
  /** usedTokens / contextWindow. */
  fraction: number | null;
  encoding: string | null;
}

let budgetMemo: { key: unknown[]; value: ContextBudget } | null = null;

/** k chunks × mean size (in tokens) against the context window the user set. Memoized on its inputs. */
export function selectContextBudget(s: AppState): ContextBudget {
  const key = [s.result, s.tokens, s.config.contextWindow, s.config.chunksInContext];
  if (budgetMemo && budgetMemo.key.every((v, i) => v === key[i])) return budgetMemo.value;
  const counts = tokensFor(s.result, s.tokens);
  let meanTokens: number | null = null;
  if (counts && counts.counts.length > 0) {
    let sum = 0;
    for (let i = 0; i < counts.counts.length; i++) sum += counts.counts[i]!;
    meanTokens = sum / counts.counts.length;
  }
  const k = s.config.chunksInContext;
  const usedTokens = meanTokens === null ? null : meanTokens * k;
  const value: ContextBudget = {
    meanTokens,
    chunksInContext: k,
    usedTokens,
    contextWindow: s.config.contextWindow,
    fraction: usedTokens === null || s.config.contextWindow <= 0 ? null : usedTokens / s.config.contextWindow,
    encoding: counts?.encoding ?? null,
  };
  budgetMemo = { key, value };
  return value;
}

/** Indices of the chunks that contain `offset` (several where chunks overlap), by binary search. */
export function chunksAt(starts: Int32Array, ends: Int32Array, offset: number): number[] {
  let lo = 0;
  let hi = starts.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= offset) {
      last = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const found: number[] = [];
  for (let i = last; i >= 0; i--) {
    if (ends[i]! > offset) found.push(i);
    else break; // ends are in order too: no earlier chunk reaches this offset
  }
  return found.reverse();
}

/** Embedder token counts for the painted semantic result (null until they arrive, or for other strategies). */
export function selectEmbedderTokens(s: AppState): { counts: Int32Array; truncatedAt: Int32Array } | null {
  const t = s.embedderTokens;
  return t && s.result?.semantic && t.jobId === s.result.jobId ? t : null;
}
