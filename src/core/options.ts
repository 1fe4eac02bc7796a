import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_NAMES, languageSeparators } from './languages';
import { checkSeparatorRegex } from './separator-regex';
import { getStrategy, STRATEGY_NAMES } from './strategies';
import type { ChunkOptions, CompatMode, KeepSeparator, ResolvedOptions, StrategyName, UnitName } from './types';
import { isTokenEncoding, TOKEN_ENCODINGS, UNIT_NAMES } from './units';

/** A bad option: `field` names the option (as the CLI flag / library key), `message` is one human line. */
export class ChunkOptionsError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
    this.field = field;
  }
}

/** Options every strategy starts from before its own `defaults`. */
export const BASE_DEFAULTS: ResolvedOptions = {
  strategy: 'recursive',
  size: 512,
  overlap: 64,
  unit: 'chars',
  separators: [],
  separatorsAreRegex: false,
  keepSeparator: 'none',
  language: null,
  compat: 'none',
  documentId: null,
  locale: 'en',
};

export const KEEP_SEPARATOR_VALUES: KeepSeparator[] = ['start', 'end', 'none'];
export const COMPAT_MODES: CompatMode[] = ['none', 'langchain'];
/** Strategies with a LangChain compatibility mode. */
export const LANGCHAIN_STRATEGIES: StrategyName[] = ['character', 'recursive', 'token'];

const MAX_SIZE = 100_000_000;
const MAX_SEPARATORS = 64;
const MAX_SEPARATOR_LENGTH = 1000;

function fail(field: string, message: string): never {
  throw new ChunkOptionsError(field, message);
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'a list' : typeof value;
}

function oneOf(values: readonly string[]): string {
  return values.join(', ');
}

/** Integers may arrive as numbers (library) or digit strings (URL query, CLI flags). */
function integerOption(field: string, value: unknown): number {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(field, `${field} must be a whole number (got ${show(value)})`);
  return n;
}

/**
 * Validate and complete options once, up front. Throws ChunkOptionsError with a one-line message naming the field.
 * Defaults: the strategy's `defaults` over BASE_DEFAULTS. When overlap is not given it is the strategy's default
 * overlap, lowered to size/8 for small sizes so that a lone `size` never makes the options invalid.
 */
