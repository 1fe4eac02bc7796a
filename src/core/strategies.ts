import type { StrategyDefinition } from './registry';
import { characterStrategy } from './splitters/character';
import { codeStrategy } from './splitters/code';
import { fixedStrategy } from './splitters/fixed';
import { htmlStrategy } from './splitters/html';
import { markdownStrategy } from './splitters/markdown';
import { paragraphStrategy } from './splitters/paragraph';
import { recursiveStrategy } from './splitters/recursive';
import { semanticStrategy } from './splitters/semantic';
import { sentenceStrategy } from './splitters/sentence';
import { tokenStrategy } from './splitters/token';
import type { StrategyName } from './types';

/** Hand-written registry: one line per strategy (the page builds its controls from these definitions). */
export const STRATEGIES: StrategyDefinition[] = [
  recursiveStrategy,
  characterStrategy,
  sentenceStrategy,
  paragraphStrategy,
  fixedStrategy,
  tokenStrategy,
  semanticStrategy,
  markdownStrategy,
  htmlStrategy,
  codeStrategy,
];

export const STRATEGY_NAMES: StrategyName[] = STRATEGIES.map((s) => s.id);

export function getStrategy(id: string): StrategyDefinition {
  const found = STRATEGIES.find((s) => s.id === id);
  if (!found) throw new Error(`unknown strategy "${id}"`);
  return found;
}
