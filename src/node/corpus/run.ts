/**
 * A corpus run into an output folder: find the documents, chunk those whose content hash or configuration changed
 * (in a worker pool), then write chunks.jsonl (document-id order: unchanged documents' lines copied from the
 * previous file), manifest.json and changes.json to temporary names, hand the changes to the sink, and rename.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import type { ChunkOptions } from '../../core/types';
import { DEFAULT_MAX_BYTES } from '../../import/index';
import { configHashOf, configurationChange, corpusConfiguration, MANIFEST_FORMAT, sha256, shardOf, type CorpusConfiguration, type CorpusLlm } from './config';
import type { DocumentLlmCounts, DocumentResult } from './document';
import { byId, ChunkRanges, corpusFiles, FileWriter, readStatCache, statCachePieces, temporary, writeAtomically, type CorpusFiles, type StatCache } from './files';
import { Journal, type JournalEntry } from './journal';
import { changesPieces, manifestPieces, readManifest, type CorpusManifest, type ManifestDocument } from './manifest';
import { documentRunner } from './pool';
import type { CorpusChanges, CorpusChunkRecord } from './record';
import type { CorpusSink } from './sink';
import { findDocuments, type DocumentRef } from './walk';

export interface CorpusRunOptions {
  /** Folders and files to read. */
  inputs: readonly string[];
  outDir: string;
  /** Chunk options, as chunk() takes them (one configuration for every document). */
  options?: ChunkOptions;
  /** Worker threads (default: the number of cores); 1 chunks in this thread. */
  jobs?: number;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Larger documents fail (default 64 MiB). */
  maxBytes?: number;
  dropPageFurniture?: boolean;
  /** Only the documents of this shard (by sha256 of the id), written to the shard's own files. */
  shard?: { index: number; count: number } | null;
  sink?: CorpusSink;
  /** An LLM feature over every document's chunks, through its answer cache; part of the configuration (not the key). */
  llm?: CorpusLlm | null;
  onProgress?: (progress: CorpusProgress) => void;
  /** A document (or folder) that could not be read or chunked: its path and the reason, one line. */
  onFailure?: (path: string, reason: string) => void;
}

export interface CorpusProgress {
  documents: number;
  documentsTotal: number;
  bytes: number;
  bytesTotal: number;
  chunks: number;
  failed: number;
}

export interface CorpusSummary {
  documents: number;
  added: number;
  changed: number;
  unchanged: number;
  deleted: number;
  failed: number;
  chunks: number;
  /** Documents read from disk (the others' size and mtime were those cached with their hash). */
  read: number;
  /** Documents chunked in this run (the others' lines were kept). */
  chunked: number;
  /** Documents an interrupted run had finished, taken from its journal. */
  resumed: number;
  rebuildReason: string | null;
  /** With an LLM feature: this run's requests, answered from the cache, sent (chunked documents only). */
  llm: DocumentLlmCounts | null;
  /** True when this call only finished the commit of a run that was killed after writing its files. */
  finishedInterrupted: boolean;
  files: { chunks: string; manifest: string; changes: string };
}

/** Where a document's lines are: the previous chunks file, or this run's journal. */
type Entry = Omit<ManifestDocument, 'chunkCount'> & { source: 'previous' | JournalEntry };

interface RunContext {
  run: CorpusRunOptions;
  config: CorpusConfiguration;
  configHash: string;
  files: CorpusFiles;
  previous: CorpusManifest | null;
  rebuildReason: string | null;
  journal: Journal;
  /** The previous run's stat cache, and when this run's walk began (files modified since then are not cached). */
  statCache: StatCache;
  walkStartedMs: number;
}

