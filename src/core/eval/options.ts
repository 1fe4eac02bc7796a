import { EVAL_OPTIONS, fail, type EvalRowsOf, type ResolveContext } from '../optionTable';
import type { OptionRow, PAGE_OPTION_ROWS } from '../optionRows';
import { getStrategy, STRATEGY_NAMES } from '../strategies';
import type { OptionValue, ResolvedOptions } from '../types';
import type { RETRIEVER_REGISTRY } from '../retrievers/registry';

/** The settings of some retrievers (a test maps a fixture's): each evaluation row's value by its name, k included;
 * the `retriever` row's value is one of their names. */
export type EvalSettingsOf<Retrievers extends readonly { name: string; options: readonly OptionRow[] }[]> = {
  [R in EvalRowsOf<Retrievers> | Extract<(typeof PAGE_OPTION_ROWS)[number], { eval: true }> as R['name']]: R extends { choicesOf: 'retrievers' }
    ? Retrievers[number]['name']
    : OptionValue<R>;
};

/**
 * The evaluation settings (rows of the option table with `eval: true`), resolved: mapped from their rows (the shared
 * ones in src/core/optionRows.ts, each registered retriever's own in its folder), never listed here. k is
 * `chunksInContext` (`--k`; the page's "Chunks per query").
 */
export type EvalSettings = EvalSettingsOf<typeof RETRIEVER_REGISTRY>;

/** The evaluation settings as given (a flag's or a URL's text before it is checked). */
export type EvalOptions = Partial<{ [K in keyof EvalSettings]: EvalSettings[K] | string }>;

/** Validate and complete the evaluation settings (ChunkOptionsError naming the option, one line). */
export function validateEvalOptions(options: Record<string, unknown> = {}): EvalSettings {
  if (options === null || typeof options !== 'object') fail('options', 'options must be an object');
  const given = options;
  const has = (key: string): boolean => given[key] !== undefined && given[key] !== null;
  const name = typeof given.strategy === 'string' && (STRATEGY_NAMES as string[]).includes(given.strategy) ? given.strategy : 'recursive';
  const strategy = getStrategy(name);
  const resolved: Record<string, unknown> = {};
  const ctx: ResolveContext = { given, has, resolved: resolved as Partial<ResolvedOptions>, strategy, defaults: {} as ResolvedOptions };
  for (const spec of EVAL_OPTIONS) resolved[spec.name] = spec.resolve!(given[spec.name], ctx);
  return resolved as unknown as EvalSettings;
}
