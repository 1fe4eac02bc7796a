/**
 * LanceDB as a corpus run's sink (`--to lancedb:DIR`, docs/distributed.md): chunk records are written to one table
 * keyed by chunkId, and a run's changes are applied there as in changes.json: the old chunks of changed and deleted
 * documents are removed, new and changed documents' chunks are upserted, and unchanged documents' rows are left as
 * they are (their records are only inserted when missing, e.g. the first run with a sink over an existing --out).
 * With an embedder each written row gets its content's vector, cached on disk by text (embeddingCache.ts).
 */
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import type { Embedder } from '../../embed/types';
import type { CorpusChanges, CorpusChunkRecord } from '../corpus/record';
import { EmbeddingCache } from './embeddingCache';
import { DEFAULT_TABLE, inPredicates, toRow } from './table';

export interface LanceSinkOptions {
  /** Table name in DIR (default "chunks"). */
  table?: string;
  /** Embed each written chunk's content into a `vector` column. */
  embedder?: Embedder;
  /** Where vectors are cached by text (default DIR/.embedding-cache). */
  embeddingCacheDir?: string;
  /** Records written per LanceDB commit (default 2048): each commit is a table version. */
  batchRows?: number;
}

export interface LanceApplyResult {
  /** Rows written (inserted or replaced): the chunks of added and changed documents, and missing unchanged ones. */
  upserted: number;
  /** Rows removed: the old chunks of changed and deleted documents. */
  deleted: number;
  /** Records of unchanged documents whose rows were already there: not rewritten. */
  kept: number;
  /** Vectors read from the cache / computed by the model (both 0 without an embedder). */
  embedded: { cached: number; computed: number };
}

export interface LanceSink {
  readonly dir: string;
  readonly table: string;
  /** Applies one run: `records` are its chunk lines (all of them, or only those of added and changed documents). */
  apply(records: AsyncIterable<CorpusChunkRecord> | Iterable<CorpusChunkRecord>, changes: CorpusChanges): Promise<LanceApplyResult>;
  /** True when the table is missing or has no rows: a caller passing only new chunks should pass every chunk. */
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}

/** A sink that cannot write what it was given (a table made with or without vectors, of other dimensions). */
export class LanceSinkError extends Error {
  override name = 'LanceSinkError';
}

/** Opens (creating the directory when needed) a LanceDB database as a sink; the table is made on first write. */
export async function openLanceSink(dir: string, options: LanceSinkOptions = {}): Promise<LanceSink> {
  const db = await lancedb.connect(dir);
  const sink = new Sink(dir, db, options);
  await sink.checkSchema();
  return sink;
}

class Sink implements LanceSink {
  readonly table: string;
  private readonly cache: EmbeddingCache | null;
  private readonly batchRows: number;

  constructor(
    readonly dir: string,
    private readonly db: lancedb.Connection,
    options: LanceSinkOptions,
  ) {
    this.table = options.table ?? DEFAULT_TABLE;
    this.cache = options.embedder ? new EmbeddingCache(options.embeddingCacheDir ?? join(dir, '.embedding-cache'), options.embedder) : null;
    this.batchRows = options.batchRows ?? 2048;
  }

  async openTable(): Promise<lancedb.Table | null> {
    return (await this.db.tableNames()).includes(this.table) ? this.db.openTable(this.table) : null;
  }

  /** Refuses a table whose vector column does not fit the embedder given (or its absence), before anything is written. */
  async checkSchema(): Promise<void> {
    const table = await this.openTable();
    if (!table) return;
    const vector = (await table.schema()).fields.find((f) => f.name === 'vector');
    const where = `lancedb:${this.dir} (table ${this.table})`;
    if (this.cache && !vector) throw new LanceSinkError(`${where} was written without vectors; embed into a new directory or leave out --embed`);
    if (!this.cache && vector) throw new LanceSinkError(`${where} holds vectors; give the same --embed (or write to a new directory)`);
    const dims = (vector?.type as { listSize?: number } | undefined)?.listSize;
    if (this.cache && dims !== undefined && dims !== this.cache.dims) {
      throw new LanceSinkError(`${where} holds vectors of ${dims} dimensions, the embedder gives ${this.cache.dims}; use the same model or a new directory`);
    }
  }

