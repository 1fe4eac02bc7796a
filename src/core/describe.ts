/**
 * The engine's main-thread surface in one import: the strategies' descriptions, the option table and its
 * validation, and the small pure helpers the page paints with. No splitter, parser or grammar is reachable from
 * here (`npm run lint` checks it); chunking itself runs in the worker. The first screen's modules import from the
 * defining modules instead, so that what only the lab, the editor and other lazy parts need stays out of the app
 * chunk (docs/first-visit.md); those lazy parts use this barrel.
 */
export {
  validateOptions,
  ChunkOptionsError,
  BASE_DEFAULTS,
  KEEP_SEPARATOR_VALUES,
  COMPAT_MODES,
  SENTENCE_FINDERS,
  RETRIEVAL_MODES,
  DEFAULT_HEADER_TEMPLATE,
  HEADER_PLACEHOLDERS,
} from './options';
export {
  OPTION_TABLE,
  ENGINE_OPTIONS,
  optionSpec,
  optionByFlag,
  appliesTo,
  type OptionSpec,
  type OptionName,
  type PageOptionName,
  type OptionKind,
  type ControlSpec,
  type OptionGroup,
} from './optionTable';
export { STRATEGIES, STRATEGY_NAMES, getStrategy, strategiesWithCompat } from './strategies';
export { LANGUAGE_PRESETS, LANGUAGE_NAMES, LANGCHAIN_JS_LANGUAGES } from './languages';
export { UNIT_NAMES, isTokenEncoding, TOKEN_ENCODINGS } from './units';
export { BREAKPOINT_MODES, BREAKPOINT_DEFAULTS } from './semantic/breakpoints';
export { chunkOverlaps, chunkStats, type ChunkStats } from './stats';
export { documentIdFor, hashString } from './ids';
export { checkSeparatorRegex } from './separator-regex';
export { formatChunks, EXPORT_FORMATS, type ExportFormat } from './format';
export { CHUNKER_NAME, CHUNKER_VERSION } from './version';
export type { Strategy, StrategyDescription, ControlName, SplitSpan } from './registry';
// The evaluation lab's pure parts (no chunking): metrics, golden-set formats, re-anchoring, failure reasons, orphan
// chunks, the evaluation settings and the retrievers (a probe may rank on the main thread or in the worker).
export { EVAL_OPTIONS, RETRIEVERS, STOP_WORD_LISTS, MAX_K, type EvalOptionName } from './optionTable';
export * from './eval/types';
export { mergeRanges, totalLength, intersectionLength, bearsAnswer, retrievalMetrics, precisionOmega, questionMetrics, meanMetrics } from './eval/metrics';
export { parseGoldenSet, formatGoldenSet, corpusIdForDocument, detectGoldenFormat, GoldenSetError, GOLDEN_FORMATS, type GoldenFormat } from './eval/golden';
export { anchorReference, anchorReferences, nearestOccurrence, type AnchorStatus, type AnchoredReference } from './eval/anchor';
export { explainQuestion, tableWithoutHeader, ordinal, type Failure, type FailureKind, type ExplainInput, type ExplainUnit } from './eval/failures';
export { validateEvalOptions, type EvalSettings, type EvalOptions } from './eval/options';
export { documentForCorpus } from './eval/corpusMatch';
export { setAsideSummary, someNames, plural, spreadOf } from './eval/corpora';
export { orphanChunks, orphanBits, orphanEdgesKnown, isHeadingOnly, ORPHAN_STARTS_MID, ORPHAN_ENDS_MID, ORPHAN_HEADING, type OrphanFlags } from './eval/orphans';
export * from './retrievers';
export type * from './types';
export { lowerBound, upperBound } from './sorted';
