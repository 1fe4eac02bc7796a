import type { StrategyDefinition } from './registry';
import type { StrategyName } from './types';

/** Hand-written registry: one line per strategy (the page builds its controls from these definitions). */
export const STRATEGIES: StrategyDefinition[] = [];

export const STRATEGY_NAMES: StrategyName[] = ['fixed', 'token', 'character', 'sentence', 'paragraph', 'recursive'];

export function getStrategy(id: string): StrategyDefinition {
  const found = STRATEGIES.find((s) => s.id === id);
  if (!found) throw new Error(`unknown strategy "${id}"`);
  return found;
}
