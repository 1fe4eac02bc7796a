/**
 * Where a corpus run's chunks go besides its files: a vector store (LanceDB, src/node/lancedb) or a user's own
 * index. A run calls `apply` once, after its output files are written and before they are committed (renamed into
 * place), so a sink that fails leaves the previous run's files in place and the next run applies the same changes
 * again: a sink must be idempotent (upsert by chunkId, delete by chunkId).
 */
import type { CorpusChanges, CorpusChunkRecord } from './record';

export interface CorpusSinkInfo {
  /** The output folder of the run. */
  outDir: string;
  /** Hash of the versioned configuration every record carries. */
  configHash: string;
  /** Which shard this run is (0-based index of count), or null for a whole-corpus run. */
  shard: { index: number; count: number } | null;
  /** Why every document was re-chunked (configuration or engine changed, no previous run), or null when incremental. */
  rebuildReason: string | null;
}

export interface CorpusSink {
  /**
   * Apply one run to the index: first delete `changes.deleteChunkIds` (every chunk of changed and deleted
   * documents from the previous run), then add `records`, the chunks of added and changed documents only
   * (unchanged documents' chunks are already in the index and are not passed). Records arrive in document-id
   * order, a document's chunks in order; they are streamed, never all in memory.
   */
  apply(records: AsyncIterable<CorpusChunkRecord>, changes: CorpusChanges, info: CorpusSinkInfo): Promise<void>;
}
