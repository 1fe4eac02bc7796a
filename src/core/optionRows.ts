/**
 * The chunking options (and below them the page settings and the evaluation settings every retriever shares),
 * declared once each: name (the library key, the page's state and stored-settings key), CLI
 * flag and URL key (`flag`), kind and choices (hence the TypeScript type: ChunkOptions, ResolvedOptions, ControlName
 * and the page's Config are mapped from these rows), default, group, help (--help, the page's tooltip and hint) and
 * the page's control. How each one is validated, when it is not plain (a kind's check and the row's min/max), and
 * whether it shapes the chunks live beside the table in ./optionTable.ts, keyed by name.
 *
 * A leaf: it imports nothing but the rows a strategy folder declares for itself (./strategies/<id>/options.ts, leaves
 * too), so ./types.ts (the chunk contract) derives its option types from it without a circle.
 *
 * Adding an option: one row here or in its strategy's own rows (in validation order: a row's checks may read the
 * rows above it), its name in the
 * `controls` of the strategies that use it, and the code that reads it. The page shows it in its group without more
 * (src/ui/panels/OptionFields.tsx, GroupFields); see there for the few controls drawn by hand.
 */

import { MAX_BUFFER, SEMANTIC_OPTION_ROWS } from './strategies/semantic/options';

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

/** What a row declares (./optionTable.ts's OptionSpec adds the behaviour). */
export interface OptionRow {
  name: string;
  /** kebab-case: the CLI flag (--flag) and the URL key. */
  flag: string;
  kind: OptionKind;
  /** The allowed values of a choice, when they are fixed. */
  choices?: readonly string[];
  /** A choice among what a registry holds (the strategies, the units, the retrievers): filled in by ./optionTable.ts. */
  choicesOf?: 'strategies' | 'units' | 'retrievers';
  /** The base default (a strategy's `defaults` may override it); null: not set (the `retriever` row: filled in). */
  default: unknown;
  /** The library takes null for it (ChunkOptions): "not set", the default, spelled out. */
  givenNull?: true;
  /** The smallest and largest value a number takes (checked when the row has no check of its own). */
  min?: number;
  max?: number;
  group: OptionGroup;
  /** One line for --help and the page's tooltip. */
  help: string;
  /** The CLI's value placeholder in --help (`<n>`, `<name>`); none for a switch. */
  arg?: string;
  /** Older spellings that still work: CLI flags and URL keys (see urlMigration in src/state). */
  aliases?: readonly string[];
  control?: ControlSpec;
  /** Document data, not configuration: never in a share link or the CLI's flags. */
  document?: true;
  /** An evaluation setting: a key of evaluate()'s options and of EvalSettings, a flag of `chunkscope eval` / `sweep`,
   * validated by validateEvalOptions (src/core/eval/options.ts). */
  eval?: true;
}

/** A row of an evaluation setting (the shared ones below, a retriever's own in its folder: retrievers/<name>/options.ts). */
export type EvalOptionRow = OptionRow & { group: 'eval'; eval: true };

/** Upper bounds that keep a typo from asking for absurd work (also the page's limits). */
export const MAX_WINDOW = 50;
export { MAX_BUFFER };

/**
 * The chunking options in validation order: an option's check may read the options before it (overlap reads size,
 * separators read language, amount reads breakpoint). The options key lists shaping options in this order too.
 */
export const ENGINE_OPTION_ROWS = [
  {
    name: 'strategy',
    flag: 'strategy',
    kind: 'choice',
    choicesOf: 'strategies',
    default: 'recursive',
    group: 'splitting',
    arg: '<name>',
    help: 'how boundaries are found',
    control: { kind: 'select', label: 'Strategy' },
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
  },
  {
    name: 'unit',
    flag: 'unit',
    kind: 'choice',
    choicesOf: 'units',
    default: 'chars',
    group: 'splitting',
    arg: '<name>',
    help: 'how size is counted: chars (UTF-16 code units), words, bytes (UTF-8), or a tiktoken encoding',
    control: { kind: 'select', label: 'Unit' },
  },
  {
    name: 'compat',
    flag: 'compat',
    kind: 'choice',
    choices: ['none', 'langchain', 'llamaindex', 'chonkie'],
    default: 'none',
    group: 'splitting',
    arg: '<mode>',
    help: 'reproduce a reference library exactly: langchain, llamaindex or chonkie (where the strategy has that mode)',
    control: { kind: 'select', label: 'Compatibility' },
  },
  {
    name: 'keepSeparator',
    flag: 'keep-separator',
    kind: 'choice',
    choices: ['start', 'end', 'none'],
    default: 'none',
    group: 'splitting',
    arg: '<where>',
    help: 'where a separator that was cut at goes: start (of the next piece), end (of the previous) or none',
    aliases: ['keep'],
    control: { kind: 'select', label: 'Keep separator' },
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
  },
  // The semantic strategy's options, declared in its folder (validated for every strategy when given, so a typo
  // never passes silently).
  ...SEMANTIC_OPTION_ROWS,
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
  },
  {
    name: 'headers',
    flag: 'headers',
    kind: 'template',
    default: null,
    givenNull: true,
    group: 'headers',
    arg: '[=<template>]',
    help: 'put a contextual header before each chunk\'s content: the heading path (alone), or a template with {title} {path} {file} (--headers="{title}: {path}\\n\\n"); it counts in the size',
    aliases: ['header-template', 'hdr'],
    control: { kind: 'text', label: 'Contextual header' },
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
  },
  {
    name: 'retrieval',
    flag: 'retrieval',
    kind: 'choice',
    choices: ['chunks', 'parent-child', 'window', 'hierarchical'],
    default: 'chunks',
    group: 'retrieval',
    arg: '<mode>',
    help: 'retrieval units: chunks | parent-child | window | hierarchical (implied by --parent-size, --window, --levels)',
    aliases: ['ret'],
    control: { kind: 'select', label: 'Retrieval units' },
  },
  {
    name: 'pageStarts',
    flag: 'page-starts',
    kind: 'offsets',
    default: null,
    group: 'document',
    help: 'where each page starts (from PDF import)',
    document: true,
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
  },
  {
    name: 'minFragment',
    flag: 'min-fragment',
    kind: 'integer',
    default: null,
    givenNull: true,
    group: 'structure',
    arg: '<n>',
    help: 'markdown/HTML: a text piece smaller than n (in the unit) merges with a neighbour in its section, or the cut before it moves back; whole tables and code blocks are left alone; default size/4, 0 keeps fragments',
    control: { kind: 'number', label: 'Min fragment', min: 0, unit: 'unit', placeholder: 'size / 4' },
  },
  {
    name: 'rawHtml',
    flag: 'raw-html',
    kind: 'boolean',
    default: false,
    group: 'structure',
    help: 'HTML: chunks\' content is the raw HTML of their span (default: the text with tags removed, as a pipeline indexes it)',
    control: { kind: 'checkbox', label: 'Keep raw HTML in content' },
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
  },
] as const satisfies readonly OptionRow[];

