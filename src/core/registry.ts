import type { DocumentOptionName } from './optionRows';
import type { ChunkContext, CompatMode, ContentType, EngineOptionName, Range, ResolvedOptions, RetrievalMode, StrategyName, UnitName } from './types';

/**
 * The strategy contract (types only; the registry itself is ./strategies/index.ts). A strategy is one folder in
 * ./strategies: `index.ts` describes it (safe on the page's main thread: no parser is imported) and `split.ts`
 * implements it (loaded on demand, in the worker or Node). ./strategies/index.ts lists them, one line each.
 * Everything that depends on which strategy is chosen is a field here, never a comparison of strategy names
 * elsewhere.
 *
 * A leaf like ./types.ts: it imports nothing but types.ts and the option rows, so the strategies, the registry
 * above them, the option table and the engine all depend on it without an import circle (`npm run lint` refuses
 * circles across folders).
 */

/** The options a strategy's controls may list: every chunking option but the strategy itself and document data
 * (mapped from the option rows, src/core/optionRows.ts). */
export type ControlName = Exclude<EngineOptionName, 'strategy' | DocumentOptionName>;

/** What the `language` option means for a strategy when it is not a recursive separator preset. */
export interface LanguageChoice {
  /** The canonical name for a name or alias the user gave, or null when unknown. */
  resolve(name: string): string | null;
  /** Named in the one-line error for an unknown one. */
  names: readonly string[];
  /** "code language", shown in the error and the page. */
  noun: string;
  /** The language when none is given (e.g. detected from the file path), for metadata.language. */
  detect?(options: ResolvedOptions): string | null;
}

export interface StrategyDescription<Id extends string = StrategyName> {
  id: Id;
  label: string;
  /** One sentence shown in the page and in `--help`. */
  description: string;
  /** Defaults applied before the user's options. */
  defaults: Partial<ResolvedOptions>;
  /** Options that matter for this strategy (others are hidden in the page and ignored). */
  controls: ControlName[];
  /** Compatibility modes this strategy implements besides the native one. */
  compat: CompatMode[];
  /** What the compat modes reproduce, one line under the page's compatibility checkboxes (default: the
   * @langchain/textsplitters line). */
  compatNote?: string;
  /** What changes under a compat mode (the reference library's defaults, what it cannot take): see CompatProfile. */
  compatProfiles?: Partial<Record<CompatMode, CompatProfile>>;
  /** The breadcrumb shown for a chunk outside every section (default: "(before the first heading)"). */
  outsideSectionsLabel?: string;
  /** Document formats (src/import's ImportFormat) for which opening such a file switches to this strategy. */
  documentFormats?: readonly string[];
  /** The implementation has structure(): sections and heading ancestry (parents default to sections). */
  hasSections?: boolean;
  /** Options the strategy refuses outright, with the one-line reason (semantic: size and overlap). */
  refuses?: Partial<Record<ControlName, string>>;
  /** The unit must be a tokenizer (token windows). */
  tokenUnitOnly?: boolean;
  /** At least one separator is needed (character, recursive). */
  needsSeparators?: boolean;
  /** `language` is this strategy's own choice (code: a grammar) rather than a separator preset. */
  language?: LanguageChoice;
  /** chunk() needs hooks.embed (semantic). */
  needsEmbeddings?: boolean;
  /** Its LangChain mode reproduces @langchain/textsplitters (character, recursive, token): LangChain JS's limits
   * apply (its language presets, no keepSeparator 'end', literal separators). */
  langchainTextSplitter?: boolean;
  /** Its separators are a hierarchy, coarsest first: retrieval units cut parent blocks with them too. */
  separatorHierarchy?: boolean;
  /** Chunks have no `size` limit under these options (only maxSize, when given, makes one oversize). */
  unsized?(options: ResolvedOptions): boolean;
  /** "Copy as code": a program per target library (./strategies/<id>/copyAsCode.ts), behind a dynamic import so the
   * first paint (page and worker) loads none of them: `() => import('./copyAsCode').then((m) => m.recipes)`. */
  copyAsCode(): Promise<CopyAsCodeRecipes>;
  /** Retrieval modes the strategy refuses, with the reason (sentence windows need prose). */
  refusesRetrieval?: Partial<Record<RetrievalMode, string>>;
}

/**
 * A strategy under one compat mode, where the reference library differs from the strategy's own rules. validateOptions
 * applies it when that mode is asked for: `defaults` go over the strategy's defaults (the library's chunk size and
 * overlap when the user gives none), `refuses` over its refusals, and `units` replaces `tokenUnitOnly`.
 */
