/**
 * Corpus records (src/node/corpus/record.ts) from the engine's chunks, for the JSONL filter mode
 * (src/cli/filter.ts): the configuration hash and chunk ids, all sha256, so any machine and any engine (Spark, Dask,
 * a shard of `chunkscope corpus`) gives the same ids for the same document, configuration and span.
 *
 * The recipe is the corpus command's (src/node/corpus/config.ts corpusConfiguration, configHashOf, corpusChunkId,
 * and document.ts recordLines, built in parallel): the filter's line for a document equals the corpus command's
 * line for a file of the same text and id. At merge these can become imports of those functions.
 */
import { createHash } from 'node:crypto';
import { optionsKey } from '../core/chunk';
import { CHUNKER_NAME, CHUNKER_VERSION } from '../core/version';
import type { Chunk, ResolvedOptions } from '../core/types';
import type { CorpusChunkRecord } from '../node/corpus/record';

const sha256 = (data: string): string => createHash('sha256').update(data).digest('hex');

/**
 * Hash of the versioned configuration: engine, engine version, the options that shape chunks (the engine's
 * canonical key, without document data such as id, path and page starts) and how documents are read (the filter
 * takes text: PDF page furniture is never dropped).
 */
export function configHashOf(resolved: ResolvedOptions, engineVersion: string = CHUNKER_VERSION): string {
  return sha256(JSON.stringify([CHUNKER_NAME, engineVersion, optionsKey(resolved), false]));
}

/**
 * A chunk's id: sha256 of document id, configuration hash, retrieval level and span. `taken` holds the ids already
 * given in this document, so two chunks on one span (rare) get distinct ids, in order.
 */
export function corpusChunkId(documentId: string, configHash: string, level: number | undefined, start: number, end: number, taken: Set<string>): string {
  const base = `${documentId}\u0000${configHash}\u0000${level ?? ''}\u0000${start}\u0000${end}`;
  let id = sha256(base);
  for (let n = 1; taken.has(id); n++) id = sha256(`${base}\u0000${n}`);
  taken.add(id);
  return id;
}

/**
 * One document's chunks as chunks.jsonl lines' objects. Each chunk's metadata: `documentMetadata` (the input
 * line's) first, then the engine's and the chunk's size. A retrieval unit's `parentId` names its parent by the
 * parent's chunkId (the record carries no engine id), so a store can fetch the parent from the same table.
 */
export function toCorpusRecords(chunks: readonly Chunk[], documentId: string, configHash: string, documentMetadata: Record<string, unknown> = {}): CorpusChunkRecord[] {
  const taken = new Set<string>();
  const byEngineId = new Map<string, string>();
  return chunks.map((c) => {
    const chunkId = corpusChunkId(documentId, configHash, c.metadata.level, c.start, c.end, taken);
    byEngineId.set(c.id, chunkId);
    const metadata: Record<string, unknown> = { ...documentMetadata, ...c.metadata, size: c.size };
    // Parents come before their children in the engine's order (src/core/chunk.ts).
    if (typeof metadata.parentId === 'string') metadata.parentId = byEngineId.get(metadata.parentId) ?? metadata.parentId;
    return { documentId, chunkId, index: c.index, start: c.start, end: c.end, text: c.text, content: c.content, metadata, configHash };
  });
}
