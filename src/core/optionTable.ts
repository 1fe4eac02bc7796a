import { ChunkOptionsError, fail } from './optionError';
import {
  ANALYZER_OPTION_ROWS,
  ENGINE_OPTION_ROWS,
  MAX_BUFFER,
  MAX_K,
  PAGE_OPTION_ROWS,
  RETRIEVER_OPTION_ROW,
  STOP_WORD_LISTS,
  MAX_WINDOW,
  rowChoices,
  type ControlSpec,
  type EngineOptionName,
  type OptionGroup,
  type OptionKind,
  type OptionRow,
  type PageOptionName,
} from './optionRows';
import { checkSeparatorRegex } from './separator-regex';
import { LANGUAGE_NAMES, languageSeparators } from './languages';
import type { StrategyDescription } from './registry';
import { getStrategy, STRATEGY_NAMES } from './strategies';
import type { BreakpointMode, CompatMode, KeepSeparator, ResolvedOptions, RetrievalMode, SentenceFinder } from './types';
import { TOKEN_ENCODINGS, UNIT_NAMES, unitDescriptor } from './units';
import { RETRIEVER_NAMES, RETRIEVER_REGISTRY } from './retrievers/registry';

/**
 * The one table of options. Every option is defined once: its name (the library key, the page's state and stored
 * settings key; kebab-cased, the CLI flag and the URL key), its type and default, whom it applies to, how it is
 * validated (with its one-line error), its help text and how the page shows it. The chunking options are declared
 * in ./optionRows.ts (a leaf, so the types in ./types.ts are mapped from it) and get their behaviour here; so are the
 * page settings and the shared evaluation settings, and a retriever's own settings are rows in its folder
 * (./retrievers/<name>/options.ts, named by its descriptor in ./retrievers/registry.ts). Validation (options.ts), the
 * options key of chunk ids and caches (optionsKey), the CLI's parser and --help, the URL / stored-settings codec and
 * the page's controls and state all read it; none lists options of its own.
 */

export type OptionName = EngineOptionName | PageOptionName;
/** Page settings that are not chunking options (the context budget) but round-trip like them (PAGE_OPTION_ROWS). */
export type { PageOptionName };

/** The evaluation rows of some retrievers: the shared ones, then each retriever's own (its descriptor's `options`). */
export type EvalRowsOf<Retrievers extends readonly { options: readonly OptionRow[] }[]> =
  | typeof RETRIEVER_OPTION_ROW
  | Retrievers[number]['options'][number]
  | (typeof ANALYZER_OPTION_ROWS)[number];
/**
 * Evaluation settings (how chunks are retrieved for a question: src/core/eval, `chunkscope eval` and `sweep`): rows
 * with `engine: false` and `eval: true`, mapped from their rows (./optionRows.ts and each registered retriever's own).
 * They never shape chunks. The retrieval depth k is `chunksInContext` (the context budget's chunks per query, `--k`,
 * a page row): one k for the probe, the evaluation and the budget.
 */
export type EvalOptionName = EvalRowsOf<typeof RETRIEVER_REGISTRY>['name'];

/** What an option's resolve() sees: the options given, those resolved so far (table order) and the strategy. */
export interface ResolveContext {
  given: Record<string, unknown>;
  has(key: string): boolean;
  resolved: Partial<ResolvedOptions>;
  strategy: StrategyDescription;
  /** The strategy's defaults over the base defaults. */
  defaults: ResolvedOptions;
}

/** A row of the table: a declaration (./optionRows.ts's OptionRow, its choices filled in) and its behaviour. */
export interface OptionSpec extends Omit<OptionRow, 'name' | 'choicesOf'> {
  name: OptionName | EvalOptionName;
  /** false: a page setting, not a chunking option (not validated by core, not in the options key). */
  engine?: false;
  /** Validate and complete the value (ChunkOptionsError with one line naming the option). */
  resolve?(value: unknown, ctx: ResolveContext): unknown;
  /** Whether the option shapes the chunks under these options (part of the options key); default: when the
   * strategy lists it among its controls. */
  shapes?(options: ResolvedOptions, strategy: StrategyDescription): boolean;
}

export { ChunkOptionsError, fail };
export type { ControlSpec, OptionGroup, OptionKind };

type OptionBehaviour = Pick<OptionSpec, 'resolve' | 'shapes'>;

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
const MAX_EMBEDDER_ID = 200;
/** One part of a model id: letters, digits, - _ . (not starting with . or -, never "..": no path can escape). */
const ID_PART = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,95}$/;
/** "builtin", a hub id owner/name, or local/<folder> (a folder the user picked). Nothing that is a path elsewhere. */
export function isEmbedderId(id: string): boolean {
  if (id === 'builtin') return true;
  const parts = id.split('/');
  return parts.length === 2 && parts.every((p) => ID_PART.test(p) && !p.includes('..'));
}
const MAX_LEVELS = 6;
const MAX_TEMPLATE = 500;

