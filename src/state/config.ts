import type { EvalOptionName, OptionName, RetrieverName } from '../core/describe';
import type { BreakpointMode, CompatMode, KeepSeparator, RetrievalMode, SentenceFinder, StrategyName, UnitName } from '../core/types';

// Types only: the config slice (./configSlice.ts) and the strategy switch (./strategySwitch.ts, ./strategyInfo.ts)
// both need them, and neither may import the other for them (`npm run lint` refuses import circles).

/**
 * The page's configuration: one field per option of the core option table (src/core/optionTable.ts), under the
 * table's own name (the library key, the stored-settings key; its kebab-case flag is the URL key). Document data
 * (documentId, pageStarts) is not configuration and lives with the document. The fields round-trip through the
 * URL (urlCodec.ts) and localStorage (persistence.ts); what the worker receives is toChunkOptions (chunkOptions.ts).
 *
 * `null` in a field means "not set: the strategy's (or the engine's) default" — see PAGE_UNSET below.
 */
export interface Config {
  strategy: StrategyName;
  size: number;
  overlap: number;
  unit: UnitName;
  /** The compatibility mode (only a mode the strategy lists in its description's `compat` is sent). */
  compat: CompatMode;
  /** null: the strategy's default (recursive: start; character: none). */
  keepSeparator: KeepSeparator | null;
  /** What the strategy's description says it is: a recursive separator preset, or (a strategy with its own
   * `language` choice, e.g. code) the grammar; null: none / detected from the path. */
  language: string | null;
  /** Separators are regular-expression sources; never sent in a compat mode (LangChain splits on literals). */
  separatorsAreRegex: boolean;
  /** null: the strategy's (or language preset's) own separators. */
  separators: string[] | null;
  /** Sentence segmentation locale (BCP 47); null: the engine's default. */
  locale: string | null;
  // Semantic
  breakpoint: BreakpointMode;
  /** The mode's amount; null: the mode's default. For 'absolute' it is the distance. */
  amount: number | null;
  /** A target number of chunks; null: use the amount. */
  chunks: number | null;
  buffer: number;
  minSize: number | null;
  maxSize: number | null;
  /** 'builtin', a hub model id, or 'local/<folder>' for a folder the user picked (never in a link). */
  embedder: string;
  sentences: SentenceFinder;
  // Structure-aware strategies, contextual headers, retrieval units
  headingDepth: number;
  /** Contextual header: null (off), true (the default template: title and heading path) or the user's template
   * as typed (\n, \t written as escapes in the one-line box). */
  headers: null | true | string;
  /** A path the user typed; null: the document's name. */
  path: string | null;
  /** Parent–child: parents' size in the unit; null: the engine's default (sections for structure strategies). */
  parentSize: number | null;
  window: number;
  /** Hierarchical level sizes as typed ("2048, 512, 128"); parsed for the engine, which validates them. */
  levels: string;
  retrieval: RetrievalMode;
  rowsAsText: boolean;
  /** Markdown/HTML: text pieces smaller than this (in the unit) join a neighbour; null: size / 4; 0: off. */
  minFragment: number | null;
  /** HTML: chunks' content is the raw HTML (default: the text, tags removed). */
  rawHtml: boolean;
  /** LangChain markdown compatibility: strip_headers and return_each_line. */
  stripHeaders: boolean;
  returnEachLine: boolean;
  // Page settings: the context budget.
  contextWindow: number;
  /** k: the query probe's, the evaluation's and the context budget's chunks per query. */
  chunksInContext: number;
  /** Projector mode: larger type and fewer simultaneous marks (a page setting; `projector=1` in a link). */
  projector: boolean;
  // Evaluation lab (the option table's `eval` rows): how a question retrieves chunks. Never chunk options.
  retriever: RetrieverName;
  /** Hybrid: the dense ranking's weight in the fusion (BM25's is 1 - w). */
  hybridWeight: number;
  stopWords: 'none' | 'english';
  stemming: boolean;
}

/** The options the page holds: every option of the table but document data. */
export type ConfigName = Exclude<OptionName, 'documentId' | 'pageStarts'> | EvalOptionName;

// The compiler holds Config to the table: a field under another name, or an option without a field, fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const configKeysAreTableNames: Same<keyof Config, ConfigName> = true;
void configKeysAreTableNames;
