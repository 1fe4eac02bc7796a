import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_NAMES, languageSeparators } from './languages';
import { checkSeparatorRegex } from './separator-regex';
import { CODE_LANGUAGE_NAMES, resolveCodeLanguage } from './structure/codeLanguages';
import { getStrategy, STRATEGY_NAMES } from './strategies';
import { BREAKPOINT_MODES } from './semantic/breakpoints';
import type { BreakpointMode, ChunkOptions, CompatMode, KeepSeparator, ResolvedOptions, RetrievalMode, SentenceFinder, StrategyName, UnitName } from './types';
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
  breakpoint: 'percentile',
  amount: null,
  chunks: null,
  buffer: 1,
  minSize: null,
  maxSize: null,
  embedder: 'builtin',
  sentences: 'intl',
  headingDepth: 3,
  rowsAsText: false,
  stripHeaders: true,
  returnEachLine: false,
  headers: null,
  path: null,
  retrieval: 'chunks',
  parentSize: null,
  window: 3,
  levels: [2048, 512, 128],
  pageStarts: null,
};

/** The contextual header used when `headers: true` (--headers without a template): the heading path, then a blank line. */
export const DEFAULT_HEADER_TEMPLATE = '{path}\n\n';
export const HEADER_PLACEHOLDERS = ['{title}', '{path}', '{file}'];
export const RETRIEVAL_MODES: RetrievalMode[] = ['chunks', 'parent-child', 'window', 'hierarchical'];
/** Strategies that split at headings (headingDepth, rowsAsText apply). */
export const HEADING_STRATEGIES: StrategyName[] = ['markdown', 'html'];
const MAX_WINDOW = 50;
const MAX_LEVELS = 6;
const MAX_TEMPLATE = 500;

export const KEEP_SEPARATOR_VALUES: KeepSeparator[] = ['start', 'end', 'none'];
export const COMPAT_MODES: CompatMode[] = ['none', 'langchain', 'llamaindex'];
export const SENTENCE_FINDERS: SentenceFinder[] = ['intl', 'regex'];
/** Upper bounds that keep a typo from asking for absurd work. */
const MAX_BUFFER = 100;
const MAX_EMBEDDER_ID = 200;
/** Strategies with a LangChain compatibility mode (semantic's is SemanticChunker, in src/core/semantic). */
export const LANGCHAIN_STRATEGIES: StrategyName[] = ['character', 'recursive', 'token', 'semantic', 'markdown'];

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

/** Numbers may arrive as numbers (library) or decimal strings (URL query, CLI flags). */
function numberOption(field: string, value: unknown): number {
  const n = typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(field, `${field} must be a number (got ${show(value)})`);
  return n;
}

interface SemanticResolved {
  breakpoint: BreakpointMode;
  amount: number | null;
  chunks: number | null;
  buffer: number;
  minSize: number | null;
  maxSize: number | null;
  embedder: string;
  sentences: SentenceFinder;
}

