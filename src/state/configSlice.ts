import type { StateCreator } from 'zustand';
import type { KeepSeparator, StrategyName, UnitName } from '../core/types';

/** Every control of the configuration panel. These fields round-trip through the URL and localStorage. */
export interface Config {
  strategy: StrategyName;
  size: number;
  overlap: number;
  unit: UnitName;
  /** null: the strategy's (or language preset's) own separators. */
  separators: string[] | null;
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
}

export const DEFAULT_CONFIG: Config = {
  strategy: 'recursive',
  size: 512,
  overlap: 64,
  unit: 'chars',
  separators: null,
  keepSeparator: null,
  language: null,
  locale: null,
  compat: false,
  contextWindow: 8192,
  chunksInContext: 5,
};

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