  async apply(records: AsyncIterable<CorpusChunkRecord> | Iterable<CorpusChunkRecord>, changes: CorpusChanges): Promise<LanceApplyResult> {
    const result: LanceApplyResult = { upserted: 0, deleted: 0, kept: 0, embedded: { cached: 0, computed: 0 } };
    const countsBefore = this.cache ? { ...this.cache.counts } : null;
    let table = await this.openTable();
    if (table) result.deleted = await deleteOld(table, changes);
    // Into an empty table every batch is appended (a run's chunk ids are unique): no merge against the growing table.
    const append = table === null || (await table.countRows()) === 0;
    const unchanged = new Set(append ? [] : changes.unchanged);
    let batch: CorpusChunkRecord[] = [];
    const flush = async (): Promise<void> => {
      table = await this.write(table, batch, unchanged, append, result);
      batch = [];
    };
    for await (const record of records) {
      batch.push(record);
      if (batch.length >= this.batchRows) await flush();
    }
    if (batch.length > 0) await flush();
    // A scalar index on the key: later runs' merges and deletions by chunkId look rows up instead of scanning.
    if (append && table && result.upserted > 0) await table.createIndex('chunkId').catch(() => undefined);
    if (this.cache && countsBefore) {
      result.embedded = { cached: this.cache.counts.cached - countsBefore.cached, computed: this.cache.counts.computed - countsBefore.computed };
    }
    return result;
  }

  /** One batch: unchanged documents' records only where their rows are missing; the others upserted by chunkId. */
  private async write(
    table: lancedb.Table | null,
    batch: readonly CorpusChunkRecord[],
    unchanged: ReadonlySet<string>,
    append: boolean,
    result: LanceApplyResult,
  ): Promise<lancedb.Table | null> {
    const kept = batch.filter((r) => unchanged.has(r.documentId));
    const present = table && kept.length > 0 ? await presentIds(table, kept.map((r) => r.chunkId)) : new Set<string>();
    result.kept += present.size;
    // Last record wins for a chunkId given twice (a merge refuses duplicate keys in its source).
    const byId = new Map<string, CorpusChunkRecord>();
    for (const r of batch) if (!present.has(r.chunkId)) byId.set(r.chunkId, r);
    const toWrite = [...byId.values()];
    if (toWrite.length === 0) return table;
    const vectors = this.cache ? await this.cache.vectors(toWrite.map((r) => r.content)) : null;
    const rows = toWrite.map((r, i) => toRow(r, vectors?.[i]) as unknown as Record<string, unknown>);
    result.upserted += rows.length;
    if (!table) return this.db.createTable(this.table, rows);
    if (append) {
      await table.add(rows);
      return table;
    }
    await table.mergeInsert('chunkId').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
    return table;
  }

  async isEmpty(): Promise<boolean> {
    const table = await this.openTable();
    return table === null || (await table.countRows()) === 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Removes the previous run's chunks of changed and deleted documents: by chunk id, and by document for safety. */
async function deleteOld(table: lancedb.Table, changes: CorpusChanges): Promise<number> {
  let deleted = 0;
  const predicates = [...inPredicates('chunkId', changes.deleteChunkIds), ...inPredicates('documentId', [...changes.changed, ...changes.deleted])];
  for (const predicate of predicates) deleted += (await table.delete(predicate)).numDeletedRows;
  return deleted;
}

/** Which of `ids` have a row. */
async function presentIds(table: lancedb.Table, ids: readonly string[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (const predicate of inPredicates('chunkId', ids)) {
    for (const row of await table.query().where(predicate).select(['chunkId']).toArray()) present.add(String(row.chunkId));
  }
  return present;
}