export interface CompatProfile {
  defaults?: Partial<ResolvedOptions>;
  /** Options the mode refuses when given, with the one-line reason. */
  refuses?: Partial<Record<ControlName, string>>;
  /** The units the mode counts in, and the one-line reason for the others. */
  units?: { allowed: readonly UnitName[]; reason: string };
  /** The library's default overlap applies at any size it is smaller than (LlamaIndex's SentenceSplitter: 200 with
   * `--size 512`), instead of being lowered to size/8 as Chunkscope's own default is. */
  keepsDefaultOverlap?: boolean;
  /** Retrieval modes the compat mode reproduces (the library's own parser for them; the others are refused): the
   * strategy's implementation then cuts the units itself (StrategyImplementation.compatUnits). */
  retrieval?: Partial<Record<RetrievalMode, CompatRetrieval>>;
}

/** A retrieval mode reproduced by a compat mode (LlamaIndex's SentenceWindowNodeParser for `window`, ...). */
export interface CompatRetrieval {
  /** The library's parser, named in messages. */
  reproduces: string;
  /** Defaults under this retrieval mode, over the profile's (HierarchicalNodeParser's overlap 20). */
  defaults?: Partial<ResolvedOptions>;
  /** The library's own rules between options; throws ChunkOptionsError. */
  check?(options: ResolvedOptions): void;
}

/** The libraries "Copy as code" writes programs for (src/core/export). */
export type CodeTarget = 'langchain-js' | 'langchain-python' | 'llamaindex' | 'llamaindex-ts' | 'chonkie' | 'chonkie-ts';

/**
 * What a "Copy as code" program is written from: the resolved options and their strategy's description (its
 * refusals, language detection, controls and exact targets). codeFor (src/core/export/copyAsCode.ts) looks the
 * description up and passes it in, so the program builders, which the strategies' recipes call, need no registry.
 */
export interface ProgramOptions extends ResolvedOptions {
  readonly described: StrategyDescription;
  /** The strategy's recipes, loaded (loadCopyAsCode). */
  readonly recipes: CopyAsCodeRecipes;
}

/** A strategy's programs, one per target, and the targets that reproduce chunk() exactly in a compat mode. */
export interface CopyAsCodeRecipes {
  /** target → the compat mode under which its program gives exactly Chunkscope's chunks. */
  exact?: Partial<Record<CodeTarget, CompatMode>>;
  'langchain-js'(o: ProgramOptions): string;
  'langchain-python'(o: ProgramOptions): string;
  llamaindex(o: ProgramOptions): string;
  chonkie(o: ProgramOptions): string;
  /** Chonkie's TypeScript package (@chonkiejs/core), where it has an equivalent of the strategy. */
  'chonkie-ts'?(o: ProgramOptions): string;
  /** LlamaIndex's TypeScript package (@llamaindex/core), where it has an equivalent of the strategy. */
  'llamaindex-ts'?(o: ProgramOptions): string;
}

/** The worker-only half of a strategy (./strategies/<id>/split.ts). */
export interface StrategyImplementation {
  /** Pure: the chunk spans of `text`, in order. May be async (token units load lazily). */
  split(text: string, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
  /** Structure-aware strategies (markdown, html, code): the document's sections and heading ancestry, used by the
   * retrieval units (parents = sections; sentence windows stop at section boundaries) and by contextual headers. */
  structure?(text: string, ctx: ChunkContext): DocumentStructure | Promise<DocumentStructure>;
  /** Optional: split only `range` of the whole text (parent–child children), using the whole document's structure. */
  splitRange?(text: string, range: Range, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
  /** Under a compat mode whose profile reproduces `ctx.options.retrieval` (CompatProfile.retrieval): the retrieval
   * units as the library makes them, each with level, parent (an earlier index) and leaf set. */
  compatUnits?(text: string, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
}

/** A registry entry: the description and how to load the implementation (a dynamic import, so bundles split). */
export interface Strategy<Id extends string = StrategyName> extends StrategyDescription<Id> {
  load(): Promise<StrategyImplementation>;
}

/** A strategy with its implementation loaded: what chunk() and the retrieval units work with. */
export type LoadedStrategy = StrategyDescription & StrategyImplementation;

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
  // Retrieval units (src/core/patterns): nesting level, index of the parent span in the same list, leaf flag and
  // a sentence window's span.
  level?: number;
  parent?: number | null;
  leaf?: boolean;
  window?: Range;
}

/** A strategy that can split part of a document in the context of the whole (see StrategyImplementation.splitRange). */
export type RangeSplitter = Required<Pick<StrategyImplementation, 'splitRange'>>;

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
