import { LANGCHAIN_JS_LANGUAGES } from './languages';
import {
  BASE_DEFAULTS,
  ChunkOptionsError,
  ENGINE_OPTIONS,
  fail,
  oneOf,
  MAX_SIZE,
  optionSpec,
  type ResolveContext,
} from './optionTable';
import { getStrategy, STRATEGIES, strategiesWithCompat } from './strategies';
import type { StrategyDescription } from './registry';
import type { ChunkOptions, CompatMode, ResolvedOptions, RetrievalMode } from './types';

export {
  BASE_DEFAULTS,
  ChunkOptionsError,
  COMPAT_MODES,
  DEFAULT_HEADER_TEMPLATE,
  HEADER_PLACEHOLDERS,
  KEEP_SEPARATOR_VALUES,
  RETRIEVAL_MODES,
  SENTENCE_FINDERS,
} from './optionTable';

/**
 * Validate and complete options once, up front: each option of the table (src/core/optionTable.ts) in its order,
 * then the rules between options. Throws ChunkOptionsError with a one-line message naming the field. Defaults: the
 * strategy's `defaults` over BASE_DEFAULTS. When overlap is not given it is the strategy's default overlap, lowered
 * to size/8 for small sizes so that a lone `size` never makes the options invalid.
 */
export function validateOptions(options: ChunkOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') fail('options', 'options must be an object');
  const given = options as Record<string, unknown>;
  const has = (key: string): boolean => given[key] !== undefined && given[key] !== null;

  // The strategy first: the other options' defaults and rules are the strategy's.
  const strategyName = optionSpec('strategy').resolve!(given.strategy, { given, has } as ResolveContext) as string;
  // Under a compat mode the reference library's defaults and limits apply (the compat row checks the name itself).
  // (The retrieval mode too: a compat mode can have its own defaults under one, e.g. HierarchicalNodeParser's overlap.)
  const retrieval = retrievalGiven(given, has);
  const strategy = underCompat(getStrategy(strategyName), has('compat') ? given.compat : undefined, retrieval);
  // What the mode refuses outright (the size and overlap rows name their own refusals first, in table order).
  for (const [name, reason] of Object.entries(strategy.refuses ?? {})) if (reason && has(name) && name !== 'size' && name !== 'overlap') fail(name, reason);
  const resolved: Partial<ResolvedOptions> = {};
  const ctx: ResolveContext = { given, has, resolved, strategy, defaults: { ...BASE_DEFAULTS, ...strategy.defaults, strategy: strategy.id } };
  for (const spec of ENGINE_OPTIONS) {
    (resolved as Record<string, unknown>)[spec.name] = spec.resolve!(given[spec.name], ctx);
  }
  const out = resolved as ResolvedOptions;
  if (out.retrieval === 'parent-child' && out.parentSize === null) out.parentSize = Math.min(MAX_SIZE, out.size * 4);
  checkCombinations(out);
  return out;
}

/** The retrieval mode the options ask for ('chunks' when it is invalid: its own row reports that, in table order). */
function retrievalGiven(given: Record<string, unknown>, has: (key: string) => boolean): RetrievalMode {
  try {
    return optionSpec('retrieval').resolve!(given.retrieval, { given, has } as ResolveContext) as RetrievalMode;
  } catch {
    return 'chunks';
  }
}

/** The strategy's description with a compat mode's profile applied (registry.ts CompatProfile). */
function underCompat(strategy: StrategyDescription, mode: unknown, retrieval: RetrievalMode): StrategyDescription {
  const profile = typeof mode === 'string' && strategy.compat.includes(mode as CompatMode) ? strategy.compatProfiles?.[mode as CompatMode] : undefined;
  if (!profile) return strategy;
  return {
    ...strategy,
    defaults: { ...strategy.defaults, ...profile.defaults, ...profile.retrieval?.[retrieval]?.defaults },
    refuses: { ...strategy.refuses, ...profile.refuses },
    tokenUnitOnly: profile.units ? false : strategy.tokenUnitOnly,
  };
}

/** " (compat llamaindex has: sentence with window or hierarchical)" — the retrieval units a compat mode reproduces. */
function reproducedElsewhere(mode: CompatMode): string {
  const found = STRATEGIES.flatMap((s) => {
    const modes = Object.keys(s.compatProfiles?.[mode]?.retrieval ?? {});
    return modes.length > 0 ? [`${s.id} with ${modes.join(' or ')}`] : [];
  });
  return found.length > 0 ? ` (compat ${mode} has: ${found.join('; ')})` : '';
}

/** Rules between options: compat modes, retrieval units. */
function checkCombinations(o: ResolvedOptions): void {
  const strategy = getStrategy(o.strategy);
  if (o.compat !== 'none' && !strategy.compat.includes(o.compat)) {
    const list = strategiesWithCompat(o.compat);
    const names = list.length === 2 ? list.join(' and ') : oneOf(list);
    fail('compat', `compat ${o.compat} applies to ${names} only (got ${o.strategy})`);
  }
  const units = o.compat !== 'none' ? strategy.compatProfiles?.[o.compat]?.units : undefined;
  if (units && !units.allowed.includes(o.unit)) fail('unit', `${units.reason} (got "${o.unit}")`);
  if (o.retrieval !== 'chunks') {
    if (o.compat !== 'none') {
      // Only the retrieval modes the compat mode reproduces with the library's own parser.
      const reproduced = strategy.compatProfiles?.[o.compat]?.retrieval?.[o.retrieval!];
      if (!reproduced) fail('retrieval', `retrieval units are built on Chunkscope's own splitting: turn compat mode off${reproducedElsewhere(o.compat)}`);
      reproduced.check?.(o);
    }
    if (!strategy.controls.includes('retrieval')) fail('retrieval', `retrieval units are not available for the ${o.strategy} strategy`);
    const refused = strategy.refusesRetrieval?.[o.retrieval!];
    if (refused) fail(o.retrieval === 'window' ? 'window' : 'retrieval', refused);
  }
  // What @langchain/textsplitters cannot express.
  if (o.compat === 'langchain' && strategy.langchainTextSplitter) {
    if (o.language !== null && !strategy.language && !LANGCHAIN_JS_LANGUAGES.has(o.language)) {
      fail('language', `LangChain JS has no "${o.language}" preset; turn compat mode off to use Chunkscope's own`);
    }
    if (o.keepSeparator === 'end' && strategy.controls.includes('keepSeparator')) {
      fail('keepSeparator', 'keepSeparator "end" has no LangChain equivalent; use start or none in compat mode');
    }
    if (o.separatorsAreRegex && strategy.controls.includes('separators')) {
      fail('separators', 'LangChain splits on literal separators; regular-expression separators need compat off');
    }
  }
}