export function validateOptions(options: ChunkOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') fail('options', 'options must be an object');
  const given = options as Record<string, unknown>;
  const has = (key: string): boolean => given[key] !== undefined && given[key] !== null;

  const strategyName = has('strategy') ? given.strategy : BASE_DEFAULTS.strategy;
  if (typeof strategyName !== 'string' || !(STRATEGY_NAMES as string[]).includes(strategyName)) {
    fail('strategy', `unknown strategy ${show(strategyName)} (expected one of ${oneOf(STRATEGY_NAMES)})`);
  }
  const strategy = getStrategy(strategyName);
  const defaults: ResolvedOptions = { ...BASE_DEFAULTS, ...strategy.defaults, strategy: strategy.id };

  const size = has('size') ? integerOption('size', given.size) : defaults.size;
  if (size <= 0) fail('size', `size must be a positive whole number (got ${show(given.size)})`);
  if (size > MAX_SIZE) fail('size', `size (${size}) must be at most ${MAX_SIZE}`);

  let overlap: number;
  if (has('overlap')) {
    overlap = integerOption('overlap', given.overlap);
    if (overlap < 0) fail('overlap', `overlap must not be negative (got ${overlap})`);
    if (overlap >= size) fail('overlap', `overlap (${overlap}) must be smaller than size (${size})`);
  } else {
    overlap = Math.min(defaults.overlap, Math.floor(size / 8));
  }

  const unit = has('unit') ? given.unit : defaults.unit;
  if (typeof unit !== 'string' || !(UNIT_NAMES as string[]).includes(unit)) {
    fail('unit', `unknown unit ${show(unit)} (expected one of ${oneOf(UNIT_NAMES)})`);
  }
  if (strategy.id === 'token' && !isTokenEncoding(unit)) {
    fail('unit', `the token strategy counts tokens: unit must be one of ${oneOf(TOKEN_ENCODINGS)} (got "${unit}")`);
  }

  const compat = has('compat') ? given.compat : defaults.compat;
  if (typeof compat !== 'string' || !(COMPAT_MODES as string[]).includes(compat)) {
    fail('compat', `unknown compat mode ${show(compat)} (expected one of ${oneOf(COMPAT_MODES)})`);
  }

  let keepSeparator: KeepSeparator = defaults.keepSeparator;
  if (has('keepSeparator')) {
    const k = given.keepSeparator;
    // LangChain's boolean keepSeparator: true keeps the separator at the start of the next piece.
    if (k === true) keepSeparator = 'start';
    else if (k === false) keepSeparator = 'none';
    else if (typeof k === 'string' && (KEEP_SEPARATOR_VALUES as string[]).includes(k)) keepSeparator = k as KeepSeparator;
    else fail('keepSeparator', `keepSeparator must be one of ${oneOf(KEEP_SEPARATOR_VALUES)} (got ${show(k)})`);
  }

  let language: string | null = null;
  if (has('language') && given.language !== '') {
    const l = given.language;
    if (typeof l !== 'string' || !languageSeparators(l)) {
      fail('language', `unknown language ${show(l)} (expected one of ${oneOf(LANGUAGE_NAMES)})`);
    }
    language = l;
  }

  const separatorsAreRegex = has('separatorsAreRegex') ? given.separatorsAreRegex === true : false;
  let separators: string[];
  if (has('separators')) {
    const list = given.separators;
    if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) {
      fail('separators', 'separators must be a list of strings');
    }
    separators = [...(list as string[])];
  } else if (language !== null) {
    separators = [...languageSeparators(language)!];
  } else {
    separators = [...defaults.separators];
  }
  if (strategy.id === 'character' || strategy.id === 'recursive') {
    if (separators.length === 0) fail('separators', `the ${strategy.id} strategy needs at least one separator`);
    if (separators.length > MAX_SEPARATORS) fail('separators', `at most ${MAX_SEPARATORS} separators are allowed`);
    for (const s of separators) {
      if (s.length > MAX_SEPARATOR_LENGTH) {
        fail('separators', `a separator is longer than ${MAX_SEPARATOR_LENGTH} characters`);
      }
      if (separatorsAreRegex && s !== '') {
        const check = checkSeparatorRegex(s);
        if (!check.ok) fail('separators', `separator /${s}/ ${check.reason}`);
      }
    }
  }

  let locale = defaults.locale;
  if (has('locale')) {
    const l = given.locale;
    try {
      if (typeof l !== 'string' || l === '') throw new RangeError();
      locale = Intl.getCanonicalLocales(l)[0]!;
    } catch {
      fail('locale', `locale ${show(l)} is not a valid language tag (e.g. en, de-CH, zh-Hans)`);
    }
  }

  let documentId: string | null = null;
  if (has('documentId')) {
    if (typeof given.documentId !== 'string') fail('documentId', 'documentId must be a string');
    documentId = given.documentId;
  }

  if (compat === 'langchain') {
    if (!LANGCHAIN_STRATEGIES.includes(strategy.id)) {
      fail('compat', `compat langchain applies to ${oneOf(LANGCHAIN_STRATEGIES)} only (got ${strategy.id})`);
    }
    if (language !== null && !LANGCHAIN_JS_LANGUAGES.has(language)) {
      fail('language', `LangChain JS has no "${language}" preset; turn compat mode off to use Chunkscope's own`);
    }
    if (keepSeparator === 'end' && strategy.id !== 'token') {
      fail('keepSeparator', 'keepSeparator "end" has no LangChain equivalent; use start or none in compat mode');
    }
    if (separatorsAreRegex && strategy.id !== 'token') {
      fail('separators', 'LangChain splits on literal separators; regular-expression separators need compat off');
    }
  }

  return {
    strategy: strategy.id,
    size,
    overlap,
    unit: unit as UnitName,
    separators,
    separatorsAreRegex,
    keepSeparator,
    language,
    compat: compat as CompatMode,
    documentId,
    locale,
  };
}
