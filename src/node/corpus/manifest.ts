/** manifest.json (and each shard's manifest-i-of-N.json): the configuration, and per document its hash and chunks. */
import { existsSync, readFileSync } from 'node:fs';
import { MANIFEST_FORMAT, type CorpusConfiguration } from './config';
import type { CorpusChanges } from './record';

export interface ManifestDocument {
  /** sha256 of the file's bytes, hex. */
  contentHash: string;
  bytes: number;
  /** How it was read: text, markdown, html, code, pdf, docx. */
  format: string;
  chunkCount: number;
  /** Bytes of its lines in the chunks file (documents follow each other in id order there). */
  chunkBytes: number;
  chunkIds: string[];
}

export interface CorpusManifest {
  format: typeof MANIFEST_FORMAT;
  configHash: string;
  configuration: CorpusConfiguration;
  shard: { index: number; count: number } | null;
  totals: { documents: number; chunks: number; bytes: number; failed: number };
  /** Documents that could not be read or chunked in the last run (retried by the next one). */
  failed: { id: string; reason: string }[];
  /** By document id, in id order. */
  documents: Record<string, ManifestDocument>;
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

export function readManifest(path: string): CorpusManifest | null {
  if (!existsSync(path)) return null;
  let manifest: CorpusManifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as CorpusManifest;
  } catch (err) {
    throw new ManifestError(`${path} is not valid JSON (${(err as Error).message.split('\n')[0]}); delete it to start over`);
  }
  if (manifest?.format !== MANIFEST_FORMAT) throw new ManifestError(`${path} is not a chunkscope corpus manifest (format "${String(manifest?.format)}")`);
  return manifest;
}

/** The manifest as pieces of text, one document per line (never one string the size of the whole manifest). */
export function* manifestPieces(head: Omit<CorpusManifest, 'documents'>, documents: Iterable<[string, ManifestDocument]>): Generator<string> {
  yield '{\n';
  for (const key of ['format', 'configHash', 'configuration', 'shard', 'totals', 'failed'] as const) yield `${JSON.stringify(key)}: ${JSON.stringify(head[key])},\n`;
  yield '"documents": {';
  let first = true;
  for (const [id, doc] of documents) {
    yield `${first ? '' : ','}\n${JSON.stringify(id)}: ${JSON.stringify(doc)}`;
    first = false;
  }
  yield '\n}\n}\n';
}

/** changes.json: CorpusChanges plus why everything was re-chunked (or null). */
export function* changesPieces(changes: CorpusChanges, rebuildReason: string | null): Generator<string> {
  yield '{\n';
  yield `"rebuildReason": ${JSON.stringify(rebuildReason)},\n`;
  const keys = ['added', 'changed', 'unchanged', 'deleted', 'deleteChunkIds'] as const;
  for (const [i, key] of keys.entries()) yield `${JSON.stringify(key)}: ${JSON.stringify(changes[key])}${i < keys.length - 1 ? ',' : ''}\n`;
  yield '}\n';
}
