import { BREAKPOINT_MODES } from '../core/semantic/index';
import type { BreakpointMode, KeepSeparator, RetrievalMode, StrategyName, UnitName } from '../core/types';
import { RETRIEVAL_MODES, type Config } from './configSlice';
import { strategyDefinition } from './strategyInfo';

/**
 * Configuration <-> URL query (a shareable link restores every control). Names follow the CLI flags:
 * strategy, size, overlap, unit, sep (repeated, one per separator, in order), regex=1 (separators are regular
 * expressions; absent when off), keep, lang, locale, compat; plus the
 * context-budget controls ctx and k; for the semantic strategy breakpoint, threshold, chunks, buffer, min-size,
 * max-size, embedder, sentences (and compat=llamaindex). Only the configuration goes into the URL, never the document.
 *
 * Structure-aware strategies, contextual headers and retrieval units (short keys; written only for a strategy whose
 * controls use them, and only when not at their default, so a missing key means the default):
 *   depth=<1..6>          heading depth (always written when the strategy has it)
 *   rows=1                tables as "column: value" text
 *   strip=0               LangChain compat: keep the header lines (strip_headers=False)
 *   each=1                LangChain compat: one chunk per line (return_each_line=True)
 *   hdr=path | hdr=<tpl>  contextual header: title and heading path, or a template with {title} {path} {file}
 *                         (a template that is literally "path" cannot be expressed)
 *   ret=parent-child|window|hierarchical   retrieval units (absent: plain chunks)
 *   psize=<n>             parent size;  win=<n> sentences each side;  levels=2048,512,128 (as typed)
 *   path=<file path>      a path the user typed (the document's own name is not written)
 *   codelang=<grammar>    code strategy language (absent: detected from the path)
 *   compat=llamaindex     also for markdown (MarkdownNodeParser)
 */

const KEEP_VALUES: KeepSeparator[] = ['start', 'end', 'none'];

export function encodeConfig(config: Config): string {
  const strategy = strategyDefinition(config.strategy);
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
  else if (config.llamaindex && strategy.compat.includes('llamaindex')) q.set('compat', 'llamaindex');
  encodeStructure(q, config, new Set(strategy.controls));
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

export function encodeStructure(q: URLSearchParams, config: Config, controls: Set<string>): void {
  if (controls.has('headingDepth')) q.set('depth', String(config.headingDepth));
  if (controls.has('rowsAsText') && config.rowsAsText) q.set('rows', '1');
  if (config.compat && controls.has('stripHeaders') && !config.stripHeaders) q.set('strip', '0');
  if (config.compat && controls.has('returnEachLine') && config.returnEachLine) q.set('each', '1');
  if (controls.has('headers') && config.headerMode !== 'off') {
    q.set('hdr', config.headerMode === 'custom' && config.headerTemplate.trim() !== '' ? config.headerTemplate : 'path');
  }
  if (controls.has('retrieval') && config.retrieval !== 'chunks') {
    q.set('ret', config.retrieval);
    if (config.retrieval === 'parent-child' && config.parentSize !== null) q.set('psize', String(config.parentSize));
    if (config.retrieval === 'window') q.set('win', String(config.window));
    if (config.retrieval === 'hierarchical') q.set('levels', config.levels);
  }
  if (config.path !== null && (controls.has('path') || config.strategy === 'code')) q.set('path', config.path);
  if (config.strategy === 'code' && config.codeLanguage) q.set('codelang', config.codeLanguage);
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
  if (hasConfig(search)) Object.assign(out, decodeStructure(q));
  const ctx = parseNumber(q.get('ctx'));
  if (ctx !== undefined && ctx > 0) out.contextWindow = ctx;
  const k = parseNumber(q.get('k'));
  if (k !== undefined && k > 0) out.chunksInContext = k;
  return out;
}

/**
 * The structure, header and retrieval controls of a configuration link. Keys left out mean their defaults (the
 * encoder writes only what differs), except the numbers, which keep the stored value when absent.
 */
export function decodeStructure(q: URLSearchParams): Partial<Config> {
  const out: Partial<Config> = {};
  const depth = parseNumber(q.get('depth'));
  if (depth !== undefined && Number.isInteger(depth)) out.headingDepth = depth;
  out.rowsAsText = q.get('rows') === '1';
  out.stripHeaders = q.get('strip') !== '0';
  out.returnEachLine = q.get('each') === '1';
  const hdr = q.get('hdr');
  if (hdr === null || hdr === '') out.headerMode = 'off';
  else if (hdr === 'path') out.headerMode = 'path';
  else {
    out.headerMode = 'custom';
    out.headerTemplate = hdr;
  }
  const ret = q.get('ret');
  out.retrieval = ret && (RETRIEVAL_MODES as string[]).includes(ret) ? (ret as RetrievalMode) : 'chunks';
  const psize = parseNumber(q.get('psize'));
  if (psize !== undefined) out.parentSize = psize;
  const win = parseNumber(q.get('win'));
  if (win !== undefined) out.window = win;
  const levels = q.get('levels');
  if (levels !== null) out.levels = levels;
  out.path = q.get('path') || null;
  out.codeLanguage = q.get('codelang') || null;
  return out;
}

const CONFIG_KEYS = ['strategy', 'size', 'overlap', 'unit', 'sep', 'regex', 'keep', 'lang', 'locale', 'compat', 'breakpoint', 'threshold', 'embedder',
  'depth', 'rows', 'strip', 'each', 'hdr', 'ret', 'psize', 'win', 'levels', 'path', 'codelang'];

/** True when the query carries a configuration (then it wins over stored settings). */
export function hasConfig(search: string): boolean {
  const q = new URLSearchParams(search);
  return CONFIG_KEYS.some((key) => q.has(key));
}

function parseNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
