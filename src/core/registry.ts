import type { ChunkContext, CompatMode, ContentType, Range, ResolvedOptions, StrategyName } from './types';

/**
 * One splitter = one file in ./splitters exporting a StrategyDefinition. The page builds its controls from
 * `controls`, so adding a strategy touches its file plus one line in STRATEGIES below.
 */

export type ControlName =
  | 'size'
  | 'overlap'
  | 'unit'
  | 'separators'
  | 'keepSeparator'
  | 'language'
  | 'compat'
  | 'locale'
  // semantic
  | 'breakpoint'
  | 'amount'
  | 'chunks'
  | 'buffer'
  | 'minSize'
  | 'maxSize'
  | 'embedder'
  | 'sentences'
  // structure
  | 'headingDepth'
  | 'rowsAsText'
  | 'stripHeaders'
  | 'returnEachLine'
  | 'headers'
  | 'path'
  | 'retrieval';

/**
 * A span found by a splitter. `oversize` marks a single unsplittable piece larger than `size`. `content` is set
 * only when what a pipeline would index differs from `source.slice(start, end)` (compat quirks, injected text).
 */
export interface SplitSpan extends Range {
  oversize?: boolean;
  content?: string;
  /** Semantic: the distance at the sentence gap this chunk starts after (NaN or absent when none). */
  distanceBefore?: number;
  /** Structure-aware strategies: ancestor heading titles at the first non-blank character (outermost first). */
  headingPath?: string[];
  contentType?: ContentType;
  caption?: string;
  /** Code: the enclosing signature(s) used in the content prefix. */
  signature?: string;
  /** Text put before the span's content (content starts with it); see ChunkMetadata.prefix. */
  prefix?: string;
  /** Extra metadata a compat mode reproduces (LangChain's "Header 1" keys, LlamaIndex's header_path). */
  metadata?: Record<string, unknown>;
  // Retrieval units (src/core/retrieval): nesting level, index of the parent span in the same list, leaf flag and
  // a sentence window's span.
  level?: number;
  parent?: number | null;
  leaf?: boolean;
  window?: Range;
}

export interface StrategyDefinition {
  id: StrategyName;
  label: string;
  /** One sentence shown in the page and in `--help`. */
  description: string;
  /** Defaults applied before the user's options. */
  defaults: Partial<ResolvedOptions>;
  /** Controls that matter for this strategy (others are hidden in the page and ignored). */
  controls: ControlName[];
  /** Compatibility modes this strategy implements besides the native one. */
  compat: CompatMode[];
  /** Pure: the chunk spans of `text`, in order. May be async (token units load lazily). */
  split(text: string, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
  /** Structure-aware strategies (markdown, html, code): the document's sections and heading ancestry, used by the
   * retrieval units (parents = sections; sentence windows stop at section boundaries) and by contextual headers. */
  structure?(text: string, ctx: ChunkContext): DocumentStructure | Promise<DocumentStructure>;
  /** Optional: split only `range` of the whole text (parent–child children), using the whole document's structure. */
  splitRange?(text: string, range: Range, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
}

/** A strategy that can split part of a document in the context of the whole (see StrategyDefinition.splitRange). */
export type RangeSplitter = Required<Pick<StrategyDefinition, 'splitRange'>>;

/** A section: from a heading (of depth <= headingDepth) to the next one; the text before the first is a section too. */
export interface StructureSection extends Range {
  headingPath: string[];
}

export interface DocumentStructure {
  /** In order, covering the document without gaps. */
  sections: StructureSection[];
  /** Ancestor heading titles at `offset` (all depths), outermost first; [] before the first heading. */
  headingPathAt(offset: number): string[];
  /** The document's title (its first level-1 heading, <title>, or the file name), when it has one. */
  title?: string;
}
