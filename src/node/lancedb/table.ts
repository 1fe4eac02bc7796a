/**
 * The LanceDB table a corpus is written to (docs/distributed.md): one row per chunk, keyed by chunkId, with the
 * CorpusChunkRecord's fields as columns (metadata as a JSON string) and, when embedded, a `vector` column of the
 * model's dimensions. Shared by the sink (sink.ts) and the reader (readIndex.ts), so both use the same columns.
 */
import type { CorpusChunkRecord } from '../corpus/record';

export const DEFAULT_TABLE = 'chunks';

/** `--to lancedb:DIR` / `--index lancedb:DIR`: the directory, or null when `spec` names no LanceDB target. */
export function parseLanceTarget(spec: string): string | null {
  const m = /^lancedb:(.+)$/.exec(spec);
  return m ? m[1]! : null;
}

export interface LanceRow {
  chunkId: string;
  documentId: string;
  index: number;
  start: number;
  end: number;
  text: string;
  content: string;
  /** The record's metadata as JSON. */
  metadata: string;
  configHash: string;
  vector?: number[] | Float32Array;
}

export function toRow(record: CorpusChunkRecord, vector?: Float32Array): LanceRow {
  const row: LanceRow = {
    chunkId: record.chunkId,
    documentId: record.documentId,
    index: record.index,
    start: record.start,
    end: record.end,
    text: record.text,
    content: record.content,
    metadata: JSON.stringify(record.metadata ?? {}),
    configHash: record.configHash,
  };
  // A plain array: LanceDB infers a column named `vector` as fixed-size float32 from it.
  if (vector) row.vector = Array.from(vector);
  return row;
}

/** A row read back (Arrow values: numbers may be bigints, the vector an Arrow vector) as a record and its vector. */
export function fromRow(row: Record<string, unknown>): { record: CorpusChunkRecord; vector?: Float32Array } {
  const record: CorpusChunkRecord = {
    chunkId: String(row.chunkId),
    documentId: String(row.documentId),
    index: Number(row.index),
    start: Number(row.start),
    end: Number(row.end),
    text: String(row.text),
    content: String(row.content),
    metadata: JSON.parse(String(row.metadata ?? '{}')) as Record<string, unknown>,
    configHash: String(row.configHash),
  };
  const vector = row.vector as { toArray?: () => ArrayLike<number> } | null | undefined;
  if (vector === undefined || vector === null) return { record };
  return { record, vector: Float32Array.from(typeof vector.toArray === 'function' ? vector.toArray() : (vector as unknown as ArrayLike<number>)) };
}

/** A SQL string literal (LanceDB filters are DataFusion SQL). */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `column IN (...)` predicates over `values`, a few hundred at a time (one huge predicate is slow to plan). */
export function inPredicates(column: string, values: readonly string[], per = 500): string[] {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += per) out.push(`\`${column}\` IN (${values.slice(i, i + per).map(sqlString).join(', ')})`);
  return out;
}