/** The contextual header used when `headers: true` (--headers without a template): the heading path, then a blank line. */
export const DEFAULT_HEADER_TEMPLATE = '{path}\n\n';
export const HEADER_PLACEHOLDERS = ['{title}', '{path}', '{file}'];
export const RETRIEVAL_MODES: RetrievalMode[] = rowChoices('retrieval');
export const KEEP_SEPARATOR_VALUES: KeepSeparator[] = rowChoices('keepSeparator');
export const COMPAT_MODES: CompatMode[] = rowChoices('compat');
export const SENTENCE_FINDERS: SentenceFinder[] = rowChoices('sentences');
// From the row, as semantic/breakpoints.ts's BREAKPOINT_MODES is: importing that module (the semantic analysis)
// would put it in every bundle that validates options.
const BREAKPOINT_CHOICES: BreakpointMode[] = rowChoices('breakpoint');
/** The registered retrievers' names (src/core/retrievers/registry.ts): the `retriever` row's choices. */
export const RETRIEVERS = RETRIEVER_NAMES;
export { MAX_K, STOP_WORD_LISTS };

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
/**
 * How a chunking option is validated and completed (`resolve`), when its row's kind and min/max do not say it all,
 * and whether it shapes the chunks (`shapes`; default: when the strategy lists it among its controls). The options
 * themselves are declared in ./optionRows.ts; a row without an entry here gets its kind's check (plainResolve).
 */
