import { BREAKPOINT_MODES } from './semantic/breakpoints';
import { checkSeparatorRegex } from './separator-regex';
import { LANGUAGE_NAMES, languageSeparators } from './languages';
import type { StrategyDescription } from './registry';
import { getStrategy, STRATEGY_NAMES } from './strategies';
import type { ChunkOptions, CompatMode, KeepSeparator, ResolvedOptions, RetrievalMode, SentenceFinder } from './types';
import { TOKEN_ENCODINGS, UNIT_NAMES, unitDescriptor } from './units';

/**
 * The one table of options. Every option is defined here once: its name (the library key, the page's state and
 * stored settings key; kebab-cased, the CLI flag and the URL key), its type and default, whom it applies to, how it
 * is validated (with its one-line error), its help text and how the page shows it. Validation (options.ts), the
 * options key of chunk ids and caches (optionsKey), the CLI's parser and --help, the URL / stored-settings codec
 * and the page's controls and state all read it; none lists options of its own.
 */

export type OptionName = keyof ChunkOptions | PageOptionName;
/** Page settings that are not chunking options (the context budget) but round-trip like them. */
export type PageOptionName = 'contextWindow' | 'chunksInContext' | 'projector';
/**
 * Evaluation settings (how chunks are retrieved for a question: src/core/eval, `chunkscope eval` and `sweep`): rows
 * with `engine: false` and `eval: true`. They never shape chunks. The retrieval depth k is `chunksInContext` (the
 * context budget's chunks per query, `--k`): one k for the probe, the evaluation and the budget.
 */
export type EvalOptionName = 'retriever' | 'hybridWeight' | 'stopWords' | 'stemming';

export type OptionKind =
  | 'integer'
  | 'number'
  | 'boolean'
  | 'choice'
  | 'string'
  /** A list of strings (separators): a repeated CLI flag / URL key. */
  | 'strings'
  /** A list of whole numbers written "2048,512,128". */
  | 'integers'
  /** true (the default template) or a template string: `--headers` alone, or `--headers=<template>`. */
  | 'template'
  /** Document data (page starts): neither a flag nor a URL key. */
  | 'offsets';

export type OptionGroup = 'splitting' | 'semantic' | 'structure' | 'headers' | 'retrieval' | 'document' | 'page' | 'eval';

/** How the page shows an option. `unit: 'unit'` means the chosen size unit (chars, words, tokens). */
export interface ControlSpec {
  kind: 'slider' | 'number' | 'select' | 'checkbox' | 'text' | 'lines';
  label: string;
  min?: number;
  max?: number;
  step?: number;
  unit?: 'unit' | 'sentences' | 'tokens' | 'chunks';
  /** Shown when the box is empty (the value is null). */
  placeholder?: string;
}

/** What an option's resolve() sees: the options given, those resolved so far (table order) and the strategy. */
export interface ResolveContext {
  given: Record<string, unknown>;
  has(key: string): boolean;
  resolved: Partial<ResolvedOptions>;
  strategy: StrategyDescription;
  /** The strategy's defaults over the base defaults. */
  defaults: ResolvedOptions;
}

export interface OptionSpec {
  name: OptionName | EvalOptionName;
  /** kebab-case: the CLI flag (--flag) and the URL key. */
  flag: string;
  kind: OptionKind;
  /** The allowed values of a choice. */
  choices?: readonly string[];
  /** The base default (a strategy's `defaults` may override it). */
  default: unknown;
  group: OptionGroup;
  /** One line for --help and the page's tooltip. */
  help: string;
  /** The CLI's value placeholder in --help (`<n>`, `<name>`); none for a switch. */
  arg?: string;
  /** Older spellings that still work: CLI flags and URL keys (see urlMigration in src/state). */
  aliases?: readonly string[];
  control?: ControlSpec;
  /** false: a page setting, not a chunking option (not validated by core, not in the options key). */
  engine?: false;
  /** An evaluation setting (with engine: false): a key of evaluate()'s options and a flag of `chunkscope eval` /
   * `sweep`, validated by validateEvalOptions with `resolve`. */
  eval?: true;
  /** Document data, not configuration: never in a share link or the CLI's flags. */
  document?: true;
  /** Validate and complete the value (ChunkOptionsError with one line naming the option). */
  resolve?(value: unknown, ctx: ResolveContext): unknown;
  /** Whether the option shapes the chunks under these options (part of the options key); default: when the
   * strategy lists it among its controls. */
  shapes?(options: ResolvedOptions, strategy: StrategyDescription): boolean;
}

/** A bad option: `field` names the option (the library key), `message` is one human line. */
export class ChunkOptionsError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
    this.field = field;
  }
}

export function fail(field: string, message: string): never {
  throw new ChunkOptionsError(field, message);
}

export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'a list' : typeof value;
}

export function oneOf(values: readonly string[]): string {
  return values.join(', ');
}

