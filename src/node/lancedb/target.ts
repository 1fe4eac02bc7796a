/**
 * `--to lancedb:DIR [--embed]` for the corpus command, in two calls: openLanceTarget (the sink, with the embedder
 * made and disposed here) and asCorpusSink (the corpus run's sink interface, src/node/corpus/sink.ts). A corpus run
 * passes only added and changed documents' chunks; when the table is still empty (a sink added to an --out that
 * already existed) the unchanged documents' chunks are read from the previous chunks file, so the table ends up
 * holding the whole corpus.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Embedder } from '../../embed/types';
import type { CorpusChanges, CorpusChunkRecord } from '../corpus/record';
import { openLanceSink, type LanceApplyResult, type LanceSink, type LanceSinkOptions } from './sink';
import { parseLanceTarget } from './table';

export interface LanceTargetOptions extends Omit<LanceSinkOptions, 'embedder'> {
  /** Embed with this model ('builtin' or a hub id, as --embedder takes); none: no vectors. */
  embedModel?: string | null;
}

/** The sink `spec` (`lancedb:DIR`) names; close() also disposes the embedder it made. Null: not a LanceDB target. */
export async function openLanceTarget(spec: string, options: LanceTargetOptions = {}): Promise<LanceSink | null> {
  const dir = parseLanceTarget(spec);
  if (dir === null) return null;
  const { embedModel, ...sinkOptions } = options;
  let embedder: Embedder | undefined;
  if (embedModel) {
    const { createEmbedder } = await import('../../embed/index');
    embedder = await createEmbedder({ model: embedModel, allowRemote: embedModel !== 'builtin' });
  }
  try {
    const sink = await openLanceSink(dir, { ...sinkOptions, embedder });
    const close = sink.close.bind(sink);
    return Object.assign(sink, { close: async () => (await close(), await embedder?.dispose()) });
  } catch (err) {
    await embedder?.dispose();
    throw err;
  }
}

/** What a corpus run tells its sink besides the changes (the fields of CorpusSinkInfo this needs). */
export interface CorpusRunInfo {
  outDir: string;
  shard: { index: number; count: number } | null;
}

/** The corpus command's sink interface over a LanceDB sink; `results` collects each run's counts. */
export function asCorpusSink(sink: LanceSink): {
  apply(records: AsyncIterable<CorpusChunkRecord>, changes: CorpusChanges, info: CorpusRunInfo): Promise<void>;
  results: LanceApplyResult[];
} {
  const results: LanceApplyResult[] = [];
  return {
    results,
    async apply(records, changes, info) {
      const fillIn = changes.unchanged.length > 0 && (await sink.isEmpty()) ? previousChunksFile(info) : null;
      results.push(await sink.apply(fillIn ? concat(records, recordsOf(fillIn, new Set(changes.unchanged))) : records, changes));
    },
  };
}

/** The chunks file the previous run committed (this run's is not renamed into place until the sink is done). */
function previousChunksFile(info: CorpusRunInfo): string | null {
  const part = info.shard ? `-${String(info.shard.index).padStart(5, '0')}-of-${String(info.shard.count).padStart(5, '0')}` : '';
  const path = join(info.outDir, `chunks${part}.jsonl`);
  return existsSync(path) ? path : null;
}

async function* concat<T>(...sources: AsyncIterable<T>[]): AsyncGenerator<T> {
  for (const source of sources) yield* source;
}

/** A chunks file's records of `documents`, a line at a time. */
export async function* recordsOf(path: string, documents: ReadonlySet<string> | null): AsyncGenerator<CorpusChunkRecord> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const record = JSON.parse(line) as CorpusChunkRecord;
    if (documents === null || documents.has(record.documentId)) yield record;
  }
}
