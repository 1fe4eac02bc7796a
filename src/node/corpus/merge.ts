/**
 * `chunkscope corpus merge DIR`: the parts written by N shard runs (chunks-i-of-N.jsonl, manifest-i-of-N.json,
 * changes-i-of-N.json) combined into chunks.jsonl, manifest.json and changes.json, the same files a single run
 * over the whole corpus writes (documents in id order).
 */
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';

import { MANIFEST_FORMAT } from './config';
import { byId, ChunkRanges, ChunksMismatchError, corpusFiles, FileWriter, temporary } from './files';
import { changesPieces, ManifestError, manifestPieces, readManifest, type CorpusManifest, type ManifestDocument } from './manifest';
import type { CorpusChanges } from './record';

export interface MergeSummary {
  shards: number;
  documents: number;
  chunks: number;
  failed: number;
}

function shardManifests(dir: string): CorpusManifest[] {
  const found = readdirSync(dir)
    .map((name) => /^manifest-(\d{5})-of-(\d{5})\.json$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null);
  if (found.length === 0) throw new ManifestError(`no shard manifests (manifest-00000-of-000NN.json) in ${dir}`);
  const count = Number(found[0]![2]);
  if (found.some((m) => Number(m[2]) !== count)) throw new ManifestError(`${dir} holds parts of runs with different shard counts`);
  const indices = new Set(found.map((m) => Number(m[1])));
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !indices.has(i));
  if (missing.length > 0) throw new ManifestError(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing in ${dir} (no manifest yet)`);
  const manifests = Array.from({ length: count }, (_, i) => readManifest(corpusFiles(dir, { index: i, count }).manifest)!);
  if (manifests.some((m) => m.configHash !== manifests[0]!.configHash)) throw new ManifestError(`the shards in ${dir} were run with different configurations`);
  return manifests;
}

export async function mergeShards(dir: string): Promise<MergeSummary> {
  try {
    return await merge(dir);
  } catch (err) {
    if (err instanceof ChunksMismatchError) throw new ManifestError(err.message);
    throw err;
  }
}

async function merge(dir: string): Promise<MergeSummary> {
  const manifests = shardManifests(dir);
  const count = manifests.length;
  const owner = new Map<string, number>();
  manifests.forEach((m, shard) => {
    for (const id of Object.keys(m.documents)) {
      if (owner.has(id)) throw new ManifestError(`document "${id}" is in shards ${owner.get(id)} and ${shard}`);
      owner.set(id, shard);
    }
  });
  const ids = [...owner.keys()].sort(byId);
  const whole = corpusFiles(dir, null);
  const chunks = await mergeChunks(dir, manifests, ids, owner);
  const failed = manifests.flatMap((m) => m.failed).sort((a, b) => byId(a.id, b.id));
  const bytes = manifests.reduce((n, m) => n + m.totals.bytes, 0);
  const head = { format: MANIFEST_FORMAT, configHash: manifests[0]!.configHash, configuration: manifests[0]!.configuration, shard: null, totals: { documents: ids.length, chunks, bytes, failed: failed.length }, failed };
  const documents = ids.map((id): [string, ManifestDocument] => [id, manifests[owner.get(id)!]!.documents[id]!]);
  writeTemporary(whole.manifest, manifestPieces(head, documents));
  const changes = mergeChanges(dir, count);
  if (changes) writeTemporary(whole.changes, changesPieces(changes.changes, changes.rebuildReason));
  // Renamed last, each at once: the merged files replace any earlier merge only when all are written.
  renameSync(temporary(whole.chunks), whole.chunks);
  if (changes) renameSync(temporary(whole.changes), whole.changes);
  renameSync(temporary(whole.manifest), whole.manifest);
  return { shards: count, documents: ids.length, chunks, failed: failed.length };
}

async function mergeChunks(dir: string, manifests: CorpusManifest[], ids: string[], owner: Map<string, number>): Promise<number> {
  const count = manifests.length;
  const ranges: ChunkRanges[] = [];
  const out = new FileWriter(temporary(corpusFiles(dir, null).chunks));
  let lines = 0;
  try {
    manifests.forEach((m, i) => ranges.push(new ChunkRanges(corpusFiles(dir, { index: i, count }).chunks, m.documents)));
    for (const id of ids) {
      ranges[owner.get(id)!]!.copy(id, out);
      lines += manifests[owner.get(id)!]!.documents[id]!.chunkCount;
    }
  } finally {
    for (const range of ranges) range.close();
    out.close();
  }
  return lines;
}

function mergeChanges(dir: string, count: number): { changes: CorpusChanges; rebuildReason: string | null } | null {
  const merged: CorpusChanges = { added: [], changed: [], unchanged: [], deleted: [], deleteChunkIds: [] };
  let rebuildReason: string | null = null;
  for (let i = 0; i < count; i++) {
    const path = corpusFiles(dir, { index: i, count }).changes;
    if (!existsSync(path)) return null;
    const part = JSON.parse(readFileSync(path, 'utf8')) as CorpusChanges & { rebuildReason: string | null };
    for (const key of ['added', 'changed', 'unchanged', 'deleted', 'deleteChunkIds'] as const) merged[key].push(...part[key]);
    rebuildReason ??= part.rebuildReason;
  }
  for (const key of ['added', 'changed', 'unchanged', 'deleted', 'deleteChunkIds'] as const) merged[key].sort(byId);
  return { changes: merged, rebuildReason };
}

function writeTemporary(path: string, pieces: Iterable<string>): void {
  const out = new FileWriter(temporary(path));
  for (const piece of pieces) out.write(piece);
  out.close();
}