/** Integers may arrive as numbers (library) or digit strings (URL query, CLI flags). */
export function integerOption(field: string, value: unknown): number {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(field, `${field} must be a whole number (got ${show(value)})`);
  return n;
}

/** Numbers may arrive as numbers (library) or decimal strings (URL query, CLI flags). */
export function numberOption(field: string, value: unknown): number {
  const n = typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(field, `${field} must be a number (got ${show(value)})`);
  return n;
}

export function booleanOption(field: string, value: unknown): boolean {
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return fail(field, `${field} must be true or false (got ${show(value)})`);
}

function choiceOption<T extends string>(field: string, value: unknown, choices: readonly T[], what = field): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    fail(field, `unknown ${what} ${show(value)} (expected one of ${oneOf(choices)})`);
  }
  return value as T;
}

/** Upper bounds that keep a typo from asking for absurd work. */
export const MAX_SIZE = 100_000_000;
const MAX_SEPARATORS = 64;
const MAX_SEPARATOR_LENGTH = 1000;
const MAX_BUFFER = 100;
const MAX_EMBEDDER_ID = 200;
/** One part of a model id: letters, digits, - _ . (not starting with . or -, never "..": no path can escape). */
const ID_PART = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,95}$/;
/** "builtin", a hub id owner/name, or local/<folder> (a folder the user picked). Nothing that is a path elsewhere. */
export function isEmbedderId(id: string): boolean {
  if (id === 'builtin') return true;
  const parts = id.split('/');
  return parts.length === 2 && parts.every((p) => ID_PART.test(p) && !p.includes('..'));
}
const MAX_WINDOW = 50;
const MAX_LEVELS = 6;
const MAX_TEMPLATE = 500;

/** The contextual header used when `headers: true` (--headers without a template): the heading path, then a blank line. */
export const DEFAULT_HEADER_TEMPLATE = '{path}\n\n';
export const HEADER_PLACEHOLDERS = ['{title}', '{path}', '{file}'];
export const RETRIEVAL_MODES: RetrievalMode[] = ['chunks', 'parent-child', 'window', 'hierarchical'];
export const KEEP_SEPARATOR_VALUES: KeepSeparator[] = ['start', 'end', 'none'];
export const COMPAT_MODES: CompatMode[] = ['none', 'langchain', 'llamaindex', 'chonkie'];
export const SENTENCE_FINDERS: SentenceFinder[] = ['intl', 'regex'];
export const RETRIEVERS = ['bm25', 'dense', 'hybrid'] as const;
export const STOP_WORD_LISTS = ['none', 'english'] as const;
/** The most chunks a question may retrieve. */
export const MAX_K = 1000;

/** A size in the unit: a positive whole number up to MAX_SIZE, or null when not given. */
function positiveSize(field: string, value: unknown): number {
  const v = integerOption(field, value);
  if (v <= 0) fail(field, `${field} must be a positive whole number (got ${v})`);
  if (v > MAX_SIZE) fail(field, `${field} (${v}) must be at most ${MAX_SIZE}`);
  return v;
}

/** Whether the compat mode asked for (not yet validated) keeps its library's default overlap (CompatProfile). */
function keepsDefaultOverlap(strategy: StrategyDescription, compat: unknown): boolean {
  if (typeof compat !== 'string' || !(strategy.compat as string[]).includes(compat)) return false;
  return strategy.compatProfiles?.[compat as CompatMode]?.keepsDefaultOverlap === true;
}

const inControls = (name: string) => (_: ResolvedOptions, strategy: StrategyDescription) => (strategy.controls as string[]).includes(name);

/**
 * In validation order: an option's resolve() may read the options before it (overlap reads size, separators read
 * language, amount reads breakpoint). The options key lists shaping options in this order too.
 */
