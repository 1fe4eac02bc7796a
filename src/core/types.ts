/**
 * The chunk contract shared by every strategy, the worker, the page and the CLI.
 * Offsets are UTF-16 code-unit offsets into the source (the same offsets Monaco uses):
 * `chunk.text === source.slice(chunk.start, chunk.end)` always holds.
 */

export type UnitName = 'chars' | 'words' | TokenEncodingName;
export type TokenEncodingName = 'cl100k_base' | 'o200k_base' | 'p50k_base' | 'r50k_base' | 'gpt2';

import type { BreakpointMode } from './semantic/breakpoints';

export type { BreakpointMode };

export type StrategyName = 'fixed' | 'token' | 'character' | 'sentence' | 'paragraph' | 'recursive' | 'semantic';

/** Where a separator kept by the recursive/character splitters goes. */
export type KeepSeparator = 'start' | 'end' | 'none';

/** 'llamaindex' applies to the semantic strategy only. */
export type CompatMode = 'none' | 'langchain' | 'llamaindex';

/** How the semantic splitter finds sentences: Intl.Segmenter (any language) or LangChain's regex. */
export type SentenceFinder = 'intl' | 'regex';

export interface Range {
  start: number;
  end: number;
}

export interface ChunkMetadata {
  strategy: StrategyName;
  compat: CompatMode;
  /** True when the chunk exceeds `size` because one piece could not be split further. */
  oversize?: boolean;
  headingPath?: string[];
  contentType?: 'text' | 'table' | 'code';
  parentId?: string;
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

/** Options as a user (CLI flag, page control, library call) gives them; validated by `validateOptions`. */
export interface ChunkOptions {
  strategy?: StrategyName;
  size?: number;
  overlap?: number;
  unit?: UnitName;
  /** Separators for `character` (first one used) and `recursive` (hierarchy, coarsest first). */
  separators?: string[];
  /** Treat separators as regular expressions (guarded against catastrophic backtracking). */
  separatorsAreRegex?: boolean;
  keepSeparator?: KeepSeparator;
  /** Recursive language preset (markdown, python, ...). */
  language?: string;
  compat?: CompatMode;
  /** Used for stable chunk ids; defaults to a hash of the text. */
  documentId?: string;
  /** Sentence segmentation locale for Intl.Segmenter (default: 'en'). */
  locale?: string;
  /** Semantic: how a breakpoint is chosen (default percentile). */
  breakpoint?: BreakpointMode;
  /** Semantic: the mode's parameter (percentile 95, standard_deviation 3, interquartile 1.5, gradient 95; absolute: the distance). */
  amount?: number;
  /** Semantic: a target number of chunks (overrides amount). */
  chunks?: number;
  /** Semantic: neighbouring sentences on each side joined to a sentence before embedding (default 1). */
  buffer?: number;
  /** Semantic: groups smaller than this (in the unit) are merged with a neighbour. */
  minSize?: number;
  /** Semantic: groups larger than this (in the unit) are split further. */
  maxSize?: number;
  /** Semantic: 'builtin' (the static offline model, default) or a hub model id. Part of the chunk ids. */
  embedder?: string;
  /** Semantic: sentence finder (default intl; compat langchain always uses the regex). */
  sentences?: SentenceFinder;
}

/** Options after validation: every field present and checked. */
export interface ResolvedOptions {
  strategy: StrategyName;
  size: number;
  overlap: number;
  unit: UnitName;
  separators: string[];
  separatorsAreRegex: boolean;
  keepSeparator: KeepSeparator;
  language: string | null;
  compat: CompatMode;
  documentId: string | null;
  locale: string;
  // Semantic options: always set by validateOptions (null = not given); optional in the type so that options built
  // by hand for the other strategies stay valid.
  breakpoint?: BreakpointMode;
  amount?: number | null;
  chunks?: number | null;
  buffer?: number;
  minSize?: number | null;
  maxSize?: number | null;
  embedder?: string;
  sentences?: SentenceFinder;
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
  options: ResolvedOptions;
  onProgress?: ProgressFn;
  /** Checked between pieces of work; throwing aborts the run. */
  signal?: { aborted: boolean };
}
