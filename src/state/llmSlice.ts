import type { StateCreator } from 'zustand';
import type { Chunk } from '../core/types';
import type { LlmEstimate, LlmRunReport } from '../core/llm';
import type { LlmHover } from './llmEditor';
import { rememberedKey, setKeyRemembered } from './llmKey';
import { DEFAULT_LLM_SETTINGS, initialLlmSettings, LLM_SETTINGS_STORAGE, type LlmSettings } from './llmSettings';

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
  /** The source the run was over (the drawing slices passages and support spans from it). */
  source?: string;
}

/** What the panel shows about the run in progress (or the last one that stopped). */
export interface LlmRunState {
  phase: 'idle' | 'running' | 'cancelled' | 'failed';
  done: number;
  total: number;
  /** Tokens the server reported so far (sent requests only). */
  tokensIn: number;
  tokensOut: number;
  /** performance.now() at the start. */
  startedAt: number;
  /** Requests sent so far (cached ones are not). */
  sent: number;
  /** Chrome's built-in model: its download in [0, 1] while the browser fetches it. */
  download: number | null;
  /** One line when the run could not start or stopped (cancelled, or the options are refused). */
  message: string | null;
}

/** The estimate for the configuration `configKey`, or why there is none. */
export type LlmEstimateState = { configKey: string; estimate: LlmEstimate } | { configKey: string; error: string } | null;

export const IDLE_RUN: LlmRunState = { phase: 'idle', done: 0, total: 0, tokensIn: 0, tokensOut: 0, startedAt: 0, sent: 0, download: null, message: null };

export interface LlmSlice {
  llmResult: LlmPageResult | null;
  setLlmResult(result: LlmPageResult | null): void;
  /** The panel's "Show in the editor": the result drawn over the source (./llmEditor.ts says when it applies). */
  llmInEditor: boolean;
  setLlmInEditor(shown: boolean): void;
  /** The proposition hovered or focused in the panel (its support is marked in the editor), or null. */
  llmHover: LlmHover | null;
  setLlmHover(hover: LlmHover | null): void;
  llmSettings: LlmSettings;
  setLlmSettings(patch: Partial<LlmSettings>): void;
  /** In memory; in localStorage only while llmRememberKey is on (./llmKey.ts). Never configuration. */
  llmApiKey: string;
  llmRememberKey: boolean;
  setLlmApiKey(key: string): void;
  setLlmRememberKey(remember: boolean): void;
  llmOpen: boolean;
  toggleLlm(): void;
  llmEstimate: LlmEstimateState;
  setLlmEstimate(estimate: LlmEstimateState): void;
  llmRun: LlmRunState;
  setLlmRun(patch: Partial<LlmRunState>): void;
  resetLlm(): void;
}

function startSettings(): LlmSettings {
  try {
    return initialLlmSettings(globalThis.location?.search, globalThis.localStorage?.getItem(LLM_SETTINGS_STORAGE) ?? null);
  } catch {
    return DEFAULT_LLM_SETTINGS; // storage refused
  }
}

export const createLlmSlice: StateCreator<LlmSlice, [], [], LlmSlice> = (set, get) => ({
  llmResult: null,
  setLlmResult: (llmResult) => set({ llmResult, llmHover: null }),
  llmInEditor: true,
  setLlmInEditor: (llmInEditor) => set({ llmInEditor }),
  llmHover: null,
  setLlmHover: (llmHover) => set({ llmHover }),
  llmSettings: startSettings(),
  setLlmSettings: (patch) => set((s) => ({ llmSettings: { ...s.llmSettings, ...patch } })),
  llmApiKey: rememberedKey() ?? '',
  llmRememberKey: rememberedKey() !== null,
  setLlmApiKey: (llmApiKey) => {
    set({ llmApiKey });
    if (get().llmRememberKey) setKeyRemembered(true, llmApiKey);
  },
  setLlmRememberKey: (llmRememberKey) => {
    set({ llmRememberKey });
    setKeyRemembered(llmRememberKey, get().llmApiKey);
  },
  llmOpen: false,
  toggleLlm: () => set((s) => ({ llmOpen: !s.llmOpen })),
  llmEstimate: null,
  setLlmEstimate: (llmEstimate) => set({ llmEstimate }),
  llmRun: IDLE_RUN,
  setLlmRun: (patch) => set((s) => ({ llmRun: { ...s.llmRun, ...patch } })),
  resetLlm: () =>
    set({ llmResult: null, llmSettings: DEFAULT_LLM_SETTINGS, llmApiKey: '', llmRememberKey: false, llmOpen: false, llmEstimate: null, llmRun: IDLE_RUN, llmInEditor: true, llmHover: null }),
});
