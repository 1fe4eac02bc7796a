/**
 * Corpus records (src/node/corpus/record.ts) from the engine's chunks: the configuration hash and the chunk id,
 * both sha256 so any machine, any language, gets the same ones for the same document, configuration and span.
 * Used by the JSONL filter mode (src/cli/filter.ts); the corpus command makes the same records.
 */
import { createHash } from 'node:crypto';
import { optionsKey } from '../core/chunk';
import type { Chunk, ResolvedOptions } from '../core/types';
import type { CorpusChunkRecord } from '../node/corpus/record';

/** Bumped when the record's shape or the id recipe changes, so old ids are not mistaken for new ones. */
const RECORD_VERSION = 1;

/**
 * Hash of the versioned configuration: the options that shape chunks (the engine's canonical key, which leaves out
 * document data such as the id, path and page starts) and the engine's version. 16 hex digits (64 bits).
 */
export function configHashOf(resolved: ResolvedOptions, engineVersion: string): string {
  const canonical = JSON.stringify({ record: RECORD_VERSION, engine: engineVersion, options: optionsKey(resolved) });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * A chunk's id: sha256 of document id, configuration hash and span (and the retrieval level, where a unit and its
 * only child share a span). 32 hex digits (128 bits): no collision across any corpus.
 */
export function corpusChunkId(documentId: string, configHash: string, start: number, end: number, level?: number): string {
  const key = [documentId, configHash, String(start), String(end), ...(level === undefined ? [] : [`level ${level}`])].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/**
 * One document's chunks as chunks.jsonl lines' objects. `documentMetadata` (the input line's) comes first in each
 * chunk's metadata, the engine's keys after it. A retrieval unit's `parentId` names its parent by the parent's
 * chunkId (the engine's own id is not in the record), so a store can fetch the parent from the same table.
 */
export function toCorpusRecords(chunks: readonly Chunk[], documentId: string, configHash: string, documentMetadata: Record<string, unknown> = {}): CorpusChunkRecord[] {
  const chunkIds = new Map<string, string>();
  const records = chunks.map((chunk) => {
    const level = typeof chunk.metadata.level === 'number' ? chunk.metadata.level : undefined;
    const chunkId = corpusChunkId(documentId, configHash, chunk.start, chunk.end, level);
    chunkIds.set(chunk.id, chunkId);
    return {
      documentId,
      chunkId,
      index: chunk.index,
      start: chunk.start,
      end: chunk.end,
      text: chunk.text,
      content: chunk.content,
      metadata: { ...documentMetadata, ...chunk.metadata } as Record<string, unknown>,
      configHash,
    };
  });
  for (const record of records) {
    const parentId = record.metadata.parentId;
    if (typeof parentId === 'string' && chunkIds.has(parentId)) record.metadata.parentId = chunkIds.get(parentId);
  }
  return records;
}
