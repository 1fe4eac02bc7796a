import { BREAKPOINT_MODES } from '../core/semantic/index';
import type { BreakpointMode, KeepSeparator, StrategyName, UnitName } from '../core/types';
import type { Config } from './configSlice';

/**
 * Configuration <-> URL query (a shareable link restores every control). Names follow the CLI flags:
 * strategy, size, overlap, unit, sep (repeated, one per separator, in order), regex=1 (separators are regular
 * expressions; absent when off), keep, lang, locale, compat; plus the
 * context-budget controls ctx and k; for the semantic strategy breakpoint, threshold, chunks, buffer, min-size,
 * max-size, embedder, sentences (and compat=llamaindex). Only the configuration goes into the URL, never the document.
 */

const KEEP_VALUES: KeepSeparator[] = ['start', 'end', 'none'];

export function encodeConfig(config: Config): string {
  const q = new URLSearchParams();
  q.set('strategy', config.strategy);
  q.set('size', String(config.size));
  q.set('overlap', String(config.overlap));
  q.set('unit', config.unit);
  if (config.separators) {
    if (config.separators.length === 0) q.append('sep', '');
    for (const s of config.separators) q.append('sep', s);
  }
  if (config.separatorsAreRegex) q.set('regex', '1');
  if (config.keepSeparator) q.set('keep', config.keepSeparator);
  if (config.language) q.set('lang', config.language);
  if (config.locale) q.set('locale', config.locale);
  if (config.compat) q.set('compat', 'langchain');
  else if (config.llamaindex && config.strategy === 'semantic') q.set('compat', 'llamaindex');
  if (config.strategy === 'semantic') {
    q.set('breakpoint', config.breakpoint);
    if (config.amount !== null) q.set('threshold', String(config.amount));
    if (config.targetChunks !== null) q.set('chunks', String(config.targetChunks));
    q.set('buffer', String(config.buffer));
    if (config.minSize !== null) q.set('min-size', String(config.minSize));
    if (config.maxSize !== null) q.set('max-size', String(config.maxSize));
    q.set('embedder', config.embedder);
    if (config.sentences !== 'intl') q.set('sentences', config.sentences);
  }
  q.set('ctx', String(config.contextWindow));
  q.set('k', String(config.chunksInContext));
  return q.toString();
}

/** The controls a query sets (unknown or malformed values are left out, so defaults or stored values apply). */
export function decodeConfig(search: string, known: { strategies: readonly string[]; units: readonly string[] }): Partial<Config> {
  const q = new URLSearchParams(search);
  const out: Partial<Config> = {};
  const strategy = q.get('strategy');
  if (strategy && known.strategies.includes(strategy)) out.strategy = strategy as StrategyName;
  const unit = q.get('unit');
  if (unit && known.units.includes(unit)) out.unit = unit as UnitName;
  const size = parseNumber(q.get('size'));
  if (size !== undefined) out.size = size;
  const overlap = parseNumber(q.get('overlap'));
  if (overlap !== undefined) out.overlap = overlap;
  if (q.has('sep')) out.separators = q.getAll('sep');
  // A configuration link without regex=1 means literal separators (the flag is left out when off).
  if (hasConfig(search)) out.separatorsAreRegex = q.get('regex') === '1';
  const keep = q.get('keep');
  if (keep && (KEEP_VALUES as string[]).includes(keep)) out.keepSeparator = keep as KeepSeparator;
  const lang = q.get('lang');
  if (lang) out.language = lang;
  const locale = q.get('locale');
  if (locale) out.locale = locale;
  if (q.has('compat')) {
    out.compat = q.get('compat') === 'langchain';
    out.llamaindex = q.get('compat') === 'llamaindex';
  }
  const breakpoint = q.get('breakpoint');
  if (breakpoint && (BREAKPOINT_MODES as readonly string[]).includes(breakpoint)) out.breakpoint = breakpoint as BreakpointMode;
  for (const [name, key] of [
    ['threshold', 'amount'],
    ['chunks', 'targetChunks'],
    ['min-size', 'minSize'],
    ['max-size', 'maxSize'],
  ] as const) {
    if (!q.has(name)) continue;
    const n = parseNumber(q.get(name));
    if (n !== undefined) out[key] = n;
  }
  const buffer = parseNumber(q.get('buffer'));
  if (buffer !== undefined && Number.isInteger(buffer) && buffer >= 0) out.buffer = buffer;
  const embedder = q.get('embedder');
  if (embedder && !embedder.startsWith('local/')) out.embedder = embedder;
  const sentences = q.get('sentences');
  if (sentences === 'intl' || sentences === 'regex') out.sentences = sentences;
  const ctx = parseNumber(q.get('ctx'));
  if (ctx !== undefined && ctx > 0) out.contextWindow = ctx;
  const k = parseNumber(q.get('k'));
  if (k !== undefined && k > 0) out.chunksInContext = k;
  return out;
}

/** True when the query carries a configuration (then it wins over stored settings). */
export function hasConfig(search: string): boolean {
  const q = new URLSearchParams(search);
  return ['strategy', 'size', 'overlap', 'unit', 'sep', 'regex', 'keep', 'lang', 'locale', 'compat', 'breakpoint', 'threshold', 'embedder'].some((key) => q.has(key));
}

function parseNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
