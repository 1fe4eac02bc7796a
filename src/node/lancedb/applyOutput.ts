/**
 * A corpus output folder (chunks.jsonl + changes.json, as `chunkscope corpus` or `chunkscope corpus merge` writes
 * them) applied to a LanceDB sink after the fact: the step after a sharded run's merge, or a sink added to an
 * existing --out. chunks.jsonl is streamed a line at a time; only added and changed documents' chunks are passed,
 * or every chunk when the table is missing or empty (then all of the corpus must go in).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CorpusChanges } from '../corpus/record';
import type { LanceApplyResult, LanceSink } from './sink';
import { recordsOf } from './target';

export async function applyOutputFolder(outDir: string, sink: LanceSink): Promise<LanceApplyResult> {
  const changes = JSON.parse(await readFile(join(outDir, 'changes.json'), 'utf8')) as CorpusChanges;
  const everything = await sink.isEmpty();
  const fresh = new Set([...changes.added, ...changes.changed]);
  return sink.apply(recordsOf(join(outDir, 'chunks.jsonl'), everything ? null : fresh), changes);
}
