import { OPTION_TABLE, type OptionSpec } from '../core/optionTable';
import type { StrategyDescription } from '../core/registry';
import { CONFIG_OPTIONS, DEFAULT_CONFIG, type Config, type ConfigName } from './configSlice';
import { canonicalFor, languageUsable, optionApplies, optionInUse, strategyDefinition, usableFor } from './strategyInfo';
import { checkConfig } from './configValidation';
import { migrateQuery } from './urlMigration';

/**
 * Configuration <-> URL query (a shareable link restores every control), generated from the option table: the
 * URL key is the option's flag (the CLI's --flag), values by the option's kind:
 *   integer, number   the number                     boolean   1 or 0
 *   choice, string    the value                      strings   the key repeated, one per item, in order
 *   integers          the list as typed ("2048, 512, 128")
 *   template          headers=1 for the default template (title and heading path), else the template text
 * Written: the strategy, then every option that applies to it (its description's controls, sub-options in use,
 * page settings) and differs from the page's default. So a key left out of a configuration link means the default;
 * options that do not apply to the link's strategy are left as they were (stored settings).
 * Only the configuration goes into the URL, never the document (nor a local model folder's id).
 * Old links (short keys such as sep, hdr, psize, codelang) are rewritten by urlMigration.ts first.
 */

export function encodeConfig(config: Config): string {
  const strategy = strategyDefinition(config.strategy);
  const q = new URLSearchParams();
  q.set('strategy', config.strategy);
  for (const spec of CONFIG_OPTIONS) {
    if (spec.name === 'strategy' || !inLink(spec, config, strategy)) continue;
    const value = config[spec.name as ConfigName];
    if (value === null || sameValue(value, DEFAULT_CONFIG[spec.name as ConfigName]) || !usableFor(spec, value, strategy)) continue;
    if (spec.name === 'embedder' && isLocalModel(value)) continue;
    writeValue(q, spec, canonicalFor(spec, value, strategy));
  }
  return q.toString();
}

/** The controls a query sets (unknown or malformed values are left out, so defaults or stored values apply). */
export function decodeConfig(search: string, known: { strategies: readonly string[]; units: readonly string[] }): Partial<Config> {
  return decodeQuery(search, known).values;
}

/** What a query sets, and the options whose values it gave malformed (dropped). */
export function decodeQuery(search: string, known: { strategies: readonly string[]; units: readonly string[] }): { values: Partial<Config>; malformed: string[] } {
  const malformed: string[] = [];
  if (!hasConfig(search)) return { values: {}, malformed };
  const q = migrateQuery(new URLSearchParams(search));
  const out: Record<string, unknown> = {};
  const named = q.get('strategy');
  if (named !== null && known.strategies.includes(named)) out.strategy = named;
  else if (named !== null) malformed.push('strategy');
  const strategy = strategyDefinition((out.strategy as string | undefined) ?? DEFAULT_CONFIG.strategy);
  // What the link says, then what it means by leaving keys out: their defaults, for the options it would have
  // written (those that apply to its strategy and are in use under its values).
  for (const spec of CONFIG_OPTIONS) {
    if (spec.name === 'strategy' || !q.has(spec.flag) || !optionApplies(spec, strategy)) continue;
    const value = readValue(q, spec, strategy, known);
    if (value !== undefined) out[spec.name] = value;
    else malformed.push(spec.name);
  }
  const meant: Config = { ...DEFAULT_CONFIG, ...(out as Partial<Config>), strategy: strategy.id };
  for (const spec of CONFIG_OPTIONS) {
    if (Object.hasOwn(out, spec.name) || spec.name === 'strategy' || q.has(spec.flag)) continue;
    if (inLink(spec, meant, strategy)) out[spec.name] = DEFAULT_CONFIG[spec.name as ConfigName];
  }
  return { values: out as Partial<Config>, malformed };
}

