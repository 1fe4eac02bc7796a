/**
 * The chunk contract shared by every strategy, the worker, the page and the CLI.
 * Offsets are UTF-16 code-unit offsets into the source (the same offsets Monaco uses):
 * `chunk.text === source.slice(chunk.start, chunk.end)` always holds.
 *
 * Near a leaf: it imports only the option rows' types (./optionRows.ts, which imports nothing), so every layer
 * (strategies, the registry, the engine, the page) can depend on it without an import circle (`npm run lint`
 * refuses circles across folders).
 */

export type UnitName = 'chars' | 'words' | 'bytes' | TokenEncodingName;
export type TokenEncodingName = 'cl100k_base' | 'o200k_base' | 'p50k_base' | 'r50k_base' | 'gpt2';

import type { ENGINE_OPTION_ROWS, EngineOptionName } from './optionRows';

export type { EngineOptionName };

/**
 * The registered strategies' ids, one key each. The registry (src/core/strategies/index.ts) fills this in by
 * declaration merging (`interface StrategyIds extends Record<StrategyId, true>`), so this module needs no import of
 * the registry, which sits above it, and adding a strategy stays one folder plus one registry line.
 */
export interface StrategyIds {}
export type StrategyName = keyof StrategyIds & string;

/** What a chunk holds: prose, one table (or a row group of one), or code. */
export type ContentType = 'text' | 'table' | 'code';

// ---------------------------------------------------------------------------------------------------------------
// Options: mapped from their rows in ./optionRows.ts (names, kinds, choices, defaults); the help text is there too.

type OptionRowOf<N extends EngineOptionName> = Extract<(typeof ENGINE_OPTION_ROWS)[number], { name: N }>;

/** The values a choice row allows. */
type ChoiceOf<N extends EngineOptionName> = OptionRowOf<N> extends { choices: readonly (infer C)[] } ? C : never;

/** A row's value after validation, by its kind (null where the row's default is null: not set). A choice among the
 * retrievers is mapped where the registry is known (src/core/eval/options.ts). */
export type OptionValue<R> =
  | (R extends { choicesOf: 'strategies' }
      ? StrategyName
      : R extends { choicesOf: 'units' }
        ? UnitName
        : R extends { choices: readonly (infer C)[] }
          ? C
          : R extends { kind: 'integer' | 'number' }
            ? number
            : R extends { kind: 'boolean' }
              ? boolean
              : R extends { kind: 'string' | 'template' }
                ? string
                : R extends { kind: 'strings' }
                  ? string[]
                  : R extends { kind: 'integers' | 'offsets' }
                    ? number[]
                    : never)
  | (R extends { default: null } ? null : never);

/** The values of some rows, keyed by their names (a retriever's own settings, the analyzer's). */
export type RowValues<Rows extends readonly { name: string }[]> = { [R in Rows[number] as R['name']]: OptionValue<R> };

/** What a caller may give: the value (null only where the row says `givenNull`: "not set" spelled out); a template
 * also takes true (the default template) or false. */
type GivenOf<R> = NonNullable<OptionValue<R>> | (R extends { givenNull: true } ? null : never) | (R extends { kind: 'template' } ? boolean : never);

/** Options as a user (CLI flag, page control, library call) gives them; validated by `validateOptions`. Each
 * option's meaning is its row's `help` in src/core/optionTable.ts (ENGINE_OPTION_ROWS in ./optionRows.ts). */
export type ChunkOptions = { [N in EngineOptionName]?: GivenOf<OptionRowOf<N>> };

/** Options resolved for every run that hand-built options (tests, the worker's re-split) must still give: the
 * splitting group and the document id. The others are optional in the type only: validateOptions sets them all. */
type AlwaysResolvedName = Extract<(typeof ENGINE_OPTION_ROWS)[number], { group: 'splitting' }>['name'] | 'documentId';

/** Options after validation: every field present and checked (null = not set). */
export type ResolvedOptions = { [N in AlwaysResolvedName]: OptionValue<OptionRowOf<N>> } & {
  [N in Exclude<EngineOptionName, AlwaysResolvedName>]?: OptionValue<OptionRowOf<N>>;
};

/** Where a separator kept by the recursive/character splitters goes. */
export type KeepSeparator = ChoiceOf<'keepSeparator'>;
/** Which strategies implement a mode is their descriptions' `compat` lists ('chonkie': recursive, token, sentence). */
export type CompatMode = ChoiceOf<'compat'>;
/** How the semantic splitter finds sentences: Intl.Segmenter (any language) or LangChain's regex. */
export type SentenceFinder = ChoiceOf<'sentences'>;
/** How the semantic splitter chooses a breakpoint (LangChain's breakpoint_threshold_type, plus 'absolute'). */
export type BreakpointMode = ChoiceOf<'breakpoint'>;

/**
 * Retrieval units built on top of a strategy's chunks (src/core/patterns):
 * - 'chunks': the strategy's chunks as they are;
 * - 'parent-child': parents (sections for markdown/html, else blocks of `parentSize` units) with the strategy's
 *   chunks cut inside each parent as children (small-to-big retrieval);
 * - 'window': one chunk per sentence, each carrying a window of `window` sentences on each side (never crossing a
 *   section boundary) in `metadata.window`;
 * - 'hierarchical': nested levels of sizes `levels` (largest first, e.g. 2048/512/128 as in LlamaIndex's
 *   HierarchicalNodeParser), each level cut inside the one above.
 */
export type RetrievalMode = ChoiceOf<'retrieval'>;

export interface Range {
  start: number;
  end: number;
}

