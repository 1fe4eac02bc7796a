/**
 * One line of a corpus run's chunks.jsonl, and what a sink (LanceDB, a user's pipeline) receives.
 * Shared by the corpus command (src/node/corpus), the JSONL filter mode and the LanceDB sink, so all three
 * write and read the same shape. Field names are the JSON keys.
 */
export interface CorpusChunkRecord {
  /** The document's id: its path relative to the walked root (forward slashes), or the id given on input. */
  documentId: string;
  /** Deterministic from documentId, configHash and the span: identical on any machine. */
  chunkId: string;
  /** Position of the chunk within its document (0-based). */
  index: number;
  start: number;
  end: number;
  /** Exactly source.slice(start, end) of the document's text. */
  text: string;
  /** What is embedded (text plus any injected header or context). */
  content: string;
  metadata: Record<string, unknown>;
  /** Hash of the versioned configuration (options + engine version) that produced this chunk. */
  configHash: string;
}

/** What an index must change after a run (changes.json's deletions, applied by a sink). */
export interface CorpusChanges {
  added: string[];
  changed: string[];
  unchanged: string[];
  deleted: string[];
  /** Chunk ids an index must delete: every chunk of changed and deleted documents, from the previous run. */
  deleteChunkIds: string[];
}
