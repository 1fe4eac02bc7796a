import type { ChunkOptions } from '../core/types';
import type { ChunkResultPayload, ExportFormat } from './protocol';

/**
 * Messages between the main thread (src/bridge/embedClient.ts) and the embedding worker. The embedding worker is
 * expensive to start (runtime + model load), so it is never killed to cancel work: jobs are cancelled by id.
 */

export type EmbedDevice = 'webgpu' | 'wasm';

/** Browser facts the worker cannot see itself or that the user chose. */
export interface EmbedSettings {
  /** The user picked a hub model: only then may the worker download. */
  allowRemote: boolean;
}

/** A model folder the user picked on disk: its files, by path relative to the folder. */
export interface LocalModelFiles {
  name: string;
  files: { path: string; file: Blob }[];
}

export type EmbedRequest =
  | { type: 'document'; version: number; text: string }
  | { type: 'semantic'; jobId: number; version: number; options: ChunkOptions; settings: EmbedSettings }
  /** Stop the embedding that job `jobId` waits on (the last good result stays on the page). */
  | { type: 'cancel'; jobId: number }
  | { type: 'tokens'; jobId: number }
  | { type: 'export'; requestId: number; jobId: number; version: number; format: ExportFormat }
  | { type: 'local-model'; model: LocalModelFiles }
  /** Late chunking: similarity of `query` with each chunk of job `jobId`, naive and late-chunked. */
  | { type: 'late'; requestId: number; jobId: number; query: string };

export interface EmbedderSummary {
  id: string;
  label: string;
  dims: number;
  maxTokens: number;
  backend: 'webgpu' | 'wasm' | 'node';
  /** Threads in the WASM pool (more than 1 only when the page is cross-origin isolated); 0 on WebGPU. */
  threads: number;
  /** The page is cross-origin isolated (SharedArrayBuffer, so WASM threads are possible). */
  isolated: boolean;
}

/** What the similarity curve and the test hook need, besides the chunks. */
export interface SemanticPayload {
  /** 1 − cosine at every sentence gap (NaN where there is none). */
  distances: Float64Array;
  /** The values the threshold was compared with (the distances, or their gradient). */
  values: Float64Array;
  comparedWith: 'distance' | 'gradient';
  threshold: number;
  /** Gaps cut on semantic grounds, ascending. */
  breakpoints: Int32Array;
  /** Sentence i as UTF-16 offsets; gap i lies between sentence i and i + 1. */
  sentenceStarts: Int32Array;
  sentenceEnds: Int32Array;
  notes: string[];
  embedder: EmbedderSummary;
  /** Milliseconds: embedding (0 when every vector came from the cache), analysis, re-split. */
  embedMs: number;
  splitMs: number;
  sentencesEmbedded: number;
}

export type EmbedResponse =
  | { type: 'ready' }
  | { type: 'backend'; backend: EmbedderSummary['backend']; threads: number; isolated: boolean }
  | { type: 'progress'; jobId: number; stage: 'embedding' | 'loading'; fraction: number }
  | { type: 'download'; jobId: number; file: string; loaded: number; total: number }
  | ({ type: 'result' } & ChunkResultPayload & { semantic: SemanticPayload })
  | { type: 'error'; jobId: number; message: string; invalidOptions: boolean; cancelled?: boolean; field?: string }
  /** A hub model could not be loaded: the worker fell back to the built-in model (one line for the page). */
  | { type: 'fallback'; jobId: number; message: string }
  | { type: 'tokens'; jobId: number; tokens: Int32Array; encoding: string }
  /**
   * After a result, off the threshold-drag path: each chunk's size in the embedding model's own tokens, and the
   * document offset where the model stops reading it (-1: it reads all of it).
   */
  | { type: 'embedder-tokens'; jobId: number; counts: Int32Array; truncatedAt: Int32Array }
  | { type: 'exported'; requestId: number; text: string }
  | { type: 'export-error'; requestId: number; message: string }
  | { type: 'local-model'; id: string; ok: boolean; message: string }
  | { type: 'late'; requestId: number; naive: Float64Array; late: Float64Array; model: string; note: string | null }
  | { type: 'late-error'; requestId: number; message: string };
