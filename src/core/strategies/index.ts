import type { LoadedStrategy, Strategy, StrategyDescription, StrategyImplementation } from '../registry';
import type { StrategyName } from '../types';
import { character } from './character';
import { code } from './code';
import { fixed } from './fixed';
import { html } from './html';
import { markdown } from './markdown';
import { paragraph } from './paragraph';
import { recursive } from './recursive';
import { semantic } from './semantic';
import { sentence } from './sentence';
import { token } from './token';

/**
 * The registry: one line per strategy, its description (main-thread safe) and its implementation behind a dynamic
 * import, so the page's main bundle holds no parser and the worker loads only what a document needs.
 */
export const STRATEGIES = [
  entry(recursive, () => import('./recursive/split')),
  entry(character, () => import('./character/split')),
  entry(sentence, () => import('./sentence/split')),
  entry(paragraph, () => import('./paragraph/split')),
  entry(fixed, () => import('./fixed/split')),
  entry(token, () => import('./token/split')),
  entry(semantic, () => import('./semantic/split')),
  entry(markdown, () => import('./markdown/split')),
  entry(html, () => import('./html/split')),
  entry(code, () => import('./code/split')),
] as const;

/** The id of a registered strategy. */
export type StrategyId = (typeof STRATEGIES)[number]['id'];

// StrategyName (../types) is the registered ids: the registry fills in the contract's StrategyIds (declaration
// merging), so ../types.ts needs no import of this module and stays below it.
declare module '../types' {
  interface StrategyIds extends Record<StrategyId, true> {}
}

export const STRATEGY_NAMES: StrategyName[] = STRATEGIES.map((s) => s.id);

function entry<Id extends string>(description: StrategyDescription<Id>, load: () => Promise<{ implementation: StrategyImplementation }>): Strategy<Id> {
  return { ...description, load: () => load().then((m) => m.implementation) };
}

/** The description of a strategy (throws on an unknown id; validateOptions names the field first). */
export function getStrategy(id: string): Strategy {
  const found = (STRATEGIES as readonly Strategy[]).find((s) => s.id === id);
  if (!found) throw new Error(`unknown strategy "${id}"`);
  return found;
}

const loaded = new Map<string, Promise<LoadedStrategy>>();

/**
 * An implementation the caller already has in its bundle (the chunk worker's default strategy, in its first chunk),
 * so loading that strategy fetches nothing; the others stay behind their dynamic imports.
 */
export function provideStrategy(id: string, implementation: StrategyImplementation): void {
  if (!loaded.has(id)) loaded.set(id, Promise.resolve({ ...getStrategy(id), ...implementation }));
}

/** The description with its implementation (loaded once). */
export function loadStrategy(id: string): Promise<LoadedStrategy> {
  let found = loaded.get(id);
  if (!found) {
    const strategy = getStrategy(id);
    found = strategy.load().then((implementation) => ({ ...strategy, ...implementation }));
    loaded.set(id, found);
  }
  return found;
}

/** The strategies that implement a compat mode, in registry order (for messages and --help). */
export function strategiesWithCompat(mode: string): StrategyName[] {
  return (STRATEGIES as readonly Strategy[]).filter((s) => (s.compat as string[]).includes(mode)).map((s) => s.id);
}
