/**
 * The public API of the Chunkscope engine: the same functions run in the Web Worker, the CLI and the library.
 */
export { chunk, buildChunks, pagesOf, optionsKey, type ChunkHooks } from './chunk';

// Everything the page's main thread may use (descriptions, the option table, validation, stats, formats, the
// evaluation lab's pure parts), then what only the worker, the CLI and the library need.
export * from './describe';
export { renderHeader, PATH_JOINER } from './headers';
export { semanticPrepareOptions, semanticSplitParams } from './strategies/semantic/split';
export { prepareSemantic, analyseSemantic, splitSemantic, type SemanticPreparation, type SemanticAnalysis, type SemanticParams, type SemanticResult, type SemanticSpan } from './semantic';
export { loadStrategy } from './strategies';
export { getUnit } from './units';
export type { StrategyImplementation, LoadedStrategy } from './registry';
// The evaluation lab: retrievers (BM25, dense, hybrid) and golden-set evaluation (src/core/eval, src/core/retrievers).
export * from './eval';
