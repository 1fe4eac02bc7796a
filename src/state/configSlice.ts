import type { StateCreator } from 'zustand';
import type { BreakpointMode, KeepSeparator, RetrievalMode, SentenceFinder, StrategyName, UnitName } from '../core/types';

/** Contextual header: none, the title and heading path (core's default template), or the user's own template. */
export type HeaderMode = 'off' | 'path' | 'custom';
export const HEADER_MODES: HeaderMode[] = ['off', 'path', 'custom'];
export const RETRIEVAL_MODES: RetrievalMode[] = ['chunks', 'parent-child', 'window', 'hierarchical'];
/** Grammars the code strategy offers besides detection from the file name. */
export const CODE_LANGUAGES = ['python', 'javascript', 'typescript', 'tsx', 'go', 'java', 'rust', 'c', 'cpp'] as const;

/** Every control of the configuration panel. These fields round-trip through the URL and localStorage. */
export interface Config {
  strategy: StrategyName;
  size: number;
  overlap: number;
  unit: UnitName;
  /** null: the strategy's (or language preset's) own separators. */
  separators: string[] | null;
  /** Separators are regular-expression sources (CLI --regex); core refuses them in LangChain compat mode. */
  separatorsAreRegex: boolean;
  /** null: the strategy's default. */
  keepSeparator: KeepSeparator | null;
  /** Recursive language preset, or null for none. */
  language: string | null;
  /** Sentence segmentation locale (BCP 47, e.g. "de", "ja"); null: the engine's default. */
  locale: string | null;
  /** LangChain compatibility mode. */
  compat: boolean;
  /** Context budget: window size (tokens) and how many chunks a query puts into it. */
  contextWindow: number;
  chunksInContext: number;
  // Semantic strategy (names follow the CLI flags)
  breakpoint: BreakpointMode;
  /** The mode's parameter (--threshold); null: the mode's default. For 'absolute' it is the distance. */
  amount: number | null;
  /** A target number of chunks (--chunks); null: use the threshold. */
  targetChunks: number | null;
  buffer: number;
  minSize: number | null;
  maxSize: number | null;
  /** 'builtin', a hub model id, or 'local/<folder>' for a folder the user picked. */
  embedder: string;
  sentences: SentenceFinder;
  /** LlamaIndex compatibility (semantic, markdown; LangChain's is `compat`). */
  llamaindex: boolean;
  // Structure-aware strategies (markdown, html, code)
  /** Split at headings of depth 1..headingDepth. */
  headingDepth: number;
  /** Table chunks as "column: value" lines. */
  rowsAsText: boolean;
  /** Markdown, LangChain compatibility: strip_headers and return_each_line. */
  stripHeaders: boolean;
  returnEachLine: boolean;
  /** Contextual header put before each chunk's content. */
  headerMode: HeaderMode;
  /** The user's template ({title}, {path}, {file}); used when headerMode is 'custom', kept otherwise. */
  headerTemplate: string;
  /** File path given by the user; null: the document's name. */
  path: string | null;
  /** Code strategy grammar; null: detect from the file path. */
  codeLanguage: string | null;
  // Retrieval units
  retrieval: RetrievalMode;
  /** Parent–child: parents' size in the unit; null: the engine's default (sections for structure strategies). */
  parentSize: number | null;
  /** Sentence windows: sentences on each side. */
  window: number;
  /** Hierarchical level sizes as typed ("2048, 512, 128"); parsed for the engine, which validates them. */
  levels: string;
}

export const DEFAULT_CONFIG: Config = {
  strategy: 'recursive',
  size: 512,
  overlap: 64,
  unit: 'chars',
  separators: null,
  separatorsAreRegex: false,
  keepSeparator: null,
  language: null,
  locale: null,
  compat: false,
  contextWindow: 8192,
  chunksInContext: 5,
  breakpoint: 'percentile',
  amount: null,
  targetChunks: null,
  buffer: 1,
  minSize: null,
  maxSize: null,
  embedder: 'builtin',
  sentences: 'intl',
  llamaindex: false,
  headingDepth: 3,
  rowsAsText: false,
  stripHeaders: true,
  returnEachLine: false,
  headerMode: 'off',
  headerTemplate: '',
  path: null,
  codeLanguage: null,
  retrieval: 'chunks',
  parentSize: null,
  window: 3,
  levels: '2048, 512, 128',
};

/** Config fields that may be null or a number. */
export const NULLABLE_NUMBERS = ['amount', 'targetChunks', 'minSize', 'maxSize', 'parentSize'] as const;

/** Config fields that may be null or a string. */
export const NULLABLE_STRINGS = ['keepSeparator', 'language', 'locale', 'path', 'codeLanguage'] as const;

export interface ConfigSlice {
  config: Config;
  setConfig: (patch: Partial<Config>) => void;
  resetConfig: () => void;
}

export const createConfigSlice: StateCreator<ConfigSlice, [], [], ConfigSlice> = (set) => ({
  config: DEFAULT_CONFIG,
  setConfig: (patch) => set((s) => ({ config: { ...s.config, ...patch } })),
  resetConfig: () => set({ config: DEFAULT_CONFIG }),
});
