import { appliesTo, optionSpec, type OptionSpec } from '../core/optionTable';
import { BASE_DEFAULTS } from '../core/options';
import { LANGUAGE_PRESETS } from '../core/languages';
import { STRATEGIES } from '../core/strategies/index';
import type { ControlName, StrategyDescription } from '../core/registry';
import type { KeepSeparator, ResolvedOptions, StrategyName } from '../core/types';
import type { Config, ConfigName } from './config';
import { unitDescriptor } from '../core/units';

/** Registry entry for a strategy; an unknown id gets a neutral stand-in so the page never breaks on it. */
export function strategyDefinition(id: StrategyName | string): StrategyDescription {
  const found = STRATEGIES.find((s) => s.id === id);
  if (found) return found;
  // The first registered strategy's controls under the unknown name, without its own rules or compat modes.
  const first = STRATEGIES[0]!;
  return { ...first, id: id as StrategyName, label: String(id), description: '', defaults: {}, compat: [], language: undefined };
}

/** What the engine uses for a field the user left unset: the strategy's default over the base defaults. */
export function defaultFor<K extends keyof ResolvedOptions>(id: StrategyName, key: K): ResolvedOptions[K] {
  const defaults = strategyDefinition(id).defaults;
  return (defaults[key] ?? BASE_DEFAULTS[key]) as ResolvedOptions[K];
}

/**
 * Options no strategy lists among its controls because they only mean something under another option: they apply
 * where that option applies, and only while it has the value that uses them.
 */
const SUB_OPTIONS: Partial<Record<ConfigName, { of: ConfigName; when: (config: Config) => boolean }>> = {
  // LangChain (and every compat mode) splits on literal separators.
  separatorsAreRegex: { of: 'separators', when: (c) => compatInUse(c) === 'none' },
  parentSize: { of: 'retrieval', when: (c) => c.retrieval === 'parent-child' },
  window: { of: 'retrieval', when: (c) => c.retrieval === 'window' },
  levels: { of: 'retrieval', when: (c) => c.retrieval === 'hierarchical' },
};

/** The compat mode in effect: the configured one where the strategy implements it, else none. */
export function compatInUse(config: Config): Config['compat'] {
  const strategy = strategyDefinition(config.strategy);
  return strategy.compat.includes(config.compat) && strategy.controls.includes('compat') ? config.compat : 'none';
}

/** Options the strategy lists that are used only under another option's value. */
const CONDITIONS: Partial<Record<ConfigName, (config: Config) => boolean>> = {
  // MarkdownHeaderTextSplitter's own flags: they mean nothing outside LangChain compatibility.
  stripHeaders: (c) => compatInUse(c) === 'langchain',
  returnEachLine: (c) => compatInUse(c) === 'langchain',
  // A target number of chunks replaces the amount: an unused (perhaps out-of-range) amount is not sent.
  amount: (c) => c.chunks === null,
};

/**
 * Whether an option applies to the configuration's strategy: the strategy's description lists it (page settings
 * and the strategy itself always apply), or it is a sub-option of one it lists. A hidden option never reaches the
 * engine, the URL or the options shown to the CLI.
 */
export function optionApplies(spec: OptionSpec, strategy: StrategyDescription): boolean {
  if (spec.document) return false;
  const sub = SUB_OPTIONS[spec.name as ConfigName];
  return sub ? appliesTo(optionSpec(sub.of), strategy) : appliesTo(spec, strategy);
}

/** Whether an applicable option is in use under the other values (a sub-option's parent value, compat mode). */
export function optionInUse(spec: OptionSpec, config: Config): boolean {
  const name = spec.name as ConfigName;
  // A compat mode that cannot take an option (Chonkie's RecursiveChunker has no overlap): hidden and not sent.
  if (strategyDefinition(config.strategy).compatProfiles?.[compatInUse(config)]?.refuses?.[name as ControlName]) return false;
  const sub = SUB_OPTIONS[name];
  if (sub && !sub.when(config)) return false;
  const condition = CONDITIONS[name];
  return condition ? condition(config) : true;
}

/** Whether `value` is one the strategy can take for this option (a compat mode it implements, a language it knows). */
export function usableFor(spec: OptionSpec, value: unknown, strategy: StrategyDescription): boolean {
  if (spec.name === 'compat') return value === 'none' || (strategy.compat as string[]).includes(value as string);
  if (spec.name === 'language') return languageUsable(value as string | null, strategy);
  return true;
}

/** The value as the strategy names it (a code grammar's alias such as js → javascript); others unchanged. */
export function canonicalFor(spec: OptionSpec, value: unknown, strategy: StrategyDescription): unknown {
  if (spec.name === 'language' && typeof value === 'string' && strategy.language) return strategy.language.resolve(value) ?? value;
  return value;
}

/** A language the strategy reads its own way (a code grammar) or a recursive separator preset. */
export function languageUsable(language: string | null, strategy: StrategyDescription): boolean {
  if (language === null) return true;
  // Own properties only: a link's `language=toString` must not find Object.prototype's.
  return strategy.language ? strategy.language.resolve(language) !== null : Object.hasOwn(LANGUAGE_PRESETS, language);
}

/** Whether two strategies mean the same by `language` (both a separator preset, or the same own choice). */
function sameLanguageMeaning(a: StrategyDescription, b: StrategyDescription): boolean {
  return (a.language ?? null) === (b.language ?? null);
}

/**
 * The change of configuration when the user picks another strategy: separators and keep-separator back to the new
 * strategy's defaults; a language that means something else there (a separator preset vs a code grammar) cleared;
 * a strategy that counts in tokens by default (token windows) brings its encoding when the unit is not one, and a
 * strategy that fixes its unit brings it along.
 */
export function strategyPatch(config: Config, id: StrategyName): Partial<Config> {
  const prev = strategyDefinition(config.strategy);
  const next = strategyDefinition(id);
  const patch: Partial<Config> = { strategy: id, separators: null, keepSeparator: null };
  if (!sameLanguageMeaning(prev, next) || !languageUsable(config.language, next)) patch.language = null;
  const unitIsTokens = unitDescriptor(config.unit)?.tokenizer !== undefined;
  const wantsTokens = next.defaults.unit !== undefined && unitDescriptor(next.defaults.unit)?.tokenizer !== undefined;
  if (next.defaults.unit && (!next.controls.includes('unit') || (wantsTokens && !unitIsTokens))) patch.unit = next.defaults.unit;
  return patch;
}
