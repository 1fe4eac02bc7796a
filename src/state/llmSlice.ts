import type { StateCreator } from 'zustand';
import type { Chunk } from '../core/types';
import type { LlmRunReport } from '../core/llm';

/**
 * The last completed LLM run in the page (contextual, propositions, boundaries or summaries over the current
 * document). The LLM panel writes it; the editor draws it and the lab evaluates it beside the plain chunks.
 */
export interface LlmPageResult {
  /** The document's serial (documentSlice) the run was over: another one means the result is stale. */
  documentSerial: number;
  /** Identifies the base chunk options and the LLM settings (never the API key): equal keys, equal chunks. */
  configKey: string;
  feature: string;
  chunks: Chunk[];
  report: LlmRunReport;
  /** Money at the prices the user set (per million tokens); null when no price was set. */
  cost: number | null;
}

export interface LlmSlice {
  llmResult: LlmPageResult | null;
  setLlmResult(result: LlmPageResult | null): void;
  resetLlm(): void;
}

export const createLlmSlice: StateCreator<LlmSlice, [], [], LlmSlice> = (set) => ({
  llmResult: null,
  setLlmResult: (llmResult) => set({ llmResult }),
  resetLlm: () => set({ llmResult: null }),
});
