/** The corpus pipeline's library surface (docs/corpus.md). */
export { chunkCorpus, type ChunkCorpusOptions } from './library';
export { runCorpus, type CorpusRunOptions, type CorpusProgress, type CorpusSummary } from './run';
export { mergeShards, type MergeSummary } from './merge';
export { shardOf } from './config';
export type { CorpusManifest, ManifestDocument } from './manifest';
export type { CorpusSink, CorpusSinkInfo } from './sink';
export type { CorpusChunkRecord, CorpusChanges } from './record';
