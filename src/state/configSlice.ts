import type { StateCreator } from 'zustand';
import type { BreakpointMode, KeepSeparator, SentenceFinder, StrategyName, UnitName } from '../core/types';

/** Every control of the configuration panel. These fields round-trip through the URL and localStorage. */
export interface Config {
  strategy: StrategyName;
  size: number;
  overlap: number;
  unit: UnitName;
  /** null: the strategy's (or language preset's) own separators. */
  separators: string[] | null;
  /** Separators are regular-expression sources (CLI --regex); core refuses them in LangChain compat mode. */
  separatorsAreRegex: boolean;
  /** null: the strategy's default. */
  keepSeparator: KeepSeparator | null;
  /** Recursive language preset, or null for none. */
  language: string | null;
  /** Sentence segmentation locale (BCP 47, e.g. "de", "ja"); null: the engine's default. */
  locale: string | null;
  /** LangChain compatibility mode. */
  compat: boolean;
  /** Context budget: window size (tokens) and how many chunks a query puts into it. */
  contextWindow: number;
  chunksInContext: number;
  // Semantic strategy (names follow the CLI flags)
  breakpoint: BreakpointMode;
  /** The mode's parameter (--threshold); null: the mode's default. For 'absolute' it is the distance. */
  amount: number | null;
  /** A target number of chunks (--chunks); null: use the threshold. */
  targetChunks: number | null;
  buffer: number;
  minSize: number | null;
  maxSize: number | null;
  /** 'builtin', a hub model id, or 'local/<folder>' for a folder the user picked. */
  embedder: string;
  sentences: SentenceFinder;
  /** LlamaIndex compatibility (semantic only; LangChain's is `compat`). */
  llamaindex: boolean;
}

export const DEFAULT_CONFIG: Config = {
  strategy: 'recursive',
  size: 512,
  overlap: 64,
  unit: 'chars',
  separators: null,
  separatorsAreRegex: false,
  keepSeparator: null,
  language: null,
  locale: null,
  compat: false,
  contextWindow: 8192,
  chunksInContext: 5,
  breakpoint: 'percentile',
  amount: null,
  targetChunks: null,
  buffer: 1,
  minSize: null,
  maxSize: null,
  embedder: 'builtin',
  sentences: 'intl',
  llamaindex: false,
};

/** Config fields that may be null or a number. */
export const NULLABLE_NUMBERS = ['amount', 'targetChunks', 'minSize', 'maxSize'] as const;

export interface ConfigSlice {
  config: Config;
  setConfig: (patch: Partial<Config>) => void;
  resetConfig: () => void;
}

export const createConfigSlice: StateCreator<ConfigSlice, [], [], ConfigSlice> = (set) => ({
  config: DEFAULT_CONFIG,
  setConfig: (patch) => set((s) => ({ config: { ...s.config, ...patch } })),
  resetConfig: () => set({ config: DEFAULT_CONFIG }),
});
