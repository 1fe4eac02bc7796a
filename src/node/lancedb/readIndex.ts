/**
 * Reading a corpus index back from LanceDB (`chunkscope eval --index lancedb:DIR`): the rows a sink wrote, as
 * records and vectors, and the evaluation of a golden set over exactly those rows, so the index measured is the
 * index served. The documents' texts still come from their files (the metrics are over character ranges); each
 * document is matched to its rows by id and every row's text is checked against the file (a stale index is refused).
 */
import { existsSync } from 'node:fs';
import * as lancedb from '@lancedb/lancedb';
import { evaluateChunks, validateEvalOptions, type EvalDocument, type EvalResult, type EvaluateHooks, type EvaluateOptions } from '../../core/eval/index';
import { getUnit, validateOptions } from '../../core/index';
import type { GoldenQuestion } from '../../core/eval/types';
import type { IndexedDocument } from '../../core/retrievers/index';
import type { Chunk, ChunkMetadata } from '../../core/types';
import type { CorpusChunkRecord } from '../corpus/record';
import { DEFAULT_TABLE, fromRow } from './table';

export interface LanceIndexRow {
  record: CorpusChunkRecord;
  vector?: Float32Array;
}

/** An index that cannot be read or does not fit the documents given: one sentence. */
export class LanceIndexError extends Error {
  override name = 'LanceIndexError';
}

/** Every row of DIR's table, ordered by document id and position. */
export async function readLanceIndex(dir: string, options: { table?: string } = {}): Promise<LanceIndexRow[]> {
  const name = options.table ?? DEFAULT_TABLE;
  // Checked first: connecting makes the directory, and reading an index must not.
  if (!existsSync(dir)) throw new LanceIndexError(`lancedb:${dir} does not exist (write it with chunkscope corpus ... --to lancedb:${dir})`);
  const db = await lancedb.connect(dir);
  try {
    if (!(await db.tableNames()).includes(name)) {
      throw new LanceIndexError(`lancedb:${dir} has no table "${name}" (write one with chunkscope corpus ... --to lancedb:${dir})`);
    }
    const table = await db.openTable(name);
    const rows = (await table.query().toArray()).map((row) => fromRow(row as Record<string, unknown>));
    return rows.sort((a, b) => (a.record.documentId < b.record.documentId ? -1 : a.record.documentId > b.record.documentId ? 1 : a.record.index - b.record.index));
  } finally {
    db.close();
  }
}

/**
 * The index's document id for an evaluated document: its id, or the one its path ends with (a corpus id is a path
 * relative to the walked root), or the only one with its file name.
 */
export function matchDocumentId(document: { id: string; path?: string }, indexIds: readonly string[]): string | null {
  if (indexIds.includes(document.id)) return document.id;
  const path = (document.path ?? '').replace(/\\/g, '/');
  const bySuffix = indexIds.filter((id) => path === id || path.endsWith('/' + id));
  if (bySuffix.length > 0) return bySuffix.sort((a, b) => b.length - a.length)[0]!;
  const base = (s: string) => s.split('/').pop()!;
  const byName = indexIds.filter((id) => base(id) === base(document.id));
  return byName.length === 1 ? byName[0]! : null;
}

/** The evaluated documents with their chunks taken from the index, and every stored vector by content. */
export async function indexedDocumentsFromLance(
  dir: string,
  documents: readonly EvalDocument[],
  options: EvaluateOptions,
  table?: string,
): Promise<{ documents: IndexedDocument[]; vectors: Map<string, Float32Array>; configHashes: Set<string> }> {
  const rows = await readLanceIndex(dir, { table });
  const byDocument = new Map<string, LanceIndexRow[]>();
  for (const row of rows) {
    const list = byDocument.get(row.record.documentId) ?? [];
    list.push(row);
    byDocument.set(row.record.documentId, list);
  }
  const ids = [...byDocument.keys()];
  const unit = await getUnit(validateOptions(options).unit);
  const vectors = new Map<string, Float32Array>();
  const configHashes = new Set<string>();
  const indexed = documents.map((document) => {
    const id = matchDocumentId(document, ids);
    if (id === null) throw new LanceIndexError(`"${document.path ?? document.id}" has no chunks in lancedb:${dir} (its ids are paths such as "${ids[0] ?? '(none)'}")`);
    const chunks = byDocument.get(id)!.map(({ record, vector }): Chunk => {
      if (document.text.slice(record.start, record.end) !== record.text) {
        throw new LanceIndexError(`lancedb:${dir} is stale for "${id}": chunk ${record.index} is not the file's text at ${record.start}-${record.end} (re-run chunkscope corpus)`);
      }
      if (vector) vectors.set(record.content, vector);
      configHashes.add(record.configHash);
      const { index, start, end, text, content, chunkId, metadata } = record;
      return { index, start, end, text, content, size: unit.count(content), id: chunkId, metadata: metadata as unknown as ChunkMetadata };
    });
    return { id: document.id, text: document.text, chunks };
  });
  return { documents: indexed, vectors, configHashes };
}

/**
 * `evaluate()` over the index's rows instead of a fresh chunking: the same questions, metrics and report. Stored
 * vectors are used for the chunks (the questions are embedded by `hooks.embed`, which must be the index's model).
 */
export async function evaluateLanceIndex(
  dir: string,
  documents: readonly EvalDocument[],
  questions: readonly GoldenQuestion[],
  options: EvaluateOptions = {},
  hooks: EvaluateHooks = {},
  table?: string,
): Promise<EvalResult & { notes: string[]; configHashes: string[] }> {
  const resolved = validateOptions(options);
  const settings = validateEvalOptions(options as Record<string, unknown>);
  const started = performance.now();
  const { documents: indexed, vectors, configHashes } = await indexedDocumentsFromLance(dir, documents, options, table);
  const readMs = performance.now() - started;
  const notes: string[] = [];
  if (configHashes.size > 1) notes.push(`lancedb:${dir} holds chunks of ${configHashes.size} configurations`);
  const embed = hooks.embed && vectors.size > 0 ? storedFirst(vectors, hooks.embed) : hooks.embed;
  const result = await evaluateChunks(indexed, questions, resolved, settings, { ...hooks, embed });
  return { ...result, timings: { chunkMs: readMs, ...result.timings }, notes, configHashes: [...configHashes] };
}

/** An embed hook that answers texts the index holds with their stored vectors, and the rest with `embed`. */
function storedFirst(vectors: ReadonlyMap<string, Float32Array>, embed: NonNullable<EvaluateHooks['embed']>): NonNullable<EvaluateHooks['embed']> {
  const dims = vectors.values().next().value!.length;
  return async (texts) => {
    const missing = texts.filter((t) => !vectors.has(t));
    const computed = missing.length > 0 ? await embed(missing) : [];
    if (computed.length > 0 && computed[0]!.length !== dims) {
      throw new LanceIndexError(`the index's vectors have ${dims} dimensions, the embedder gives ${computed[0]!.length}: evaluate with the model the index was embedded with`);
    }
    let next = 0;
    return texts.map((t) => vectors.get(t) ?? computed[next++]!);
  };
}