export const OPTION_TABLE: readonly OptionSpec[] = [
  {
    name: 'strategy',
    flag: 'strategy',
    kind: 'choice',
    choices: STRATEGY_NAMES,
    default: 'recursive',
    group: 'splitting',
    arg: '<name>',
    help: 'how boundaries are found',
    control: { kind: 'select', label: 'Strategy' },
    resolve: (v, { has }) => choiceOption('strategy', has('strategy') ? v : 'recursive', STRATEGY_NAMES, 'strategy'),
    shapes: () => true,
  },
  {
    name: 'size',
    flag: 'size',
    kind: 'integer',
    default: 512,
    group: 'splitting',
    arg: '<n>',
    help: 'maximum chunk size in the unit (default depends on the strategy)',
    control: { kind: 'slider', label: 'Chunk size', min: 1, max: 4000, step: 1, unit: 'unit' },
    resolve(v, { has, defaults, strategy }) {
      const refused = strategy.refuses?.size;
      if (refused && has('size')) fail('size', refused);
      const size = has('size') ? integerOption('size', v) : defaults.size;
      if (size <= 0) fail('size', `size must be a positive whole number (got ${show(v)})`);
      if (size > MAX_SIZE) fail('size', `size (${size}) must be at most ${MAX_SIZE}`);
      return size;
    },
    shapes: (_, strategy) => !strategy.refuses?.size,
  },
  {
    name: 'overlap',
    flag: 'overlap',
    kind: 'integer',
    default: 64,
    group: 'splitting',
    arg: '<n>',
    help: 'overlap between neighbouring chunks, smaller than --size',
    control: { kind: 'slider', label: 'Overlap', min: 0, max: 1000, step: 1, unit: 'unit' },
    resolve(v, { given, has, defaults, resolved, strategy }) {
      const refused = strategy.refuses?.overlap;
      if (refused && has('overlap')) fail('overlap', refused);
      const size = resolved.size!;
      // Not given: the strategy's default, lowered to size/8 so that a lone small `size` stays valid (a compat mode
      // whose profile keeps the library's default overlap lowers it only when it is not below the size).
      if (!has('overlap')) {
        if (keepsDefaultOverlap(strategy, given.compat) && defaults.overlap < size) return defaults.overlap;
        return Math.min(defaults.overlap, Math.floor(size / 8));
      }
      const overlap = integerOption('overlap', v);
      if (overlap < 0) fail('overlap', `overlap must not be negative (got ${overlap})`);
      if (overlap >= size) fail('overlap', `overlap (${overlap}) must be smaller than size (${size})`);
      return overlap;
    },
    shapes: (_, strategy) => !strategy.refuses?.overlap,
  },
  {
    name: 'unit',
    flag: 'unit',
    kind: 'choice',
    choices: UNIT_NAMES,
    default: 'chars',
    group: 'splitting',
    arg: '<name>',
    help: 'how size is counted: chars (UTF-16 code units), words, bytes (UTF-8), or a tiktoken encoding',
    control: { kind: 'select', label: 'Unit' },
    resolve(v, { has, defaults, strategy }) {
      const unit = choiceOption('unit', has('unit') ? v : defaults.unit, UNIT_NAMES, 'unit');
      if (strategy.tokenUnitOnly && !unitDescriptor(unit)?.tokenizer) {
        fail('unit', `the ${strategy.id} strategy counts tokens: unit must be one of ${oneOf(TOKEN_ENCODINGS)} (got "${unit}")`);
      }
      return unit;
    },
    shapes: () => true,
  },
  {
    name: 'compat',
    flag: 'compat',
    kind: 'choice',
    choices: COMPAT_MODES,
    default: 'none',
    group: 'splitting',
    arg: '<mode>',
    help: 'reproduce a reference library exactly: langchain, llamaindex or chonkie (where the strategy has that mode)',
    control: { kind: 'select', label: 'Compatibility' },
    resolve: (v, { has, defaults }) => choiceOption('compat', has('compat') ? v : defaults.compat, COMPAT_MODES, 'compat mode'),
    shapes: () => true,
  },
  {
    name: 'keepSeparator',
    flag: 'keep-separator',
    kind: 'choice',
    choices: KEEP_SEPARATOR_VALUES,
    default: 'none',
    group: 'splitting',
    arg: '<where>',
    help: 'where a separator that was cut at goes: start (of the next piece), end (of the previous) or none',
    aliases: ['keep'],
    control: { kind: 'select', label: 'Keep separator' },
    resolve(v, { has, defaults }) {
      if (!has('keepSeparator')) return defaults.keepSeparator;
      // LangChain's boolean keepSeparator: true keeps the separator at the start of the next piece.
      if (v === true) return 'start';
      if (v === false) return 'none';
      if (typeof v === 'string' && (KEEP_SEPARATOR_VALUES as string[]).includes(v)) return v;
      return fail('keepSeparator', `keepSeparator must be one of ${oneOf(KEEP_SEPARATOR_VALUES)} (got ${show(v)})`);
    },
  },
  {
    name: 'language',
    flag: 'language',
    kind: 'string',
    default: null,
    group: 'splitting',
    arg: '<name>',
    help: 'recursive: a separator preset (markdown, python, js, ...); code: the grammar (else detected from --path)',
    aliases: ['lang', 'codelang'],
    control: { kind: 'select', label: 'Language preset' },
    resolve(v, { has, strategy }) {
      if (!has('language') || v === '') return null;
      const own = strategy.language;
      if (own) {
        const name = typeof v === 'string' ? own.resolve(v) : null;
        if (name === null) fail('language', `unknown ${own.noun} ${show(v)} (expected one of ${oneOf(own.names)})`);
        return name;
      }
      if (typeof v !== 'string' || !languageSeparators(v)) fail('language', `unknown language ${show(v)} (expected one of ${oneOf(LANGUAGE_NAMES)})`);
      return v;
    },
  },
  {
    name: 'separatorsAreRegex',
    flag: 'separators-are-regex',
    kind: 'boolean',
    default: false,
    group: 'splitting',
    help: 'treat separators as regular expressions (guarded against catastrophic backtracking)',
    aliases: ['regex'],
    control: { kind: 'checkbox', label: 'Separators are regular expressions' },
    resolve: (v, { has }) => (has('separatorsAreRegex') ? v === true || v === 'true' || v === '1' : false),
    shapes: inControls('separators'),
  },
  {
    name: 'separators',
    flag: 'separators',
    kind: 'strings',
    default: [],
    group: 'splitting',
    arg: '<s>',
    help: 'a separator; repeat for a hierarchy, coarsest first (escapes: \\n \\r \\t \\\\ \\u{..})',
    aliases: ['separator', 'sep'],
    control: { kind: 'lines', label: 'Separators' },
    resolve(v, { has, defaults, resolved, strategy }) {
      let separators: string[];
      if (has('separators')) {
        if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) fail('separators', 'separators must be a list of strings');
        separators = [...(v as string[])];
      } else if (resolved.language && !strategy.language) {
        separators = [...languageSeparators(resolved.language)!];
      } else {
        separators = [...defaults.separators];
      }
      if (strategy.needsSeparators) {
        if (separators.length === 0) fail('separators', `the ${strategy.id} strategy needs at least one separator`);
        if (separators.length > MAX_SEPARATORS) fail('separators', `at most ${MAX_SEPARATORS} separators are allowed`);
        for (const s of separators) {
          if (s.length > MAX_SEPARATOR_LENGTH) fail('separators', `a separator is longer than ${MAX_SEPARATOR_LENGTH} characters`);
          if (resolved.separatorsAreRegex && s !== '') {
            const check = checkSeparatorRegex(s);
            if (!check.ok) fail('separators', `separator /${s}/ ${check.reason}`);
          }
        }
      }
      return separators;
    },
  },
  {
    name: 'locale',
    flag: 'locale',
    kind: 'string',
    default: 'en',
    group: 'splitting',
    arg: '<tag>',
    help: 'sentence segmentation locale, a BCP 47 tag (en, de-CH, ja, ...)',
    control: { kind: 'text', label: 'Locale', placeholder: 'en' },
    resolve(v, { has, defaults }) {
      if (!has('locale')) return defaults.locale;
      try {
        if (typeof v !== 'string' || v === '') throw new RangeError();
        return Intl.getCanonicalLocales(v)[0]!;
      } catch {
        return fail('locale', `locale ${show(v)} is not a valid language tag (e.g. en, de-CH, zh-Hans)`);
      }
    },
  },
  {
    name: 'documentId',
    flag: 'document-id',
    kind: 'string',
    default: null,
    group: 'document',
    arg: '<id>',
    help: 'used in the stable chunk ids (default: a hash of the text)',
    document: true,
    resolve(v, { has }) {
      if (!has('documentId')) return null;
      if (typeof v !== 'string') fail('documentId', 'documentId must be a string');
      return v;
    },
    shapes: () => false,
  },
  // Semantic chunking (validated for every strategy when given, so a typo never passes silently).
  {
    name: 'breakpoint',
    flag: 'breakpoint',
    kind: 'choice',
    choices: BREAKPOINT_MODES,
    default: 'percentile',
    group: 'semantic',
    arg: '<mode>',
    help: 'how a cut is chosen: percentile | standard_deviation | interquartile | gradient | absolute',
    control: { kind: 'select', label: 'Breakpoint' },
    resolve: (v, { has }) => choiceOption('breakpoint', has('breakpoint') ? v : 'percentile', BREAKPOINT_MODES, 'breakpoint mode'),
  },
  {
    name: 'amount',
    flag: 'amount',
    kind: 'number',
    default: null,
    group: 'semantic',
    arg: '<x>',
    help: "the mode's amount: percentile 95, standard_deviation 3, interquartile 1.5, gradient 95; absolute: the distance (e.g. 0.3)",
    aliases: ['threshold'],
    control: { kind: 'number', label: 'Threshold', step: 0.01 },
    resolve(v, { has, resolved }) {
      if (!has('amount')) return null;
      const amount = numberOption('amount', v);
      const mode = resolved.breakpoint!;
      if ((mode === 'percentile' || mode === 'gradient') && (amount < 0 || amount > 100)) fail('amount', `the ${mode} amount must be between 0 and 100 (got ${amount})`);
      if ((mode === 'standard_deviation' || mode === 'interquartile') && amount < 0) fail('amount', `the ${mode} amount must not be negative (got ${amount})`);
      if (mode === 'absolute' && (amount < 0 || amount > 2)) fail('amount', `the absolute threshold is a distance between 0 and 2 (got ${amount})`);
      return amount;
    },
  },
  {
    name: 'chunks',
    flag: 'chunks',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'aim for n chunks (overrides --amount)',
    control: { kind: 'number', label: 'Target chunks', min: 1, placeholder: 'off' },
    resolve(v, { has, resolved }) {
      let chunks: number | null = null;
      if (has('chunks')) {
        chunks = integerOption('chunks', v);
        if (chunks < 1) fail('chunks', `chunks must be at least 1 (got ${chunks})`);
      }
      if (resolved.breakpoint === 'absolute' && resolved.amount === null && chunks === null) {
        fail('amount', 'the absolute breakpoint needs a threshold distance (amount, --threshold), e.g. 0.3');
      }
      return chunks;
    },
  },
  {
    name: 'buffer',
    flag: 'buffer',
    kind: 'integer',
    default: 1,
    group: 'semantic',
    arg: '<n>',
    help: 'neighbouring sentences on each side embedded with a sentence',
    control: { kind: 'number', label: 'Buffer', min: 0, max: MAX_BUFFER, unit: 'sentences' },
    resolve(v, { has }) {
      const buffer = has('buffer') ? integerOption('buffer', v) : 1;
      if (buffer < 0 || buffer > MAX_BUFFER) fail('buffer', `buffer must be between 0 and ${MAX_BUFFER} (got ${buffer})`);
      return buffer;
    },
  },
  {
    name: 'minSize',
    flag: 'min-size',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'merge smaller chunks with a neighbour (in the unit)',
    control: { kind: 'number', label: 'Min size', min: 1, unit: 'unit', placeholder: 'none' },
    resolve: (v, { has }) => (has('minSize') ? positiveSize('minSize', v) : null),
  },
  {
    name: 'maxSize',
    flag: 'max-size',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'split larger chunks further (in the unit)',
    control: { kind: 'number', label: 'Max size', min: 1, unit: 'unit', placeholder: 'none' },
    resolve(v, { has, resolved }) {
      const maxSize = has('maxSize') ? positiveSize('maxSize', v) : null;
      const minSize = resolved.minSize ?? null;
      if (minSize !== null && maxSize !== null && minSize > maxSize) fail('minSize', `minSize (${minSize}) must not be larger than maxSize (${maxSize})`);
      return maxSize;
    },
  },
  {
    name: 'embedder',
    flag: 'embedder',
    kind: 'string',
    default: 'builtin',
    group: 'semantic',
    arg: '<model>',
    help: 'builtin (the offline model shipped with Chunkscope) or a Hugging Face model id (e.g. Xenova/all-MiniLM-L6-v2)',
    control: { kind: 'select', label: 'Embedding model' },
    resolve(v, { has }) {
      const embedder = has('embedder') ? v : 'builtin';
      if (typeof embedder !== 'string' || embedder.length > MAX_EMBEDDER_ID || !isEmbedderId(embedder.trim())) {
        fail('embedder', `embedder must be "builtin", a model id owner/name such as Xenova/all-MiniLM-L6-v2 (letters, digits, - _ .) or local/<folder> (got ${show(embedder)})`);
      }
      return embedder.trim();
    },
  },
  {
    name: 'sentences',
    flag: 'sentences',
    kind: 'choice',
    choices: SENTENCE_FINDERS,
    default: 'intl',
    group: 'semantic',
    arg: 'intl|regex',
    help: "sentence finder: Intl.Segmenter (any language) or LangChain's regex",
    control: { kind: 'select', label: 'Sentences' },
    resolve(v, { has }) {
      const s = has('sentences') ? v : 'intl';
      if (typeof s !== 'string' || !(SENTENCE_FINDERS as string[]).includes(s)) fail('sentences', `sentences must be one of ${oneOf(SENTENCE_FINDERS)} (got ${show(s)})`);
      return s;
    },
  },
  // Structure-aware strategies, contextual headers, retrieval units.
  {
    name: 'headingDepth',
    flag: 'heading-depth',
    kind: 'integer',
    default: 3,
    group: 'structure',
    arg: '<n>',
    help: 'split at headings of depth 1..n; deeper headings stay inside their section',
    aliases: ['depth'],
    control: { kind: 'select', label: 'Heading depth', min: 1, max: 6 },
    resolve(v, { has }) {
      const depth = has('headingDepth') ? integerOption('headingDepth', v) : 3;
      if (depth < 1 || depth > 6) fail('headingDepth', `headingDepth must be between 1 and 6 (got ${depth})`);
      return depth;
    },
  },
  {
    name: 'headers',
    flag: 'headers',
    kind: 'template',
    default: null,
    group: 'headers',
    arg: '[=<template>]',
    help: 'put a contextual header before each chunk\'s content: the heading path (alone), or a template with {title} {path} {file} (--headers="{title}: {path}\\n\\n"); it counts in the size',
    aliases: ['header-template', 'hdr'],
    control: { kind: 'text', label: 'Contextual header' },
    resolve(v, { has }) {
      if (!has('headers') || v === false || v === '') return null;
      const h = v === true ? DEFAULT_HEADER_TEMPLATE : v;
      if (typeof h !== 'string') fail('headers', `headers must be true or a template such as "{path}\\n\\n" (got ${show(h)})`);
      if (h.length > MAX_TEMPLATE) fail('headers', `the header template is longer than ${MAX_TEMPLATE} characters`);
      if (!HEADER_PLACEHOLDERS.some((p) => h.includes(p))) fail('headers', `the header template needs at least one of ${HEADER_PLACEHOLDERS.join(', ')} (got ${show(h)})`);
      return h;
    },
    // Only when set, so the ids of chunks made without headers do not depend on the option.
    shapes: (options) => Boolean(options.headers),
  },
  {
    name: 'path',
    flag: 'path',
    kind: 'string',
    default: null,
    group: 'structure',
    arg: '<file>',
    help: 'the file path used in code prefixes, {file} and code language detection (default: the input file)',
    control: { kind: 'text', label: 'File path' },
    resolve(v, { has }) {
      if (!has('path') || v === '') return null;
      if (typeof v !== 'string' || v.length > 1000) fail('path', 'path must be a file path or name (a string)');
      return v;
    },
    shapes: (options, strategy) => (strategy.controls as string[]).includes('path') || Boolean(options.headers),
  },
  {
    name: 'parentSize',
    flag: 'parent-size',
    kind: 'integer',
    default: null,
    group: 'retrieval',
    arg: '<n>',
    help: 'parent–child units: parents of n units (sections for structure strategies), children of --size',
    aliases: ['psize'],
    control: { kind: 'number', label: 'Parent size', unit: 'unit', placeholder: 'default' },
    resolve(v, { has, resolved }) {
      if (!has('parentSize')) return null;
      const parentSize = integerOption('parentSize', v);
      if (parentSize <= resolved.size!) fail('parentSize', `parentSize (${parentSize}) must be larger than size (${resolved.size})`);
      if (parentSize > MAX_SIZE) fail('parentSize', `parentSize (${parentSize}) must be at most ${MAX_SIZE}`);
      return parentSize;
    },
    shapes: (options) => options.retrieval === 'parent-child',
  },
  {
    name: 'window',
    flag: 'window',
    kind: 'integer',
    default: 3,
    group: 'retrieval',
    arg: '<n>',
    help: 'sentence windows: one chunk per sentence, metadata.window = n sentences each side',
    aliases: ['win'],
    control: { kind: 'number', label: 'Window (sentences each side)', min: 0, max: MAX_WINDOW, unit: 'sentences' },
    resolve(v, { has }) {
      const window = has('window') ? integerOption('window', v) : 3;
      if (window < 0 || window > MAX_WINDOW) fail('window', `window must be between 0 and ${MAX_WINDOW} sentences (got ${window})`);
      return window;
    },
    shapes: (options) => options.retrieval === 'window',
  },
  {
    name: 'levels',
    flag: 'levels',
    kind: 'integers',
    default: [2048, 512, 128],
    group: 'retrieval',
    arg: '<a,b,c>',
    help: 'hierarchical units: nested levels, largest first (e.g. 2048,512,128)',
    control: { kind: 'text', label: 'Levels' },
    resolve(v, { has }) {
      if (!has('levels')) return [2048, 512, 128];
      const raw = typeof v === 'string' ? v.split(/[\s,;]+/).filter(Boolean) : v;
      if (!Array.isArray(raw) || raw.length === 0) fail('levels', 'levels must be a list of sizes, largest first, e.g. 2048, 512, 128');
      const levels = raw.map((x) => integerOption('levels', x));
      if (levels.length < 2 || levels.length > MAX_LEVELS) fail('levels', `levels needs 2 to ${MAX_LEVELS} sizes, largest first (got ${levels.length})`);
      for (let i = 0; i < levels.length; i++) {
        if (levels[i]! <= 0 || levels[i]! > MAX_SIZE) fail('levels', `level sizes must be between 1 and ${MAX_SIZE} (got ${levels[i]})`);
        if (i > 0 && levels[i]! >= levels[i - 1]!) fail('levels', `levels must get smaller, largest first (got ${levels.join(', ')})`);
      }
      return levels;
    },
    shapes: (options) => options.retrieval === 'hierarchical',
  },
  {
    name: 'retrieval',
    flag: 'retrieval',
    kind: 'choice',
    choices: RETRIEVAL_MODES,
    default: 'chunks',
    group: 'retrieval',
    arg: '<mode>',
    help: 'retrieval units: chunks | parent-child | window | hierarchical (implied by --parent-size, --window, --levels)',
    aliases: ['ret'],
    control: { kind: 'select', label: 'Retrieval units' },
    resolve(v, { has }) {
      if (has('retrieval')) return choiceOption('retrieval', v, RETRIEVAL_MODES, 'retrieval mode');
      // Implied by the field that only one mode uses (--parent-size, --window, --levels).
      const implied = [has('parentSize') && 'parent-child', has('window') && 'window', has('levels') && 'hierarchical'].filter(Boolean) as RetrievalMode[];
      if (implied.length > 1) fail('retrieval', `choose one retrieval mode: parentSize, window and levels each pick a different one (got ${implied.join(', ')})`);
      return implied[0] ?? 'chunks';
    },
    shapes: (options) => options.retrieval !== 'chunks',
  },
  {
    name: 'pageStarts',
    flag: 'page-starts',
    kind: 'offsets',
    default: null,
    group: 'document',
    help: 'where each page starts (from PDF import)',
    document: true,
    resolve(v, { has }) {
      if (!has('pageStarts')) return null;
      if (!Array.isArray(v) || v.some((x, i) => typeof x !== 'number' || !Number.isInteger(x) || x < 0 || (i > 0 && x <= (v[i - 1] as number)))) {
        fail('pageStarts', 'pageStarts must be increasing character offsets, one per page');
      }
      return [...(v as number[])];
    },
    shapes: () => false,
  },
  {
    name: 'rowsAsText',
    flag: 'rows-as-text',
    kind: 'boolean',
    default: false,
    group: 'structure',
    help: 'table chunks\' content as "column: value" lines per row',
    aliases: ['rows'],
    control: { kind: 'checkbox', label: 'Tables as column: value text' },
    resolve: (v, { has }) => (has('rowsAsText') ? booleanOption('rowsAsText', v) : false),
  },
  {
    name: 'minFragment',
    flag: 'min-fragment',
    kind: 'integer',
    default: null,
    group: 'structure',
    arg: '<n>',
    help: 'markdown/HTML: a text piece smaller than n (in the unit) merges with a neighbour in its section, or the cut before it moves back; whole tables and code blocks are left alone; default size/4, 0 keeps fragments',
    control: { kind: 'number', label: 'Min fragment', min: 0, unit: 'unit', placeholder: 'size / 4' },
    resolve(v, { has }) {
      if (!has('minFragment') || v === null) return null;
      const n = integerOption('minFragment', v);
      if (n < 0) fail('minFragment', `minFragment must be 0 or more (got ${n})`);
      return n;
    },
  },
  {
    name: 'rawHtml',
    flag: 'raw-html',
    kind: 'boolean',
    default: false,
    group: 'structure',
    help: 'HTML: chunks\' content is the raw HTML of their span (default: the text with tags removed, as a pipeline indexes it)',
    control: { kind: 'checkbox', label: 'Keep raw HTML in content' },
    resolve: (v, { has }) => (has('rawHtml') ? booleanOption('rawHtml', v) : false),
  },
  {
    name: 'stripHeaders',
    flag: 'strip-headers',
    kind: 'boolean',
    default: true,
    group: 'structure',
    help: "markdown, LangChain mode: MarkdownHeaderTextSplitter's strip_headers (--strip-headers=false, or --keep-headers, keeps the header lines)",
    aliases: ['strip'],
    control: { kind: 'checkbox', label: 'Strip headers' },
    resolve: (v, { has }) => (has('stripHeaders') ? booleanOption('stripHeaders', v) : true),
    // MarkdownHeaderTextSplitter's own flag: it means something only in LangChain mode.
    shapes: (options, strategy) => options.compat === 'langchain' && inControls('stripHeaders')(options, strategy),
  },
  {
    name: 'returnEachLine',
    flag: 'return-each-line',
    kind: 'boolean',
    default: false,
    group: 'structure',
    help: "markdown, LangChain mode: MarkdownHeaderTextSplitter's return_each_line (one chunk per line)",
    aliases: ['each-line', 'each'],
    control: { kind: 'checkbox', label: 'One chunk per line' },
    resolve: (v, { has }) => (has('returnEachLine') ? booleanOption('returnEachLine', v) : false),
    shapes: (options, strategy) => options.compat === 'langchain' && inControls('returnEachLine')(options, strategy),
  },
  // Page settings: the context budget under the stats.
  {
    name: 'contextWindow',
    flag: 'context-window',
    kind: 'integer',
    default: 8192,
    group: 'page',
    help: 'the context budget: the model\'s window in tokens',
    aliases: ['ctx'],
    engine: false,
    control: { kind: 'number', label: 'Context window', min: 1, unit: 'tokens' },
  },
  {
    name: 'chunksInContext',
    flag: 'chunks-in-context',
    kind: 'integer',
    default: 5,
    group: 'page',
    help: 'k: how many chunks a question retrieves (the query probe, eval and sweep) and the context budget puts into the window',
    aliases: ['k'],
    engine: false,
    eval: true,
    control: { kind: 'number', label: 'Chunks per query', min: 1, unit: 'chunks' },
    resolve(v, { has }) {
      const k = has('chunksInContext') ? integerOption('chunksInContext', v) : 5;
      if (k < 1 || k > MAX_K) fail('chunksInContext', `k (chunks per query) must be between 1 and ${MAX_K} (got ${k})`);
      return k;
    },
  },
  {
    // How the page looks, not how it chunks: a link can open a workshop's projector view (projector=1).
    name: 'projector',
    flag: 'projector',
    kind: 'boolean',
    default: false,
    group: 'page',
    help: 'projector mode: larger type, breadcrumbs once per chunk, injected text collapsed, the similarity curve in bins',
    engine: false,
    resolve: (v, { has }) => (has('projector') ? booleanOption('projector', v) : false),
  },
  // Evaluation: how a question retrieves chunks (the query probe, `chunkscope eval` and `sweep`).
  {
    name: 'retriever',
    flag: 'retriever',
    kind: 'choice',
    choices: RETRIEVERS,
    default: 'bm25',
    group: 'eval',
    arg: '<name>',
    help: 'how a question finds chunks: bm25 (Okapi, k1 1.2, b 0.75), dense (cosine over the --embedder\'s embeddings of chunk content) or hybrid (reciprocal rank fusion, k 60)',
    engine: false,
    eval: true,
    control: { kind: 'select', label: 'Retriever' },
    resolve: (v, { has }) => choiceOption('retriever', has('retriever') ? v : 'bm25', RETRIEVERS, 'retriever'),
  },
  {
    name: 'hybridWeight',
    flag: 'hybrid-weight',
    kind: 'number',
    default: 0.5,
    group: 'eval',
    arg: '<w>',
    help: "hybrid: the dense ranking's weight in the fusion, 0..1 (BM25's is 1 - w)",
    engine: false,
    eval: true,
    control: { kind: 'slider', label: 'Dense weight', min: 0, max: 1, step: 0.05 },
    resolve(v, { has }) {
      const w = has('hybridWeight') ? numberOption('hybridWeight', v) : 0.5;
      if (w < 0 || w > 1) fail('hybridWeight', `hybridWeight must be between 0 and 1 (got ${w})`);
      return w;
    },
  },
  {
    name: 'stopWords',
    flag: 'stop-words',
    kind: 'choice',
    choices: STOP_WORD_LISTS,
    default: 'none',
    group: 'eval',
    arg: '<list>',
    help: 'BM25: drop stop words from chunks and questions (english: the NLTK list)',
    engine: false,
    eval: true,
    control: { kind: 'select', label: 'Stop words' },
    resolve: (v, { has }) => choiceOption('stopWords', has('stopWords') ? v : 'none', STOP_WORD_LISTS, 'stop-word list'),
  },
  {
    name: 'stemming',
    flag: 'stemming',
    kind: 'boolean',
    default: false,
    group: 'eval',
    help: "BM25: reduce words to their Porter stems (English)",
    engine: false,
    eval: true,
    control: { kind: 'checkbox', label: 'Stemming' },
    resolve: (v, { has }) => (has('stemming') ? booleanOption('stemming', v) : false),
  },
];

