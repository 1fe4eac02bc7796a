import type { StateCreator } from 'zustand';
import { OPTION_TABLE, type OptionSpec } from '../core/optionTable';
import type { StrategyName } from '../core/types';
import { PAGE_UNSET_NAMES, type Config, type ConfigName } from './config';
import { followDocument, initialMemory, switchStrategy, type StrategyMemory } from './strategySwitch';

export type { Config, ConfigName } from './config';


/** The table's options that are page state (in table order). */
export const CONFIG_OPTIONS: readonly OptionSpec[] = OPTION_TABLE.filter((o) => !o.document);

/** Options the page keeps at `null` ("unset") by default (see PAGE_UNSET_NAMES in ./config.ts). */
export const PAGE_UNSET: ReadonlySet<ConfigName> = new Set<ConfigName>(PAGE_UNSET_NAMES);

/** The page's value for an option's table default. */
function pageDefault(spec: OptionSpec): unknown {
  if (PAGE_UNSET.has(spec.name as ConfigName)) return null;
  // Levels are edited as text: the table's [2048, 512, 128] is shown as "2048, 512, 128".
  if (spec.kind === 'integers') return (spec.default as number[]).join(', ');
  return spec.default;
}

/** Every field at the table's default (no second copy of the defaults). */
export const DEFAULT_CONFIG: Config = Object.freeze(
  Object.fromEntries(CONFIG_OPTIONS.map((spec) => [spec.name, pageDefault(spec)])),
) as unknown as Config;

export interface ConfigSlice {
  config: Config;
  /** Who chose the strategy in effect and what its switch overwrote (see strategySwitch.ts). Not configuration. */
  strategyMemory: StrategyMemory;
  /** Set fields as given; a strategy set this way (a link, stored settings) counts as the person's choice. */
  setConfig: (patch: Partial<Config>) => void;
  /** The Strategy select: the new strategy, with what the previous switch imposed given back. */
  chooseStrategy: (strategy: StrategyName) => void;
  /** A new document: its kind's strategy (null: plain text, the person's own strategy). Returns the strategy
   * switched to, or null when it stays. */
  followDocumentKind: (suggested: StrategyName | null) => StrategyName | null;
  resetConfig: () => void;
}

export const createConfigSlice: StateCreator<ConfigSlice, [], [], ConfigSlice> = (set, get) => ({
  config: DEFAULT_CONFIG,
  strategyMemory: initialMemory(DEFAULT_CONFIG.strategy),
  setConfig: (patch) =>
    set((s) => ({
      config: { ...s.config, ...patch },
      ...(patch.strategy !== undefined && patch.strategy !== s.config.strategy
        ? { strategyMemory: { ...initialMemory(patch.strategy), own: s.strategyMemory.own } }
        : {}),
    })),
  chooseStrategy: (strategy) =>
    set((s) => {
      const next = switchStrategy(s.config, s.strategyMemory, strategy, 'user');
      return { config: { ...s.config, ...next.patch }, strategyMemory: next.memory };
    }),
  followDocumentKind: (suggested) => {
    const before = get().config.strategy;
    set((s) => {
      const next = followDocument(s.config, s.strategyMemory, suggested);
      return next ? { config: { ...s.config, ...next.patch }, strategyMemory: next.memory } : {};
    });
    const after = get().config.strategy;
    return after === before ? null : after;
  },
  resetConfig: () => set({ config: DEFAULT_CONFIG, strategyMemory: initialMemory(DEFAULT_CONFIG.strategy) }),
});
