/**
 * LanceDB for corpus runs (docs/distributed.md): the sink (`--to lancedb:DIR`), a corpus folder applied after the
 * fact (after `corpus merge`), and the index read back (`eval --index lancedb:DIR`). Not exported from the library's
 * entry (src/node/index.ts): importing it loads LanceDB's native binding, which only these commands need.
 */
export { openLanceSink, LanceSinkError, type LanceSink, type LanceSinkOptions, type LanceApplyResult } from './sink';
export { applyOutputFolder } from './applyOutput';
export { openLanceTarget, asCorpusSink, recordsOf, type LanceTargetOptions, type CorpusRunInfo } from './target';
export { readLanceIndex, evaluateLanceIndex, indexedDocumentsFromLance, matchDocumentId, LanceIndexError, type LanceIndexRow } from './readIndex';
export { EmbeddingCache } from './embeddingCache';
export { DEFAULT_TABLE, parseLanceTarget } from './table';
