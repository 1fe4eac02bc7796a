/**
 * chunkCorpus(source, options): the corpus command's reading and chunking as an async iterator of records, for a
 * user's own pipeline (no output folder, no incremental state). Documents are chunked on the worker pool a few
 * ahead of the consumer and yielded in document-id order, a document's chunks in order.
 */
import { cpus } from 'node:os';
import type { ChunkOptions } from '../../core/types';
import { DEFAULT_MAX_BYTES } from '../../import/index';
import { configHashOf, corpusConfiguration } from './config';
import type { DocumentResult } from './document';
import { documentRunner } from './pool';
import type { CorpusChunkRecord } from './record';
import type { CorpusProgress } from './run';
import { findDocuments } from './walk';

export interface ChunkCorpusOptions extends ChunkOptions {
  /** Worker threads (default: the number of cores); 1 chunks in this thread. */
  jobs?: number;
  include?: readonly string[];
  exclude?: readonly string[];
  maxBytes?: number;
  dropPageFurniture?: boolean;
  /** After each document: documents and bytes done of the total, chunks so far, failures. */
  onProgress?: (progress: CorpusProgress) => void;
  /** A document (or folder) that could not be read or chunked; the iteration goes on. */
  onFailure?: (path: string, reason: string) => void;
}

export async function* chunkCorpus(source: string | readonly string[], options: ChunkCorpusOptions = {}): AsyncGenerator<CorpusChunkRecord> {
  const { jobs: wanted, include, exclude, maxBytes, dropPageFurniture, onProgress, onFailure, ...chunkOptions } = options;
  const config = corpusConfiguration(chunkOptions, { dropPageFurniture: dropPageFurniture === true });
  const configHash = configHashOf(config);
  const { documents, problems } = await findDocuments(typeof source === 'string' ? [source] : source, { include, exclude });
  for (const problem of problems) onFailure?.(problem.path, problem.reason);
  const jobs = Math.max(1, wanted ?? cpus().length);
  const runner = await documentRunner(jobs);
  const progress: CorpusProgress = { documents: 0, documentsTotal: documents.length, bytes: 0, bytesTotal: documents.reduce((n, d) => n + d.size, 0), chunks: 0, failed: 0 };
  const pending: Promise<DocumentResult>[] = [];
  let next = 0;
  try {
    while (next < documents.length || pending.length > 0) {
      while (pending.length < jobs * 3 && next < documents.length) {
        const doc = documents[next++]!;
        const task = { id: doc.id, path: doc.path, knownHash: null, options: config.options, configHash, maxBytes: maxBytes ?? DEFAULT_MAX_BYTES, dropPageFurniture: dropPageFurniture === true };
        pending.push(runner.run(task).catch((err: unknown): DocumentResult => ({ kind: 'failed', id: doc.id, reason: String((err as Error)?.message ?? err).split('\n')[0]! })));
      }
      const result = await pending.shift()!;
      const doc = documents[next - pending.length - 1]!;
      progress.documents++;
      progress.bytes += doc.size;
      if (result.kind === 'failed') {
        progress.failed++;
        onFailure?.(result.id, result.reason);
      } else if (result.kind === 'chunked') progress.chunks += result.chunkIds.length;
      onProgress?.({ ...progress });
      if (result.kind !== 'chunked') continue;
      for (const piece of result.lines) for (const line of piece.split('\n')) if (line !== '') yield JSON.parse(line) as CorpusChunkRecord;
    }
  } finally {
    await runner.close();
  }
}