export async function runCorpus(run: CorpusRunOptions): Promise<CorpusSummary> {
  const config = corpusConfiguration(run.options ?? {}, { dropPageFurniture: run.dropPageFurniture === true }, run.llm);
  const configHash = configHashOf(config);
  const shard = run.shard ?? null;
  const files = corpusFiles(run.outDir, shard);
  mkdirSync(run.outDir, { recursive: true });
  const previousBytes = existsSync(files.manifest) ? readFileSync(files.manifest) : null;
  const journal = Journal.open(files.work, { configHash, previous: previousBytes ? sha256(previousBytes) : 'none' });
  if (journal.committed !== null) {
    finishCommit(files, journal);
    return { ...(journal.committed as CorpusSummary), finishedInterrupted: true };
  }
  const previous = readManifest(files.manifest);
  const reason = rebuildReason(previous, config, files);
  const ctx: RunContext = { run, config, configHash, files, previous, rebuildReason: reason, journal, statCache: reason ? new Map() : readStatCache(files.statCache), walkStartedMs: Date.now() };
  const { documents, problems } = await findDocuments(run.inputs, { include: run.include, exclude: run.exclude, skipDirs: [resolve(run.outDir)] });
  for (const problem of problems) run.onFailure?.(problem.path, problem.reason);
  const mine = shard ? documents.filter((d) => shardOf(d.id, shard.count) === shard.index) : documents;
  const processed = await chunkDocuments(ctx, mine);
  return finish(ctx, processed);
}

function rebuildReason(previous: CorpusManifest | null, config: CorpusConfiguration, files: CorpusFiles): string | null {
  if (previous === null) return 'no previous run';
  const changed = configurationChange(previous.configuration, config);
  if (changed) return changed;
  if (!existsSync(files.chunks)) return 'the previous chunks file is missing';
  const expected = Object.values(previous.documents).reduce((n, d) => n + d.chunkBytes, 0);
  if (statSync(files.chunks).size !== expected) return 'the previous chunks file does not match its manifest';
  return null;
}

interface Processed {
  entries: Map<string, Entry>;
  failed: { id: string; reason: string }[];
  read: number;
  chunked: number;
  resumed: number;
  /** This run's stat cache: documents whose hash is known and whose mtime is well before the walk. */
  stats: StatCache;
  llm: DocumentLlmCounts;
}

