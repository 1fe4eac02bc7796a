/**
 * A corpus output folder (chunks.jsonl + changes.json, as `chunkscope corpus` or `chunkscope corpus merge` writes
 * them) applied to a LanceDB sink after the fact: the step after a sharded run's merge, or a sink added to an
 * existing --out. chunks.jsonl is streamed a line at a time; only added and changed documents' chunks are passed,
 * or every chunk when the table is missing or empty (then all of the corpus must go in).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CorpusChanges, CorpusChunkRecord } from '../corpus/record';
import type { LanceApplyResult, LanceSink } from './sink';

export async function applyOutputFolder(outDir: string, sink: LanceSink): Promise<LanceApplyResult> {
  const changes = JSON.parse(await readFile(join(outDir, 'changes.json'), 'utf8')) as CorpusChanges;
  const everything = await sink.isEmpty();
  const fresh = new Set([...changes.added, ...changes.changed]);
  return sink.apply(recordsOf(join(outDir, 'chunks.jsonl'), everything ? null : fresh), changes);
}

/** chunks.jsonl's records, those of `documents` only (all when null). */
async function* recordsOf(path: string, documents: ReadonlySet<string> | null): AsyncGenerator<CorpusChunkRecord> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const record = JSON.parse(line) as CorpusChunkRecord;
    if (documents === null || documents.has(record.documentId)) yield record;
  }
}