/** A chunking option's name. */
export type EngineOptionName = (typeof ENGINE_OPTION_ROWS)[number]['name'];

/** Document data (the document id, page starts): options of chunk() that are not configuration. */
export type DocumentOptionName = Extract<(typeof ENGINE_OPTION_ROWS)[number], { document: true }>['name'];

/** The fixed choices of a choice row, typed as its values (KEEP_SEPARATOR_VALUES, COMPAT_MODES, ... are these). */
export function rowChoices<N extends EngineOptionName>(name: N): Extract<(typeof ENGINE_OPTION_ROWS)[number], { name: N }> extends { choices: readonly (infer C)[] } ? C[] : never {
  const row = ENGINE_OPTION_ROWS.find((r) => r.name === name) as OptionRow | undefined;
  if (!row?.choices) throw new Error(`option "${name}" has no fixed choices`);
  return [...row.choices] as never;
}

/** The most chunks a question may retrieve. */
export const MAX_K = 1000;

/**
 * Page settings that are not chunking options (the context budget, projector mode) but round-trip like them (URL,
 * stored settings). k (`chunksInContext`) is also an evaluation setting: one k for the probe, the evaluation and the
 * budget.
 */
export const PAGE_OPTION_ROWS = [
  {
    name: 'contextWindow',
    flag: 'context-window',
    kind: 'integer',
    default: 8192,
    group: 'page',
    help: 'the context budget: the model\'s window in tokens',
    aliases: ['ctx'],
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
    eval: true,
    control: { kind: 'number', label: 'Chunks per query', min: 1, unit: 'chunks' },
  },
  {
    // How the page looks, not how it chunks: a link can open a workshop's projector view (projector=1).
    name: 'projector',
    flag: 'projector',
    kind: 'boolean',
    default: false,
    group: 'page',
    help: 'projector mode: larger type, breadcrumbs once per chunk, injected text collapsed, the similarity curve in bins',
  },
] as const satisfies readonly OptionRow[];

/**
 * The evaluation settings every retriever shares (how a question retrieves chunks: the query probe, `chunkscope eval`
 * and `sweep`). A retriever's own settings are rows in its folder (src/core/retrievers/<name>/options.ts), named by
 * its descriptor; ./optionTable.ts puts them after the `retriever` row. EvalSettings, EvalOptionName and the page's
 * Config are mapped from these rows and the registered retrievers' rows.
 */
export const RETRIEVER_OPTION_ROW = {
  name: 'retriever',
  flag: 'retriever',
  kind: 'choice',
  // The registered retrievers (src/core/retrievers/registry.ts), filled in by ./optionTable.ts: the choices, the
  // default (the registry's first line) and, after this help, each one's help line.
  choicesOf: 'retrievers',
  default: null,
  group: 'eval',
  arg: '<name>',
  help: 'how a question finds chunks',
  eval: true,
  control: { kind: 'select', label: 'Retriever' },
} as const satisfies EvalOptionRow;

const STOP_WORDS_ROW = {
  name: 'stopWords',
  flag: 'stop-words',
  kind: 'choice',
  choices: ['none', 'english'],
  default: 'none',
  group: 'eval',
  arg: '<list>',
  help: 'BM25: drop stop words from chunks and questions (english: the NLTK list)',
  eval: true,
  control: { kind: 'select', label: 'Stop words' },
} as const satisfies EvalOptionRow;

/** The lexical analyzer's rows (stop words, stemming), read by every retriever whose descriptor says `analyzer`. */
export const ANALYZER_OPTION_ROWS = [
  STOP_WORDS_ROW,
  {
    name: 'stemming',
    flag: 'stemming',
    kind: 'boolean',
    default: false,
    group: 'eval',
    help: 'BM25: reduce words to their Porter stems (English)',
    eval: true,
    control: { kind: 'checkbox', label: 'Stemming' },
  },
] as const satisfies readonly EvalOptionRow[];

export const STOP_WORD_LISTS = STOP_WORDS_ROW.choices;

/** A page setting's name. */
export type PageOptionName = (typeof PAGE_OPTION_ROWS)[number]['name'];
