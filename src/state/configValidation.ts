import { BASE_DEFAULTS, ChunkOptionsError, validateOptions } from '../core/options';
import { STRATEGIES, STRATEGY_NAMES } from '../core/strategies/index';
import { UNIT_NAMES } from '../core/units/index';
import { validateEvalOptions } from '../core/eval/options';
import { type OptionSpec } from '../core/optionTable';
import type { ResolveContext } from '../core/optionTable';
import { toChunkOptions } from './chunkOptions';
import { CONFIG_OPTIONS, DEFAULT_CONFIG, type Config, type ConfigName } from './configSlice';
import { languageUsable } from './strategyInfo';

/**
 * The one gate every configuration from outside the page passes (a link's query, stored settings): each value is
 * looked up by own property only (a key such as `__proto__`, `constructor` or `toString` never reaches
 * Object.prototype), checked against its option-table row's kind and choices, and then the whole configuration is
 * run through the table's `resolve` functions (validateOptions, validateEvalOptions). A value that fails is dropped
 * (the base value stays) and named once in the returned list; nothing invalid is ever applied or stored.
 */

export interface CheckedConfig {
  config: Config;
  /** Option names (the table's) whose values were dropped, in table order, each once. */
  dropped: string[];
}

/** Why a value does not fit its option's row (null when it fits). `null` is "unset" where the page default is null. */
export function fieldProblem(spec: OptionSpec, field: unknown): string | null {
  if (field === null) return DEFAULT_CONFIG[spec.name as ConfigName] === null ? null : 'must not be empty';
  switch (spec.kind) {
    case 'integer':
      if (typeof field !== 'number' || !Number.isSafeInteger(field)) return 'must be a whole number';
      return atLeastMinimum(spec, field) ? (spec.eval ? standaloneProblem(spec, field) : null) : `must be at least ${spec.control!.min}`;
    case 'number':
      if (typeof field !== 'number' || !Number.isFinite(field)) return 'must be a number';
      return atLeastMinimum(spec, field) ? (spec.eval ? standaloneProblem(spec, field) : null) : `must be at least ${spec.control!.min}`;
    case 'boolean':
      return typeof field === 'boolean' ? null : 'must be true or false';
    case 'choice': {
      const allowed: readonly string[] = spec.name === 'strategy' ? STRATEGY_NAMES : spec.name === 'unit' ? UNIT_NAMES : (spec.choices ?? []);
      return typeof field === 'string' && allowed.includes(field) ? null : `must be one of ${allowed.join(', ')}`;
    }
    case 'string':
      if (typeof field !== 'string') return 'must be a string';
      // A language must mean something to some strategy (a separator preset or a code grammar).
      if (spec.name === 'language') return STRATEGIES.some((s) => languageUsable(field, s)) ? null : 'is not a known language';
      return standaloneProblem(spec, field);
    case 'strings':
      return Array.isArray(field) && field.every((s) => typeof s === 'string') ? null : 'must be a list of strings';
    case 'integers':
      return typeof field === 'string' ? null : 'must be text such as "2048, 512, 128"';
    case 'template':
      return field === true || typeof field === 'string' ? null : 'must be true or a template';
    default:
      return 'is not a setting';
  }
}

/**
 * The row's own resolve() on the value alone, for rows whose rule reads only their value: the text rows (embedder,
 * locale, path) and the evaluation rows. So a stored embedder id is checked before the semantic strategy is picked.
 */
function standaloneProblem(spec: OptionSpec, field: unknown): string | null {
  if (!spec.resolve) return null;
  const given = { [spec.name]: field };
  const ctx = { given, has: (key: string) => key === spec.name, resolved: {}, strategy: STRATEGIES[0]!, defaults: BASE_DEFAULTS } as ResolveContext;
  try {
    spec.resolve(field, ctx);
    return null;
  } catch (error) {
    return error instanceof ChunkOptionsError ? error.message : 'is not valid';
  }
}

/** A number below its control's minimum (size 1, context window 1, buffer 0) is never valid, alone or not. */
function atLeastMinimum(spec: OptionSpec, n: number): boolean {
  return spec.control?.min === undefined || n >= spec.control.min;
}

/**
 * `candidate`'s own fields over `base`, each checked; fields the option table does not know are ignored. With
 * `combinations` (a link: a stranger's values), a value that fits its row but that the table's validation refuses
 * in this configuration (overlap over size, a bad regular expression) is dropped too, back to `base`'s value.
 * Stored settings are the person's own: a combination they left invalid stays, shown as the usual "Settings
 * invalid" line, as before the reload.
 */
export function checkConfig(candidate: unknown, base: Config = DEFAULT_CONFIG, { combinations = false } = {}): CheckedConfig {
  const dropped: string[] = [];
  const config: Record<string, unknown> = { ...base };
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return { config: base, dropped };
  const given = new Set<string>();
  for (const spec of CONFIG_OPTIONS) {
    if (!Object.hasOwn(candidate, spec.name)) continue;
    const value = (candidate as Record<string, unknown>)[spec.name];
    if (fieldProblem(spec, value) !== null) dropped.push(spec.name);
    else {
      config[spec.name] = value;
      given.add(spec.name);
    }
  }
  // Dropping one value may make another valid or invalid: at most one pass per given field.
  for (let round = 0; combinations && round <= given.size; round++) {
    const field = refusedField(config as unknown as Config);
    // Refused because of a value the link did not change (its base's own): nothing to drop; the page shows it.
    if (field === null || !given.has(field) || sameValue(config[field], (base as unknown as Record<string, unknown>)[field])) break;
    given.delete(field);
    config[field] = (base as unknown as Record<string, unknown>)[field];
    dropped.push(field);
  }
  const order = CONFIG_OPTIONS.map((s) => s.name as string);
  return { config: config as unknown as Config, dropped: [...new Set(dropped)].sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]));
}

/** The option the table's validation refuses in this configuration, or null when it passes. */
function refusedField(config: Config): string | null {
  try {
    validateOptions(toChunkOptions(config));
    validateEvalOptions({ ...config });
    return null;
  } catch (error) {
    if (error instanceof ChunkOptionsError) return error.field;
    return null;
  }
}

/** The one notice for dropped values ("Ignored settings that were not valid: language, size."). */
export function droppedNotice(dropped: readonly string[], where: 'link' | 'stored'): string | null {
  if (dropped.length === 0) return null;
  const list = dropped.join(', ');
  return where === 'link'
    ? `This link had settings that are not valid and were ignored: ${list}.`
    : `Saved settings that were not valid were reset: ${list}.`;
}