/**
 * One level of a boundary hierarchy: the pieces of source[start, end), in order (e.g. paragraphs, sentences). The
 * grapheme level also gives them as offset arrays (`offsets`), which the packer takes for chars and words: a long
 * line without spaces is a million clusters, and a million objects cost more than packing them.
 */
export type Level = ((start: number, end: number) => Range[]) & { offsets?: (start: number, end: number) => PieceOffsets };

/** Ranges as parallel offset arrays, pieces [0, length): no object per piece (a long run has millions). */
export interface PieceOffsets {
  starts: Int32Array;
  ends: Int32Array;
  length: number;
  /** True only when no piece begins or ends with whitespace (then each piece is its own trimmed content span). */
  edgesAreContent?: boolean;
  /** When known: no piece is longer than this (in code units). */
  longest?: number;
}

export interface ChunkMetadata {
  strategy: StrategyName;
  compat: CompatMode;
  /** True when the chunk exceeds `size` because one piece could not be split further. */
  oversize?: boolean;
  /** The document's id (given, or a hash of the text). */
  documentId?: string;
  /** Order of the chunk among the chunks of its level (0-based; equal to `index` without retrieval units). */
  position?: number;
  /** Ancestor heading titles at the chunk's first non-blank character, outermost first (title heading included);
   * [] before the first heading. Set by the structure-aware strategies. */
  headingPath?: string[];
  contentType?: ContentType;
  /** Table chunks: the table's caption, when it has one. */
  caption?: string;
  /** Retrieval units: the id of the enclosing chunk one level up. */
  parentId?: string;
  /** Retrieval units: 0 for the outermost level; leaves have the largest level. */
  level?: number;
  /** Retrieval units: true for the chunks a pipeline embeds (children, the smallest level, the sentences). */
  leaf?: boolean;
  /** Sentence windows: the window's source span; its text is source.slice(window.start, window.end). */
  window?: Range;
  /** 1-based page numbers the chunk's span touches, when the document has pages (PDF import). */
  pages?: number[];
  /** Code: the grammar name (python, typescript, ...); otherwise the document's locale. */
  language?: string;
  /** Text put before the span's own content (the contextual header, a table's repeated header row): `content`
   * starts with it. The page draws it as injected text. */
  prefix?: string;
  /** Size of `prefix` in the unit (part of `size`). */
  prefixSize?: number;
  /** The producer, so exported chunks say how they were made. */
  chunker?: string;
  chunkerVersion?: string;
  [key: string]: unknown;
}

export interface Chunk {
  index: number;
  start: number;
  end: number;
  /** Exactly `source.slice(start, end)`. */
  text: string;
  /** What a pipeline would index: `text` plus anything injected. Equal to `text` for the classic splitters. */
  content: string;
  /** Size of `content` in the chosen unit. */
  size: number;
  /** Stable id from document id, configuration and span. */
  id: string;
  metadata: ChunkMetadata;
}

/** How the size of a piece of text is measured. Implementations cache; `count` must be pure. */
export interface Unit {
  name: UnitName;
  /** Size of `text` in this unit. */
  count(text: string): number;
  /** Token units only: the token boundaries of `text` as UTF-16 offsets (for token-window splitting). */
  tokenize?(text: string): TokenSpan[];
}

export interface TokenSpan {
  start: number;
  end: number;
  ids: number[];
}

/** Progress callback for long runs (0..1). */
export type ProgressFn = (fraction: number) => void;

/** Embeds texts (never blank) into one vector each, in order: supplied by the caller (worker, CLI), never by core. */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

export interface ChunkContext {
  unit: Unit;
  /** Required by the semantic strategy. */
  embed?: EmbedTexts;
  /** Why a result may surprise (one sentence, gaps without a distance ...): one line each. */
  onNote?: (message: string) => void;
  /** What the strategy can tell besides its chunks, for a page to draw (see ChunkDetail). */
  onDetail?: (detail: ChunkDetail) => void;
  options: ResolvedOptions;
  onProgress?: ProgressFn;
  /** Checked between pieces of work; throwing aborts the run. */
  signal?: { aborted: boolean };
  /** Code strategy: the bytes of a wasm file by name ('web-tree-sitter.wasm', 'tree-sitter-python.wasm', ...).
   * Supplied by the host (Node reads node_modules, the worker fetches bundled assets); never from a network. */
  loadWasm?: LoadWasm;
}

export type LoadWasm = (name: string) => Promise<Uint8Array>;

/** What a strategy reports besides its chunks, through `hooks.onDetail` (one call per run, before chunk() returns). */
export interface ChunkDetail {
  semantic?: SemanticDetail;
}

/**
 * The semantic strategy's analysis for one run: the similarity curve and where it cut. The arrays may be shared with
 * the engine's document cache: copy them before transferring or changing them.
 */
export interface SemanticDetail {
  /** 1 − cosine at every sentence gap (NaN where there is none). */
  distances: Float64Array;
  /** The values the threshold was compared with (the distances, or their gradient). */
  values: Float64Array;
  comparedWith: 'distance' | 'gradient';
  /** In the compared values' scale (NaN when nothing was compared). */
  threshold: number;
  /** Gaps cut on semantic grounds, ascending; gap i lies between sentence i and i + 1. */
  breakpoints: number[];
  sentences: readonly Range[];
  notes: string[];
  /** Texts embedded for the analysis this run used, and how long embedding them took (ms; from the document cache
   * on a re-split, where nothing is embedded again). */
  embedded: number;
  embedMs: number;
  /** This run's re-split (ms). */
  splitMs: number;
  /** True when sentences and distances came from the document cache (nothing prepared or embedded this run). */
  cached: boolean;
}