/** The semantic options (validated for every strategy when given, so a typo never passes silently). */
function semanticOptions(given: Record<string, unknown>, has: (key: string) => boolean): SemanticResolved {
  const breakpoint = has('breakpoint') ? given.breakpoint : BASE_DEFAULTS.breakpoint;
  if (typeof breakpoint !== 'string' || !(BREAKPOINT_MODES as string[]).includes(breakpoint)) {
    fail('breakpoint', `unknown breakpoint mode ${show(breakpoint)} (expected one of ${oneOf(BREAKPOINT_MODES)})`);
  }
  const mode = breakpoint as BreakpointMode;

  let amount: number | null = null;
  if (has('amount')) {
    amount = numberOption('amount', given.amount);
    if ((mode === 'percentile' || mode === 'gradient') && (amount < 0 || amount > 100)) {
      fail('amount', `the ${mode} amount must be between 0 and 100 (got ${amount})`);
    }
    if ((mode === 'standard_deviation' || mode === 'interquartile') && amount < 0) {
      fail('amount', `the ${mode} amount must not be negative (got ${amount})`);
    }
    if (mode === 'absolute' && (amount < 0 || amount > 2)) {
      fail('amount', `the absolute threshold is a distance between 0 and 2 (got ${amount})`);
    }
  }

  let chunks: number | null = null;
  if (has('chunks')) {
    chunks = integerOption('chunks', given.chunks);
    if (chunks < 1) fail('chunks', `chunks must be at least 1 (got ${chunks})`);
  }
  if (mode === 'absolute' && amount === null && chunks === null) {
    fail('amount', 'the absolute breakpoint needs a threshold distance (amount, --threshold), e.g. 0.3');
  }

  const buffer = has('buffer') ? integerOption('buffer', given.buffer) : BASE_DEFAULTS.buffer!;
  if (buffer < 0 || buffer > MAX_BUFFER) fail('buffer', `buffer must be between 0 and ${MAX_BUFFER} (got ${buffer})`);

  const sizeOption = (field: 'minSize' | 'maxSize'): number | null => {
    if (!has(field)) return null;
    const v = integerOption(field, given[field]);
    if (v <= 0) fail(field, `${field} must be a positive whole number (got ${v})`);
    if (v > MAX_SIZE) fail(field, `${field} (${v}) must be at most ${MAX_SIZE}`);
    return v;
  };
  const minSize = sizeOption('minSize');
  const maxSize = sizeOption('maxSize');
  if (minSize !== null && maxSize !== null && minSize > maxSize) {
    fail('minSize', `minSize (${minSize}) must not be larger than maxSize (${maxSize})`);
  }

  const embedder = has('embedder') ? given.embedder : BASE_DEFAULTS.embedder;
  if (typeof embedder !== 'string' || embedder.trim() === '' || embedder.length > MAX_EMBEDDER_ID) {
    fail('embedder', `embedder must be "builtin" or a model id such as Xenova/all-MiniLM-L6-v2 (got ${show(embedder)})`);
  }

  const sentences = has('sentences') ? given.sentences : BASE_DEFAULTS.sentences;
  if (typeof sentences !== 'string' || !(SENTENCE_FINDERS as string[]).includes(sentences)) {
    fail('sentences', `sentences must be one of ${oneOf(SENTENCE_FINDERS)} (got ${show(sentences)})`);
  }
  return { breakpoint: mode, amount, chunks, buffer, minSize, maxSize, embedder: embedder.trim(), sentences: sentences as SentenceFinder };
}

interface StructureResolved {
  headingDepth: number;
  rowsAsText: boolean;
  stripHeaders: boolean;
  returnEachLine: boolean;
  headers: string | null;
  path: string | null;
  retrieval: RetrievalMode;
  parentSize: number | null;
  window: number;
  levels: number[];
  pageStarts: number[] | null;
}

function booleanOption(field: string, value: unknown): boolean {
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return fail(field, `${field} must be true or false (got ${show(value)})`);
}

