/** The semantic splitter: sentences → strings to embed → distances → chunks for a threshold (see splitter.ts). */
export {
  prepareSemantic,
  analyseSemantic,
  splitSemantic,
  chunkSemantic,
  type EmbedFn,
  SEMANTIC_COMPAT_MODES,
  type SemanticCompat,
  type PrepareOptions,
  type SemanticPreparation,
  type SemanticAnalysis,
  type SemanticParams,
  type SemanticSpan,
  type SemanticResult,
} from './splitter';
export { BREAKPOINT_MODES, BREAKPOINT_DEFAULTS, type BreakpointMode } from './breakpoints';
export { semanticSentences, langchainSentences, type SentenceShape } from './sentences';
export { embeddingInputs, type EmbeddingInputs, type WindowJoin } from './buffer';
export { cosineDistances, type Vector } from './distances';