const ENGINE_BEHAVIOUR: { readonly [N in EngineOptionName]?: OptionBehaviour } = {
  strategy: {
    resolve: (v, { has }) => choiceOption('strategy', has('strategy') ? v : 'recursive', STRATEGY_NAMES, 'strategy'),
    shapes: () => true,
  },
  size: {
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
  overlap: {
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
  unit: {
    resolve(v, { has, defaults, strategy }) {
      const unit = choiceOption('unit', has('unit') ? v : defaults.unit, UNIT_NAMES, 'unit');
      if (strategy.tokenUnitOnly && !unitDescriptor(unit)?.tokenizer) {
        fail('unit', `the ${strategy.id} strategy counts tokens: unit must be one of ${oneOf(TOKEN_ENCODINGS)} (got "${unit}")`);
      }
      return unit;
    },
    shapes: () => true,
  },
  compat: {
    resolve: (v, { has, defaults }) => choiceOption('compat', has('compat') ? v : defaults.compat, COMPAT_MODES, 'compat mode'),
    shapes: () => true,
  },
  keepSeparator: {
    resolve(v, { has, defaults }) {
      if (!has('keepSeparator')) return defaults.keepSeparator;
      // LangChain's boolean keepSeparator: true keeps the separator at the start of the next piece.
      if (v === true) return 'start';
      if (v === false) return 'none';
      if (typeof v === 'string' && (KEEP_SEPARATOR_VALUES as string[]).includes(v)) return v;
      return fail('keepSeparator', `keepSeparator must be one of ${oneOf(KEEP_SEPARATOR_VALUES)} (got ${show(v)})`);
    },
  },
  language: {
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
  separatorsAreRegex: {
    resolve: (v, { has }) => (has('separatorsAreRegex') ? v === true || v === 'true' || v === '1' : false),
    shapes: inControls('separators'),
  },
  separators: {
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
  locale: {
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
  documentId: {
    resolve(v, { has }) {
      if (!has('documentId')) return null;
      if (typeof v !== 'string') fail('documentId', 'documentId must be a string');
      return v;
    },
    shapes: () => false,
  },
  breakpoint: {
    resolve: (v, { has }) => choiceOption('breakpoint', has('breakpoint') ? v : 'percentile', BREAKPOINT_CHOICES, 'breakpoint mode'),
  },
  amount: {
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
  chunks: {
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
  buffer: {
    resolve(v, { has }) {
      const buffer = has('buffer') ? integerOption('buffer', v) : 1;
      if (buffer < 0 || buffer > MAX_BUFFER) fail('buffer', `buffer must be between 0 and ${MAX_BUFFER} (got ${buffer})`);
      return buffer;
    },
  },
  minSize: {
    resolve: (v, { has }) => (has('minSize') ? positiveSize('minSize', v) : null),
  },
  maxSize: {
    resolve(v, { has, resolved }) {
      const maxSize = has('maxSize') ? positiveSize('maxSize', v) : null;
      const minSize = resolved.minSize ?? null;
      if (minSize !== null && maxSize !== null && minSize > maxSize) fail('minSize', `minSize (${minSize}) must not be larger than maxSize (${maxSize})`);
      return maxSize;
    },
  },
  embedder: {
    resolve(v, { has }) {
      const embedder = has('embedder') ? v : 'builtin';
      if (typeof embedder !== 'string' || embedder.length > MAX_EMBEDDER_ID || !isEmbedderId(embedder.trim())) {
        fail('embedder', `embedder must be "builtin", a model id owner/name such as Xenova/all-MiniLM-L6-v2 (letters, digits, - _ .) or local/<folder> (got ${show(embedder)})`);
      }
      return embedder.trim();
    },
  },
  sentences: {
    resolve(v, { has }) {
      const s = has('sentences') ? v : 'intl';
      if (typeof s !== 'string' || !(SENTENCE_FINDERS as string[]).includes(s)) fail('sentences', `sentences must be one of ${oneOf(SENTENCE_FINDERS)} (got ${show(s)})`);
      return s;
    },
  },
  headingDepth: {
    resolve(v, { has }) {
      const depth = has('headingDepth') ? integerOption('headingDepth', v) : 3;
      if (depth < 1 || depth > 6) fail('headingDepth', `headingDepth must be between 1 and 6 (got ${depth})`);
      return depth;
    },
  },
  headers: {
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
  path: {
    resolve(v, { has }) {
      if (!has('path') || v === '') return null;
      if (typeof v !== 'string' || v.length > 1000) fail('path', 'path must be a file path or name (a string)');
      return v;
    },
    shapes: (options, strategy) => (strategy.controls as string[]).includes('path') || Boolean(options.headers),
  },
  parentSize: {
    resolve(v, { has, resolved }) {
      if (!has('parentSize')) return null;
      const parentSize = integerOption('parentSize', v);
      if (parentSize <= resolved.size!) fail('parentSize', `parentSize (${parentSize}) must be larger than size (${resolved.size})`);
      if (parentSize > MAX_SIZE) fail('parentSize', `parentSize (${parentSize}) must be at most ${MAX_SIZE}`);
      return parentSize;
    },
    shapes: (options) => options.retrieval === 'parent-child',
  },
  window: {
    resolve(v, { has }) {
      const window = has('window') ? integerOption('window', v) : 3;
      if (window < 0 || window > MAX_WINDOW) fail('window', `window must be between 0 and ${MAX_WINDOW} sentences (got ${window})`);
      return window;
    },
    shapes: (options) => options.retrieval === 'window',
  },
  levels: {
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
  retrieval: {
    resolve(v, { has }) {
      if (has('retrieval')) return choiceOption('retrieval', v, RETRIEVAL_MODES, 'retrieval mode');
      // Implied by the field that only one mode uses (--parent-size, --window, --levels).
      const implied = [has('parentSize') && 'parent-child', has('window') && 'window', has('levels') && 'hierarchical'].filter(Boolean) as RetrievalMode[];
      if (implied.length > 1) fail('retrieval', `choose one retrieval mode: parentSize, window and levels each pick a different one (got ${implied.join(', ')})`);
      return implied[0] ?? 'chunks';
    },
    shapes: (options) => options.retrieval !== 'chunks',
  },
  pageStarts: {
    resolve(v, { has }) {
      if (!has('pageStarts')) return null;
      if (!Array.isArray(v) || v.some((x, i) => typeof x !== 'number' || !Number.isInteger(x) || x < 0 || (i > 0 && x <= (v[i - 1] as number)))) {
        fail('pageStarts', 'pageStarts must be increasing character offsets, one per page');
      }
      return [...(v as number[])];
    },
    shapes: () => false,
  },
  minFragment: {
    resolve(v, { has }) {
      if (!has('minFragment') || v === null) return null;
      const n = integerOption('minFragment', v);
      if (n < 0) fail('minFragment', `minFragment must be 0 or more (got ${n})`);
      return n;
    },
  },
  stripHeaders: {
    // MarkdownHeaderTextSplitter's own flag: it means something only in LangChain mode.
    shapes: (options, strategy) => options.compat === 'langchain' && inControls('stripHeaders')(options, strategy),
  },
  returnEachLine: {
    shapes: (options, strategy) => options.compat === 'langchain' && inControls('returnEachLine')(options, strategy),
  },
};

/** The page and evaluation settings' checks where the kind's (plainResolve) is not enough; keyed by name. */
const SETTING_BEHAVIOUR: Partial<Record<string, OptionBehaviour>> = {
  chunksInContext: {
    resolve(v, { has }) {
      const k = has('chunksInContext') ? integerOption('chunksInContext', v) : (optionSpec('chunksInContext').default as number);
      if (k < 1 || k > MAX_K) fail('chunksInContext', `k (chunks per query) must be between 1 and ${MAX_K} (got ${k})`);
      return k;
    },
  },
  stopWords: {
    resolve: (v, { has }) => choiceOption('stopWords', has('stopWords') ? v : optionSpec('stopWords').default, STOP_WORD_LISTS, 'stop-word list'),
  },
};

/** The whole table: the chunking options (rows + behaviour), then the page settings and the evaluation settings. */
export const OPTION_TABLE: readonly OptionSpec[] = [
  ...ENGINE_OPTION_ROWS.map(engineSpec),
  // Page settings: the context budget under the stats, projector mode.
  ...PAGE_OPTION_ROWS.map(pageSpec),
  // Evaluation: how a question retrieves chunks (the query probe, `chunkscope eval` and `sweep`): the retriever, each
  // registered retriever's own rows (in registry order), the analyzer's.
  evalSpec(RETRIEVER_OPTION_ROW),
  ...RETRIEVER_REGISTRY.flatMap((r) => r.options.map(evalSpec)),
  ...ANALYZER_OPTION_ROWS.map(evalSpec),
];

/** "a, b or c". */
function listOr(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** A page setting's row: not a chunking option. Checked by SETTING_BEHAVIOUR, or as a switch by its kind; the context
 * window has no resolve (the page checks a number against its control's minimum, src/state/configValidation.ts). */
function pageSpec(row: (typeof PAGE_OPTION_ROWS)[number]): OptionSpec {
  const spec: OptionSpec = { ...(row as OptionRow & { name: PageOptionName }), engine: false };
  const resolve = SETTING_BEHAVIOUR[row.name]?.resolve ?? (row.kind === 'boolean' ? plainResolve(spec) : undefined);
  if (resolve) spec.resolve = resolve;
  return spec;
}

/** An evaluation setting's row (shared, or a retriever's own): the retrievers filled in as the `retriever` row's
 * choices (the first is its default) and listed in its help, and its check (SETTING_BEHAVIOUR, else its kind's and
 * min/max). */
function evalSpec(row: OptionRow): OptionSpec {
  const { choicesOf, ...declared } = row as OptionRow & { name: EvalOptionName };
  const spec: OptionSpec = { ...declared, engine: false, eval: true };
  if (choicesOf === 'retrievers') {
    spec.choices = RETRIEVERS;
    spec.default = RETRIEVERS[0];
    spec.help = `${declared.help}: ${listOr(RETRIEVER_REGISTRY.map((r) => r.help))}`;
  }
  spec.resolve = SETTING_BEHAVIOUR[spec.name]?.resolve ?? plainResolve(spec);
  return spec;
}

/** A chunking option's row with its choices filled in and its behaviour (ENGINE_BEHAVIOUR, else its kind's check). */
function engineSpec(row: (typeof ENGINE_OPTION_ROWS)[number]): OptionSpec {
  const { choicesOf, ...declared } = row as OptionRow & { name: EngineOptionName };
  const choices = choicesOf === 'strategies' ? STRATEGY_NAMES : choicesOf === 'units' ? UNIT_NAMES : declared.choices;
  const behaviour = ENGINE_BEHAVIOUR[declared.name];
  const spec: OptionSpec = { ...declared, ...(choices ? { choices } : {}) };
  spec.resolve = behaviour?.resolve ?? plainResolve(spec);
  if (behaviour?.shapes) spec.shapes = behaviour.shapes;
  return spec;
}

/** The check of a row without its own: the kind's (whole number, number, true/false, one of the choices, a string),
 * the row's min and max, and its default when the option is not given. */
export function plainResolve(spec: OptionSpec): NonNullable<OptionSpec['resolve']> {
  const { name, kind, choices, min, max } = spec;
  const inRange = (n: number): number => {
    if (min !== undefined && n < min) fail(name, max !== undefined ? `${name} must be between ${min} and ${max} (got ${n})` : `${name} must be at least ${min} (got ${n})`);
    if (max !== undefined && n > max) fail(name, min !== undefined ? `${name} must be between ${min} and ${max} (got ${n})` : `${name} must be at most ${max} (got ${n})`);
    return n;
  };
  const check: Partial<Record<OptionKind, (v: unknown) => unknown>> = {
    integer: (v) => inRange(integerOption(name, v)),
    number: (v) => inRange(numberOption(name, v)),
    boolean: (v) => booleanOption(name, v),
    choice: (v) => choiceOption(name, v, choices ?? []),
    string: (v) => (typeof v === 'string' ? v : fail(name, `${name} must be a string (got ${show(v)})`)),
  };
  const checkKind = check[kind];
  if (!checkKind) throw new Error(`option "${name}": a ${kind} option needs its own resolve in ENGINE_BEHAVIOUR (src/core/optionTable.ts)`);
  return (v, { has }) => (has(name) ? checkKind(v) : spec.default);
}

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