/** Structure, contextual-header, retrieval-unit and page options (validated for every strategy when given). */
function structureOptions(given: Record<string, unknown>, has: (key: string) => boolean, size: number): StructureResolved {
  const headingDepth = has('headingDepth') ? integerOption('headingDepth', given.headingDepth) : BASE_DEFAULTS.headingDepth!;
  if (headingDepth < 1 || headingDepth > 6) fail('headingDepth', `headingDepth must be between 1 and 6 (got ${headingDepth})`);

  let headers: string | null = null;
  if (has('headers') && given.headers !== false && given.headers !== '') {
    const h = given.headers === true ? DEFAULT_HEADER_TEMPLATE : given.headers;
    if (typeof h !== 'string') fail('headers', `headers must be true or a template such as "{path}\\n\\n" (got ${show(h)})`);
    if (h.length > MAX_TEMPLATE) fail('headers', `the header template is longer than ${MAX_TEMPLATE} characters`);
    if (!HEADER_PLACEHOLDERS.some((p) => h.includes(p))) {
      fail('headers', `the header template needs at least one of ${HEADER_PLACEHOLDERS.join(', ')} (got ${show(h)})`);
    }
    headers = h;
  }

  let path: string | null = null;
  if (has('path') && given.path !== '') {
    if (typeof given.path !== 'string' || given.path.length > 1000) fail('path', 'path must be a file path or name (a string)');
    path = given.path;
  }

  let parentSize: number | null = null;
  if (has('parentSize')) {
    parentSize = integerOption('parentSize', given.parentSize);
    if (parentSize <= size) fail('parentSize', `parentSize (${parentSize}) must be larger than size (${size})`);
    if (parentSize > MAX_SIZE) fail('parentSize', `parentSize (${parentSize}) must be at most ${MAX_SIZE}`);
  }
  const window = has('window') ? integerOption('window', given.window) : BASE_DEFAULTS.window!;
  if (window < 0 || window > MAX_WINDOW) fail('window', `window must be between 0 and ${MAX_WINDOW} sentences (got ${window})`);

  let levels = [...BASE_DEFAULTS.levels!];
  if (has('levels')) {
    const raw = typeof given.levels === 'string' ? given.levels.split(/[\s,]+/).filter(Boolean) : given.levels;
    if (!Array.isArray(raw) || raw.length === 0) fail('levels', 'levels must be a list of sizes, largest first, e.g. 2048, 512, 128');
    levels = raw.map((v) => integerOption('levels', v));
    if (levels.length < 2 || levels.length > MAX_LEVELS) fail('levels', `levels needs 2 to ${MAX_LEVELS} sizes, largest first (got ${levels.length})`);
    for (let i = 0; i < levels.length; i++) {
      if (levels[i]! <= 0 || levels[i]! > MAX_SIZE) fail('levels', `level sizes must be between 1 and ${MAX_SIZE} (got ${levels[i]})`);
      if (i > 0 && levels[i]! >= levels[i - 1]!) {
        fail('levels', `levels must get smaller, largest first (got ${levels.join(', ')})`);
      }
    }
  }

  // The mode: given, or implied by the field that only one mode uses (--parent-size, --window, --levels).
  let retrieval: RetrievalMode = 'chunks';
  if (has('retrieval')) {
    const r = given.retrieval;
    if (typeof r !== 'string' || !(RETRIEVAL_MODES as string[]).includes(r)) {
      fail('retrieval', `unknown retrieval mode ${show(r)} (expected one of ${oneOf(RETRIEVAL_MODES)})`);
    }
    retrieval = r as RetrievalMode;
  } else {
    const implied = [has('parentSize') && 'parent-child', has('window') && 'window', has('levels') && 'hierarchical'].filter(Boolean) as RetrievalMode[];
    if (implied.length > 1) fail('retrieval', `choose one retrieval mode: parentSize, window and levels each pick a different one (got ${implied.join(', ')})`);
    retrieval = implied[0] ?? 'chunks';
  }
  if (retrieval === 'parent-child' && parentSize === null) parentSize = Math.min(MAX_SIZE, size * 4);

  let pageStarts: number[] | null = null;
  if (has('pageStarts')) {
    const p = given.pageStarts;
    if (!Array.isArray(p) || p.some((v, i) => typeof v !== 'number' || !Number.isInteger(v) || v < 0 || (i > 0 && v <= (p[i - 1] as number)))) {
      fail('pageStarts', 'pageStarts must be increasing character offsets, one per page');
    }
    pageStarts = [...(p as number[])];
  }

  return {
    headingDepth,
    rowsAsText: has('rowsAsText') ? booleanOption('rowsAsText', given.rowsAsText) : false,
    stripHeaders: has('stripHeaders') ? booleanOption('stripHeaders', given.stripHeaders) : true,
    returnEachLine: has('returnEachLine') ? booleanOption('returnEachLine', given.returnEachLine) : false,
    headers,
    path,
    retrieval,
    parentSize,
    window,
    levels,
    pageStarts,
  };
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

  if (strategy.id === 'semantic') {
    // A semantic chunk is as long as its topic: a size that silently did nothing would mislead.
    if (has('size')) fail('size', 'size does not apply to the semantic strategy; use maxSize (--max-size) to cap chunks');
    if (has('overlap')) fail('overlap', 'the semantic strategy has no overlap (its chunks are whole groups of sentences)');
  }
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
  if (strategy.id === 'code') {
    // The code strategy's language is a tree-sitter grammar (aliases such as py, ts accepted); without one the
    // file path's extension decides, in the splitter.
    if (has('language') && given.language !== '') {
      const l = given.language;
      language = typeof l === 'string' ? resolveCodeLanguage(l) : null;
      if (language === null) fail('language', `unknown code language ${show(l)} (expected one of ${oneOf(CODE_LANGUAGE_NAMES)})`);
    }
  } else if (has('language') && given.language !== '') {
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

  const semantic = semanticOptions(given, has);
  const structure = structureOptions(given, has, size);
  if (compat === 'llamaindex' && strategy.id !== 'semantic' && strategy.id !== 'markdown') {
    fail('compat', `compat llamaindex applies to semantic and markdown only (got ${strategy.id})`);
  }
  if (structure.retrieval !== 'chunks') {
    if (compat !== 'none') fail('retrieval', `retrieval units are built on Chunkscope's own splitting: turn compat mode off`);
    if (strategy.id === 'semantic') fail('retrieval', 'retrieval units are not available for the semantic strategy');
    // Sentences of raw HTML or source code would be cut through tags and statements.
    if (structure.retrieval === 'window' && (strategy.id === 'html' || strategy.id === 'code')) {
      fail('window', `sentence windows need prose: use parent-child or hierarchical units with the ${strategy.id} strategy`);
    }
  }

  if (compat === 'langchain' && strategy.id !== 'semantic') {
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
    ...semantic,
    ...structure,
  };
}
