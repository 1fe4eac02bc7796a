import type { StrategyName } from '../core/types';
import type { Config } from './config';
import { strategyPatch } from './strategyInfo';

/**
 * Who picked the strategy in effect: the person (the Strategy select, a link, stored settings) or the document
 * (a markdown file brings markdown, a sample its own strategy). A document's strategy lasts as long as the
 * document: the next plain-text document goes back to the person's own choice.
 */
export type StrategySource = 'user' | 'document';

/** What a strategy switch has to remember so that no switch changes another setting for good. */
export interface StrategyMemory {
  /** The strategy the person chose last (a document's strategy never replaces it). */
  chosen: StrategyName;
  source: StrategySource;
  /** Settings a switch overwrote (the token strategy brings cl100k in place of chars), with their earlier value... */
  displaced: Partial<Config>;
  /** ...and the value the switch put there: the earlier value comes back when the setting still holds this one. */
  imposed: Partial<Config>;
  /** The strategy each displaced value belonged to. */
  from: Partial<Record<keyof Config, StrategyName>>;
  /** A strategy's own separators and keep-separator when it was left, given back when it is chosen again. */
  own: Partial<Record<StrategyName, Pick<Config, 'separators' | 'keepSeparator'>>>;
}

export function initialMemory(strategy: StrategyName): StrategyMemory {
  return { chosen: strategy, source: 'user', displaced: {}, imposed: {}, from: {}, own: {} };
}

/** Fields that are a strategy's own (reset to the new strategy's defaults on a switch, remembered per strategy). */
const OWN_FIELDS = ['separators', 'keepSeparator'] as const;

/**
 * The switch to `next`: first the settings the previous switch imposed and that are still as it left them go back,
 * then the new strategy's patch (strategyPatch); what that patch overwrites is remembered for the next switch.
 */
export function switchStrategy(
  config: Config,
  memory: StrategyMemory,
  next: StrategyName,
  source: StrategySource,
): { patch: Partial<Config>; memory: StrategyMemory } {
  const restored: Partial<Config> = {};
  for (const key of Object.keys(memory.displaced) as (keyof Config)[]) {
    if (Object.is(config[key], memory.imposed[key])) Object.assign(restored, { [key]: memory.displaced[key] });
  }
  const base: Config = { ...config, ...restored };
  const own = { ...memory.own, [config.strategy]: { separators: config.separators, keepSeparator: config.keepSeparator } };
  const patch: Partial<Config> = { ...restored, ...strategyPatch(base, next) };
  // A restored value is judged as the strategy it belonged to would judge it (recursive's "python" preset is a
  // preset again on the way back from code, not a grammar to clear).
  for (const key of Object.keys(restored) as (keyof Config)[]) {
    const asItsOwn = strategyPatch({ ...base, strategy: memory.from[key] ?? config.strategy }, next);
    if (Object.hasOwn(asItsOwn, key)) Object.assign(patch, { [key]: asItsOwn[key] });
    else Object.assign(patch, { [key]: restored[key] });
  }
  const kept = own[next];
  if (kept) Object.assign(patch, kept);
  const displaced: Partial<Config> = {};
  const imposed: Partial<Config> = {};
  const from: StrategyMemory['from'] = {};
  for (const key of Object.keys(patch) as (keyof Config)[]) {
    if (key === 'strategy' || (OWN_FIELDS as readonly string[]).includes(key)) continue;
    if (!Object.is(patch[key], base[key])) {
      Object.assign(displaced, { [key]: base[key] });
      Object.assign(imposed, { [key]: patch[key] });
      from[key] = Object.hasOwn(restored, key) ? (memory.from[key] ?? config.strategy) : config.strategy;
    }
  }
  return {
    patch,
    memory: { chosen: source === 'user' ? next : memory.chosen, source, displaced, imposed, from, own },
  };
}

/**
 * A new document arrived. `suggested`: the strategy its kind calls for (markdown for .md, html for .html, code
 * for source files), null for plain text. A structured document brings its strategy; a plain one goes back to the
 * person's choice when the strategy in effect was only the previous document's. null: nothing to change.
 */
export function followDocument(
  config: Config,
  memory: StrategyMemory,
  suggested: StrategyName | null,
): { patch: Partial<Config>; memory: StrategyMemory } | null {
  if (suggested !== null) {
    if (suggested === config.strategy) return null;
    return switchStrategy(config, memory, suggested, 'document');
  }
  if (memory.source !== 'document') return null;
  if (memory.chosen === config.strategy) return { patch: {}, memory: { ...memory, source: 'user' } };
  return switchStrategy(config, memory, memory.chosen, 'user');
}
