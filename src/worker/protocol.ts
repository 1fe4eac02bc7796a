import type { ChunkOptions } from '../core/types';

/**
 * Messages between the main thread (src/bridge) and the chunk worker. Results travel as typed arrays
 * (transferred, not copied): the main thread slices chunk text from its own copy of the document.
 */

export type ExportFormat = 'json' | 'jsonl';

export type WorkerRequest =
  /** The document changes rarely compared to options: send it once per version, not with every job. */
  | { type: 'document'; version: number; text: string }
  | { type: 'chunk'; jobId: number; version: number; options: ChunkOptions }
  /** Token counts (cl100k_base) for the chunks of a finished job, for tooltips; computed after the paint. */
  | { type: 'tokens'; jobId: number }
  | { type: 'export'; requestId: number; jobId: number; version: number; options: ChunkOptions; format: ExportFormat };

export interface ChunkStatsSummary {
  count: number;
  min: number;
  median: number;
  mean: number;
  max: number;
  overLimit: number;
}

export interface ChunkResultPayload {
  jobId: number;
  version: number;
  /** starts[i], ends[i]: UTF-16 offsets of chunk i. */
  starts: Int32Array;
  ends: Int32Array;
  /** Size of each chunk in the chosen unit. */
  sizes: Float64Array;
  /** overlaps[i]: chars shared by chunk i and i + 1 (length count - 1, from offsets). */
  overlaps: Int32Array;
  /** 1 where a chunk is over the limit (one unsplittable piece). */
  oversize: Uint8Array;
  /** 1 where content differs from source.slice(start, end) (compat quirks). */
  contentDiffers: Uint8Array;
  stats: ChunkStatsSummary;
  /** Resolved size limit and unit actually used. */
  limit: number;
  unit: string;
  elapsedMs: number;
}

export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'progress'; jobId: number; fraction: number }
  | ({ type: 'result' } & ChunkResultPayload)
  | { type: 'error'; jobId: number; message: string; field?: string; invalidOptions: boolean }
  | { type: 'tokens'; jobId: number; tokens: Int32Array; encoding: string }
  | { type: 'exported'; requestId: number; text: string }
  | { type: 'export-error'; requestId: number; message: string };