async function chunkDocuments(ctx: RunContext, documents: readonly DocumentRef[]): Promise<Processed> {
  const { run, journal } = ctx;
  const jobs = Math.max(1, run.jobs ?? cpus().length);
  const runner = await documentRunner(jobs);
  const processed: Processed = { entries: new Map(), failed: [], read: 0, chunked: 0, resumed: 0, stats: new Map(), llm: { requests: 0, cached: 0, sent: 0 } };
  const progress: CorpusProgress = { documents: 0, documentsTotal: documents.length, bytes: 0, bytesTotal: documents.reduce((n, d) => n + d.size, 0), chunks: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  try {
    for (const doc of documents) {
      const fromJournal = journal.done.get(doc.id);
      const previousHash = ctx.rebuildReason === null ? (ctx.previous?.documents[doc.id]?.contentHash ?? null) : null;
      const task = {
        id: doc.id,
        path: doc.path,
        knownHash: fromJournal?.hash ?? previousHash,
        options: ctx.config.options,
        configHash: ctx.configHash,
        maxBytes: run.maxBytes ?? DEFAULT_MAX_BYTES,
        dropPageFurniture: ctx.config.reader.dropPageFurniture,
        spillDir: journal.spillDir,
        llm: run.llm ?? null,
      };
      const settle = (result: DocumentResult) => {
        record(ctx, processed, result, fromJournal, doc);
        progress.documents++;
        progress.bytes += doc.size;
        progress.failed = processed.failed.length;
        progress.chunks += processed.entries.get(doc.id)?.chunkIds.length ?? 0;
        run.onProgress?.({ ...progress });
      };
      // Size and mtime as when its hash was last read: unchanged without reading it.
      const cached = ctx.statCache.get(doc.id);
      if (!fromJournal && previousHash !== null && cached?.hash === previousHash && cached.size === doc.size && cached.mtimeMs === doc.mtimeMs) {
        settle({ kind: 'unchanged', id: doc.id, hash: previousHash, bytes: doc.size });
        continue;
      }
      const failedRun = (err: unknown): DocumentResult => ({ kind: 'failed', id: doc.id, reason: String((err as Error)?.message ?? err).split('\n')[0]! });
      processed.read++;
      const job: Promise<void> = runner.run(task).catch(failedRun).then(settle);
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      // Bounded: a few documents per thread in flight, never the whole corpus.
      if (inFlight.size >= jobs * 3) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    await runner.close();
  }
  return processed;
}

function record(ctx: RunContext, processed: Processed, result: DocumentResult, fromJournal: JournalEntry | undefined, doc: DocumentRef): void {
  // A file modified less than 2 s before the walk may change again within one mtime tick: not cached (as git does).
  if (result.kind !== 'failed' && doc.mtimeMs < ctx.walkStartedMs - 2000) processed.stats.set(doc.id, { size: doc.size, mtimeMs: doc.mtimeMs, hash: result.hash });
  if (result.kind === 'failed') {
    processed.failed.push({ id: doc.id, reason: result.reason });
    ctx.run.onFailure?.(doc.id, result.reason);
  } else if (result.kind === 'unchanged' && fromJournal) {
    processed.entries.set(doc.id, { contentHash: fromJournal.hash, bytes: fromJournal.bytes, format: fromJournal.format, chunkBytes: fromJournal.length, chunkIds: fromJournal.chunkIds, source: fromJournal });
    processed.resumed++;
  } else if (result.kind === 'unchanged') {
    const { chunkCount: _count, ...kept } = ctx.previous!.documents[doc.id]!;
    processed.entries.set(doc.id, { ...kept, source: 'previous' });
  } else {
    const recorded = { id: doc.id, hash: result.hash, bytes: result.bytes, format: result.format, chunkIds: result.chunkIds };
    const entry = result.spill ? ctx.journal.addSpilled(recorded, result.spill) : ctx.journal.add(recorded, result.lines);
    processed.entries.set(doc.id, { contentHash: result.hash, bytes: result.bytes, format: result.format, chunkBytes: entry.length, chunkIds: result.chunkIds, source: entry });
    processed.chunked++;
    for (const key of ['requests', 'cached', 'sent'] as const) processed.llm[key] += result.llm?.[key] ?? 0;
  }
}

/** Which documents were added, changed, unchanged and deleted against the previous manifest. */
function changesOf(ctx: RunContext, ids: readonly string[], entries: Map<string, Entry>): CorpusChanges {
  const changes: CorpusChanges = { added: [], changed: [], unchanged: [], deleted: [], deleteChunkIds: [] };
  const before = ctx.previous?.documents ?? {};
  for (const id of ids) {
    const old = Object.hasOwn(before, id) ? before[id] : undefined;
    if (!old) changes.added.push(id);
    else if (ctx.rebuildReason !== null || old.contentHash !== entries.get(id)!.contentHash) {
      changes.changed.push(id);
      changes.deleteChunkIds.push(...old.chunkIds);
    } else changes.unchanged.push(id);
  }
  for (const id of Object.keys(before).sort(byId)) {
    if (entries.has(id)) continue;
    changes.deleted.push(id);
    changes.deleteChunkIds.push(...before[id]!.chunkIds);
  }
  // Sorted: the same list whether the run was one or N shards merged.
  changes.deleteChunkIds.sort(byId);
  return changes;
}

async function finish(ctx: RunContext, processed: Processed): Promise<CorpusSummary> {
  const { files, journal } = ctx;
  const ids = [...processed.entries.keys()].sort(byId);
  const changes = changesOf(ctx, ids, processed.entries);
  const chunks = await writeChunks(ctx, ids, processed.entries);
  const bytes = ids.reduce((n, id) => n + processed.entries.get(id)!.bytes, 0);
  const failed = processed.failed.sort((a, b) => byId(a.id, b.id));
  const head = { format: MANIFEST_FORMAT, configHash: ctx.configHash, configuration: ctx.config, shard: ctx.run.shard ?? null, totals: { documents: ids.length, chunks, bytes, failed: failed.length }, failed };
  const documents = ids.map((id): [string, ManifestDocument] => {
    const { contentHash, bytes, format, chunkBytes, chunkIds } = processed.entries.get(id)!;
    return [id, { contentHash, bytes, format, chunkCount: chunkIds.length, chunkBytes, chunkIds }];
  });
  writeAtomicallyTo(temporary(files.manifest), manifestPieces(head, documents));
  writeAtomicallyTo(temporary(files.changes), changesPieces(changes, ctx.rebuildReason));
  if (ctx.run.sink) {
    const fresh = new Set([...changes.added, ...changes.changed]);
    const info = { outDir: ctx.run.outDir, configHash: ctx.configHash, shard: ctx.run.shard ?? null, rebuildReason: ctx.rebuildReason };
    await ctx.run.sink.apply(freshRecords(ids.filter((id) => fresh.has(id)), processed.entries, journal), changes, info);
  }
  const summary: CorpusSummary = {
    documents: ids.length,
    added: changes.added.length,
    changed: changes.changed.length,
    unchanged: changes.unchanged.length,
    deleted: changes.deleted.length,
    failed: failed.length,
    chunks,
    read: processed.read,
    chunked: processed.chunked,
    resumed: processed.resumed,
    rebuildReason: ctx.rebuildReason,
    llm: ctx.run.llm ? processed.llm : null,
    finishedInterrupted: false,
    files: { chunks: files.chunks, manifest: files.manifest, changes: files.changes },
  };
  journal.commit(summary);
  finishCommit(files, journal);
  writeAtomically(files.statCache, statCachePieces(processed.stats));
  return summary;
}

function writeAtomicallyTo(tmp: string, pieces: Iterable<string>): void {
  const out = new FileWriter(tmp);
  for (const piece of pieces) out.write(piece);
  out.close();
}

/** chunks.jsonl (temporary name) in document-id order; returns the number of lines. */
async function writeChunks(ctx: RunContext, ids: readonly string[], entries: Map<string, Entry>): Promise<number> {
  const out = new FileWriter(temporary(ctx.files.chunks));
  const needsPrevious = ids.some((id) => entries.get(id)!.source === 'previous');
  let previous: ChunkRanges | null = null;
  let lines = 0;
  try {
    if (needsPrevious) previous = new ChunkRanges(ctx.files.chunks, ctx.previous!.documents);
    // Unchanged documents that follow each other in the previous file are copied in one read.
    let run: { first: string; offset: number; length: number } | null = null;
    const flush = () => {
      if (run && run.length > 0) previous!.copyRange(run.first, run, out);
      run = null;
    };
    for (const id of ids) {
      const entry = entries.get(id)!;
      if (entry.source === 'previous') {
        const range = previous!.rangeOf(id);
        if (range.length === 0) continue; // a document without chunks: nothing to copy (and never a run's first)
        if (run && run.offset + run.length === range.offset) run.length += range.length;
        else {
          flush();
          run = { first: id, ...range };
        }
      } else {
        flush();
        for (const block of ctx.journal.blocks(entry.source)) out.writeBytes(block);
      }
      lines += entry.chunkIds.length;
    }
    flush();
  } finally {
    previous?.close();
    out.close();
  }
  return lines;
}

async function* freshRecords(ids: readonly string[], entries: Map<string, Entry>, journal: Journal): AsyncGenerator<CorpusChunkRecord> {
  for (const id of ids) {
    const source = entries.get(id)!.source;
    if (source === 'previous') continue;
    for (const line of journal.lines(source)) yield JSON.parse(line) as CorpusChunkRecord;
  }
}

/** Rename the written files into place (those not renamed yet), then drop the journal. */
function finishCommit(files: CorpusFiles, journal: Journal): void {
  journal.close();
  for (const path of [files.chunks, files.changes, files.manifest]) if (existsSync(temporary(path))) renameSync(temporary(path), path);
  journal.remove();
}