/** The table's evaluation settings (retriever, k, ...), in table order: validateEvalOptions runs their resolve(). */
export const EVAL_OPTIONS: readonly OptionSpec[] = OPTION_TABLE.filter((o) => o.eval);

/** The table's chunking options (page settings left out), in validation order. */
export const ENGINE_OPTIONS: readonly OptionSpec[] = OPTION_TABLE.filter((o) => o.engine !== false);

export function optionSpec(name: string): OptionSpec {
  const found = OPTION_TABLE.find((o) => o.name === name);
  if (!found) throw new Error(`no option "${name}" in the option table`);
  return found;
}

/** An option by its flag (CLI, URL key) or one of its older spellings. */
export function optionByFlag(flag: string): OptionSpec | undefined {
  return OPTION_TABLE.find((o) => o.flag === flag) ?? OPTION_TABLE.find((o) => o.aliases?.includes(flag));
}

/** The base defaults of the chunking options (strategies' `defaults` go over these). */
export const BASE_DEFAULTS = Object.fromEntries(ENGINE_OPTIONS.map((o) => [o.name, o.default])) as unknown as ResolvedOptions;

/** Whether an option applies to a strategy: shown in the page, taken from the page's state into its options. */
export function appliesTo(spec: OptionSpec, strategy: StrategyDescription): boolean {
  if (spec.engine === false || spec.name === 'strategy') return true;
  if (spec.document) return true;
  return (strategy.controls as string[]).includes(spec.name);
}

/** The strategy's description for options (used where an id may be unknown). */
export function strategyFor(id: string): StrategyDescription {
  return getStrategy(id);
}
