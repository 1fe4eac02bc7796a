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
  /** starts[i], ends[i]: UTF-16 offsets of chunk i. With retrieval units these arrays hold the LEAVES only (the
   * chunks a pipeline embeds, in document order); the enclosing units are in `structure.parents`. */
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
  /** Structure-aware strategies and retrieval units only (absent for the plain strategies): see PackedStructure. */
  structure?: PackedStructure;
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

/** contentTypes codes (ContentType in src/core/types.ts). */
export const CONTENT_TYPE_CODES = ['text', 'table', 'code'] as const;

/**
 * The structure metadata of a result, as flat arrays indexed like the leaf arrays (i = leaf index). Repeated
 * strings travel once: heading paths and strings (prefixes, captions, contents) are deduplicated tables, and the
 * per-chunk arrays hold an index into them (-1: none). Only the fields some chunk has are sent.
 */
export interface PackedStructure {
  /** Distinct heading paths (each outermost first). */
  paths: string[][];
  /** Index into `paths` per leaf; -1 when the chunk has no headingPath. */
  pathIndex: Int32Array;
  /** Index into CONTENT_TYPE_CODES per leaf (0 = text, also when unset). */
  contentTypes?: Uint8Array;
  /** Distinct prefix, caption and content strings. */
  strings: string[];
  /** Injected prefix (contextual header, repeated table header) per leaf: index into `strings`, -1 none. */
  prefixIndex?: Int32Array;
  /** Size of the prefix in the unit (part of `sizes`). */
  prefixSizes?: Float64Array;
  /** Table caption per leaf: index into `strings`, -1 none. */
  captionIndex?: Int32Array;
  /** What is embedded, only where it is NOT prefix + source span (rows as text, compat quirks): index into
   * `strings`, -1 where content === (prefix ?? '') + text. */
  contentIndex?: Int32Array;
  /** First and last page (1-based) per leaf; 0 when unknown. */
  pageFirst?: Int32Array;
  pageLast?: Int32Array;
  /** Sentence windows: the window's source span per leaf; -1 when the chunk has none. */
  windowStarts?: Int32Array;
  windowEnds?: Int32Array;
  /** Retrieval units: the enclosing units, in pre-order (so starts never decrease). */
  parents?: PackedParents;
  /** Index into `parents` of each leaf's direct parent; -1 at the top. */
  leafParent?: Int32Array;
  /** Retrieval level of each leaf (0 outermost). */
  leafLevel?: Int32Array;
}

export interface PackedParents {
  starts: Int32Array;
  ends: Int32Array;
  sizes: Float64Array;
  levels: Int32Array;
  /** Index into the parents arrays of the parent's own parent; -1 at the top. */
  parent: Int32Array;
  /** Index into `paths`; -1 none. */
  pathIndex: Int32Array;
}