/** Every URL key the page reads: the table's flags and their older spellings (the old links' short keys). */
const CONFIG_KEYS: ReadonlySet<string> = new Set(OPTION_TABLE.filter((o) => !o.document).flatMap((o) => [o.flag, ...(o.aliases ?? [])]));

/** True when the query carries a configuration (then it wins over stored settings). */
export function hasConfig(search: string): boolean {
  const q = new URLSearchParams(search);
  for (const key of q.keys()) if (CONFIG_KEYS.has(key)) return true;
  return false;
}

/** Whether a link for this configuration carries the option (it applies to the strategy and is in use). */
function inLink(spec: OptionSpec, config: Config, strategy: StrategyDescription): boolean {
  return optionApplies(spec, strategy) && optionInUse(spec, config);
}

function isLocalModel(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('local/');
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]));
}

function writeValue(q: URLSearchParams, spec: OptionSpec, value: unknown): void {
  switch (spec.kind) {
    case 'boolean':
      q.set(spec.flag, value ? '1' : '0');
      return;
    case 'strings': {
      const list = value as string[];
      // An empty list still says "no separators" (one empty key), not "the default".
      if (list.length === 0) q.append(spec.flag, '');
      for (const item of list) q.append(spec.flag, item);
      return;
    }
    case 'template':
      // A blank template means the default one (as toChunkOptions sends it).
      q.set(spec.flag, value === true || (value as string).trim() === '' ? '1' : (value as string));
      return;
    default:
      q.set(spec.flag, String(value));
  }
}

/** A value from the link, checked by kind; undefined when malformed (then it is dropped). */
function readValue(q: URLSearchParams, spec: OptionSpec, strategy: StrategyDescription, known: { units: readonly string[] }): unknown {
  const raw = q.get(spec.flag)!;
  switch (spec.kind) {
    case 'integer': {
      if (!/^\s*-?\d+\s*$/.test(raw)) return undefined;
      const n = Number(raw);
      // Page settings are not validated by the engine: keep them in their range.
      if (spec.engine === false && spec.control?.min !== undefined && n < spec.control.min) return undefined;
      return n;
    }
    case 'number': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : undefined;
    case 'choice': {
      const choices = spec.name === 'unit' ? known.units : (spec.choices ?? []);
      return choices.includes(raw) && usableFor(spec, raw, strategy) ? raw : undefined;
    }
    case 'string':
      if (raw.trim() === '') return undefined;
      if (spec.name === 'embedder' && isLocalModel(raw)) return undefined;
      if (spec.name === 'language') return languageUsable(raw, strategy) ? canonicalFor(spec, raw, strategy) : undefined;
      return raw;
    case 'strings':
      return q.getAll(spec.flag);
    case 'integers':
      return /^[\d\s,;]*\d[\d\s,;]*$/.test(raw) ? raw : undefined;
    case 'template':
      return raw === '1' || raw === 'true' ? true : raw === '' || raw === '0' || raw === 'false' ? null : raw;
    default:
      return undefined;
  }
}

/**
 * The evaluation lab's pinned configuration A (compare A with the current B): a page-only URL key, `pin`, whose
 * value is A's own configuration query (encodeConfig, then URL-encoded), so a shared link restores the comparison.
 * Not an option of the table: it is not a setting of the chunker but a second configuration.
 */
export const PIN_KEY = 'pin';

export function encodePinned(pinned: Config | null): string {
  if (!pinned) return '';
  return `${PIN_KEY}=${encodeURIComponent(encodeConfig(pinned))}`;
}

/** The pinned configuration a link carries (over the defaults), or null. */
export function decodePinned(search: string, known: { strategies: readonly string[]; units: readonly string[] }): Config | null {
  const inner = new URLSearchParams(search).get(PIN_KEY);
  if (!inner) return null;
  return checkConfig(decodeConfig(inner, known), DEFAULT_CONFIG, { combinations: true }).config;
}
