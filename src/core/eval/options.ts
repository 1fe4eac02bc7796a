import { EVAL_OPTIONS, fail, type ResolveContext } from '../optionTable';
import { getStrategy, STRATEGY_NAMES } from '../strategies';
import type { ResolvedOptions } from '../types';
import type { RetrieverName } from '../retrievers';

/** The evaluation settings (rows of the option table with `eval: true`), resolved. */
export interface EvalSettings {
  retriever: RetrieverName;
  /** k: how many units a question retrieves (`--k`; the page's "Chunks per query"). */
  chunksInContext: number;
  hybridWeight: number;
  stopWords: 'none' | 'english';
  stemming: boolean;
}

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
