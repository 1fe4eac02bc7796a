import { BASE_DEFAULTS, STRATEGIES } from '../core/describe';
import type { StrategyDescription } from '../core/registry';
import type { KeepSeparator, ResolvedOptions, StrategyName } from '../core/types';

/** Registry entry for a strategy; an unknown id gets a neutral stand-in so the page never breaks on it. */
export function strategyDefinition(id: StrategyName | string): StrategyDescription {
  return (
    STRATEGIES.find((s) => s.id === id) ?? {
      id: id as StrategyName,
      label: String(id),
      description: '',
      defaults: {},
      controls: ['size', 'overlap', 'unit', 'separators', 'keepSeparator', 'language', 'compat'],
      compat: [],
    }
  );
}

/** What the engine uses for a field the user left unset: the strategy's default over the base defaults. */
export function defaultFor<K extends keyof ResolvedOptions>(id: StrategyName, key: K): ResolvedOptions[K] {
  const defaults = strategyDefinition(id).defaults;
  return (defaults[key] ?? BASE_DEFAULTS[key]) as ResolvedOptions[K];
}

export function defaultKeepSeparator(id: StrategyName): KeepSeparator {
  return defaultFor(id, 'keepSeparator');
}
