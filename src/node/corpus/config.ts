/**
 * The versioned configuration of a corpus run, its hash, chunk ids and shard assignment: all sha256, so any
 * machine computes the same values for the same documents and options.
 */
import { createHash } from 'node:crypto';
import { optionsKey, validateOptions } from '../../core/index';
import { CHUNKER_NAME, CHUNKER_VERSION } from '../../core/version';
import type { Chunk, ChunkOptions } from '../../core/types';
import type { FeatureSettings } from '../../core/llm/feature';
import type { CorpusChunkRecord } from './record';

export const MANIFEST_FORMAT = 'chunkscope-corpus-manifest/1' as const;

/** What shapes every chunk of a run: written into the manifest, hashed into configHash. */
export interface CorpusConfiguration {
  engine: string;
  engineVersion: string;
  /** The options as given (flags or library keys), without per-document values (path, document id, pages). */
  options: ChunkOptions;
  /** The engine's canonical key of the options that shape chunks (src/core/chunk.ts optionsKey). */
  optionsKey: string;
  /** How documents are read (PDF page furniture dropped or kept). */
  reader: { dropPageFurniture: boolean };
  /** The LLM feature that shapes the chunks, when there is one (what decides its answers; never the key). */
  llm?: CorpusLlmIdentity;
}

/**
 * An LLM feature in a corpus run (src/node/llm.ts runLlm), as the CLI's --llm flags give it. Plain data: it goes to
 * the worker threads. The key stays in memory; the cache is a directory (one file per answer, written atomically,
 * so threads and runs share it) or null for none.
 */
export interface CorpusLlm {
  feature: string;
  provider?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  cacheDir: string | null;
  /** Requests at once per worker thread. */
  concurrency?: number;
  timeoutMs?: number;
  structuredOutput?: boolean;
  settings?: FeatureSettings;
}

/**
 * What of an LLM feature goes into the configuration (and its hash): what the answer cache keys on (provider,
 * model; the prompt follows from the feature and its settings) and the request's shape. Not the endpoint (the
 * cache does not key on it either), the key, concurrency or timeout.
 */
export type CorpusLlmIdentity = { feature: string; provider: string; model: string; structuredOutput: boolean; settings: FeatureSettings };

export function llmIdentity(llm: CorpusLlm): CorpusLlmIdentity {
  return { feature: llm.feature, provider: llm.provider ?? 'openai-compatible', model: llm.model ?? '', structuredOutput: llm.structuredOutput !== false, settings: llm.settings ?? {} };
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The run's configuration; bad options throw the engine's one-line ChunkOptionsError. */
export function corpusConfiguration(options: ChunkOptions, reader: { dropPageFurniture: boolean }, llm?: CorpusLlm | null): CorpusConfiguration {
  const { path: _path, documentId: _id, pageStarts: _pages, ...shared } = options;
  const config: CorpusConfiguration = { engine: CHUNKER_NAME, engineVersion: CHUNKER_VERSION, options: shared, optionsKey: optionsKey(validateOptions(shared)), reader };
  return llm ? { ...config, llm: llmIdentity(llm) } : config;
}

/** Without an LLM feature, the same hash as before features existed (runs made then stay incremental). */
export function configHashOf(config: CorpusConfiguration): string {
  return sha256(JSON.stringify([config.engine, config.engineVersion, config.optionsKey, config.reader.dropPageFurniture, ...(config.llm ? [config.llm] : [])]));
}

/**
 * The hash for options applied to text as given (the JSONL filter mode, eval's check of a LanceDB index): the
 * corpus command's hash for the same options without --drop-page-furniture. `engineVersion`: tests pin it.
 */
export function textConfigHash(options: ChunkOptions, engineVersion: string = CHUNKER_VERSION): string {
  return configHashOf({ ...corpusConfiguration(options, { dropPageFurniture: false }), engineVersion });
}

/** Why a previous run's chunks cannot be kept under `next`, or null when the configuration is the same. */
export function configurationChange(previous: CorpusConfiguration, next: CorpusConfiguration): string | null {
  if (configHashOf(previous) === configHashOf(next)) return null;
  const parts: string[] = [];
  if (previous.engineVersion !== next.engineVersion) parts.push(`engine ${previous.engineVersion} → ${next.engineVersion}`);
  // The resolved options that shape chunks (the options key), defaults included: "size 1000 → 500".
  const before = new Map(JSON.parse(previous.optionsKey) as [string, unknown][]);
  const after = new Map(JSON.parse(next.optionsKey) as [string, unknown][]);
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = JSON.stringify(before.get(key) ?? null);
    const b = JSON.stringify(after.get(key) ?? null);
    if (a !== b) parts.push(`${key} ${a} → ${b}`);
  }
  const [llmBefore, llmAfter] = [JSON.stringify(previous.llm ?? null), JSON.stringify(next.llm ?? null)];
  if (llmBefore !== llmAfter) parts.push(`llm ${llmBefore} → ${llmAfter}`);
  if (previous.reader.dropPageFurniture !== next.reader.dropPageFurniture) parts.push(`drop-page-furniture ${previous.reader.dropPageFurniture} → ${next.reader.dropPageFurniture}`);
  return `the configuration changed (${parts.join(', ') || 'options key'})`;
}

/**
 * A chunk's id: sha256 of document id, configuration hash, retrieval level and span. `taken` holds the ids
 * already given in this document, so two chunks on one span (rare) get distinct ids, in order.
 */
export function corpusChunkId(documentId: string, configHash: string, level: number | undefined, start: number, end: number, taken: Set<string>): string {
  const base = `${documentId}\u0000${configHash}\u0000${level ?? ''}\u0000${start}\u0000${end}`;
  let id = sha256(base);
  for (let n = 1; taken.has(id); n++) id = sha256(`${base}\u0000${n}`);
  taken.add(id);
  return id;
}

/**
 * One document's chunks as chunks.jsonl records (keys in the record's order), for the corpus command and the JSONL
 * filter mode alike: each chunk's metadata is `documentMetadata` (the filter's input line's) first, then the
 * engine's and the chunk's size; a retrieval unit's `parentId` names its parent by the parent's chunkId (parents
 * come before their children in the engine's order, src/core/chunk.ts), so a store can fetch it from the same table.
 */
export function* corpusRecords(documentId: string, configHash: string, chunks: readonly Chunk[], documentMetadata: Record<string, unknown> = {}): Generator<CorpusChunkRecord> {
  const taken = new Set<string>();
  const byEngineId = new Map<string, string>();
  for (const c of chunks) {
    const chunkId = corpusChunkId(documentId, configHash, c.metadata.level, c.start, c.end, taken);
    byEngineId.set(c.id, chunkId);
    const metadata: Record<string, unknown> = { ...documentMetadata, ...c.metadata, size: c.size };
    if (typeof metadata.parentId === 'string') metadata.parentId = byEngineId.get(metadata.parentId) ?? metadata.parentId;
    yield { documentId, chunkId, index: c.index, start: c.start, end: c.end, text: c.text, content: c.content, metadata, configHash };
  }
}

/** Which of `count` shards a document belongs to: the first 32 bits of sha256(documentId), modulo count. */
export function shardOf(documentId: string, count: number): number {
  return createHash('sha256').update(documentId).digest().readUInt32BE(0) % count;
}

/** The file-name part of a shard: `00003-of-00016`. */
export const shardSuffix = (index: number, count: number): string => `${String(index).padStart(5, '0')}-of-${String(count).padStart(5, '0')}`;
