import type { EvalResult } from '../core/eval/evaluate';
import type { DerivedRetrieval } from '../core/eval/derived';
import type { EvalSettings } from '../core/eval/options';
import type { GoldenQuestion } from '../core/eval/types';
import type { LanguageWindows } from '../core/languageWindows';
import type { Chunk, ChunkOptions } from '../core/types';

import type { EmbedderSummary, SemanticPayload } from './embedProtocol';

/**
 * The chunk worker's API (called through src/worker/rpc.ts by src/bridge/chunkClient.ts). Results travel as typed
 * arrays (transferred, not copied): the main thread slices chunk text from its own copy of the document. The worker
 * runs core's chunk() for every strategy; the semantic strategy's embeddings come from the embedding worker over a
 * MessagePort (connectEmbedder), so vectors never pass through the main thread.
 */

export type ExportFormat = 'json' | 'jsonl';

export interface ChunkJob {
  jobId: number;
  /** The document version the job runs on. */
  version: number;
  options: ChunkOptions;
  /** The lab's query probe, ranked over the new chunks before the job answers (see ProbeRequest). */
  probe?: ProbeRequest;
}

/**
 * A probe that rides along with a chunk job: when the lab is open with a question and a lexical retriever, a
 * slider move's ranking comes back in the same answer as its chunks (one round trip and one paint instead of
 * two). Dense and hybrid probes stay separate calls: embedding new chunks must never delay the chunks' paint.
 */
export interface ProbeRequest {
  query: string;
  settings: LabSettings;
}

/** A chunk job's answer; `semantic` for strategies that report an analysis (the similarity curve); `probe` (or
 * `probeError`) when the job carried a ProbeRequest. */
export type ChunkWorkerResult = ChunkResultPayload & { semantic?: SemanticPayload; probe?: ProbePayload; probeError?: string };

export interface TokenCountsPayload {
  jobId: number;
  tokens: Int32Array;
  encoding: string;
  /** Each chunk's word count (the words unit; the page's per-language stats). */
  words: Int32Array;
  /** The document's language windows (the page's per-language stats). */
  languages: LanguageWindows;
  /** Per leaf, core's orphanBits, when the chunk result did not carry them (the first job on a document). */
  orphans?: Uint8Array;
}

export interface EmbedderTokensPayload {
  jobId: number;
  /** Each chunk's size in the embedding model's own tokens. */
  counts: Int32Array;
  /** Document offset where the model stops reading the chunk (-1: it reads all of it). */
  truncatedAt: Int32Array;
}

export interface ChunkWorkerApi extends ChunkWorkerLabApi {
  /** The document changes rarely compared to options: sent once per version, applied in order with the jobs. A large
   * one comes in parts, every part but the last with `more` (see DOCUMENT_PART_CHARS in the bridge). */
  document(input: { version: number; text: string; more?: boolean }): Promise<void>;
  /** One end of a MessageChannel whose other end the embedding worker serves (sent after every (re)start of either
   * worker); `reason` fails the embed calls still waiting on the previous port (that embedding worker died). */
  connectEmbedder(input: { port: MessagePort; reason?: string }): Promise<void>;
  chunk(input: ChunkJob): Promise<ChunkWorkerResult>;
  /** A newer job waits in the page: a job of at most `jobId` that waits on embeddings stops now (its answer would be
   * dropped). Synchronous work cannot hear this: the page restarts the worker for that. */
  supersede(input: { jobId: number }): Promise<void>;
  /** Token counts of a finished job's chunks (for tooltips; cl100k_base unless the unit is a token encoding); null
   * when the job is no longer the worker's last one or a newer job arrived meanwhile. */
  tokens(input: { jobId: number }): Promise<TokenCountsPayload | null>;
  /** Semantic jobs: each chunk's size in the embedding model's tokens; null when not semantic or superseded. */
  embedderTokens(input: { jobId: number }): Promise<EmbedderTokensPayload | null>;
  /** formatChunks output for a job's chunks (recomputed when the worker no longer holds them and the document is
   * still at `version`). */
  export(input: { jobId: number; version: number; options: ChunkOptions; format: ExportFormat }): Promise<string>;
}

/** Events the chunk worker sends the page. */
export interface ChunkWorkerEvents {
  progress: { jobId: number; fraction: number };
  /** The worker is about to ask the embedding worker for something: the page starts it if it has not yet (the call
   * waits in the port meanwhile). */
  embedder: { jobId: number };
}

/** The fields of a failed chunk job's error (a RemoteError's `data`). */
export interface ChunkJobFailure {
  invalidOptions: boolean;
  field?: string;
  /** The user cancelled the embedding this job waited on. */
  cancelled?: boolean;
}

export type { EmbedderSummary, SemanticPayload };

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
  /** Per leaf, core's orphanBits (mid-sentence starts and ends, heading-only): flagged in the worker, whose
   * document cache keeps the sentence edges, so a slider move never segments the document on the main thread.
   * Absent on the first job on a document (the token counts bring them: segmenting is off the first paint's path). */
  orphans?: Uint8Array;
  /** Structure-aware strategies and retrieval units only (absent for the plain strategies): see PackedStructure. */
  structure?: PackedStructure;
  stats: ChunkStatsSummary;
  /** Resolved size limit and unit actually used. */
  limit: number;
  unit: string;
  elapsedMs: number;
}

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

// ---- Evaluation lab (query probe, golden-set runs, sweeps, the pinned configuration) ----

/** The evaluation settings a lab call runs with (the option table's `eval` rows, resolved). */
export type LabSettings = EvalSettings;

/** One unit a probe retrieved: its span (a parent, a window or the chunk) and the leaves that matched. */
export interface ProbeHitPayload {
  rank: number;
  score: number;
  start: number;
  end: number;
  /** Index of the unit among the painted leaves; -1 when the unit is a parent or a sentence window. */
  leaf: number;
  /** 'chunk' (plain), 'parent' (parent–child: children matched) or 'window' (sentence windows: sentences matched). */
  kind: 'chunk' | 'parent' | 'window';
  /** The matched leaves (children, sentences; the chunk itself), best first. */
  matched: { leaf: number; start: number; end: number; score: number }[];
}

export interface ProbePayload {
  jobId: number;
  query: string;
  hits: ProbeHitPayload[];
  /** How many units matched at all (BM25: sharing a word). */
  matched: number;
  units: number;
  /** Time spent in the worker: building (or reusing) the index, ranking. */
  indexMs: number;
  searchMs: number;
}

export interface LabEvaluateInput {
  /** Evaluate the chunks of this finished job (the painted ones) ... */
  jobId?: number;
  /** ... or chunk the worker's document with these options first (the pinned configuration, a sweep row). */
  options?: ChunkOptions;
  questions: GoldenQuestion[];
  settings: LabSettings;
  /** Only the means and the index cost (a sweep row): no per-question detail. */
  summary?: boolean;
  /** Send the leaves' offsets back (the pinned configuration's boundaries). */
  ranges?: boolean;
  /** Score these chunks an LLM feature made over the job's document instead (propositions by their support, summaries
   * flat or two-stage: core/eval/derived.ts); with `jobId`. */
  derived?: { chunks: Chunk[]; retrieval: DerivedRetrieval };
  /**
   * Several open documents, evaluated as one index: the job's (or `options`') document is `active`, the others are
   * chunked with their own options (memoized per text and options in the worker). Questions keep their corpusId.
   */
  corpus?: { active: string; others: LabCorpusDocument[] };
}

/** Another open document of the lab's corpus. */
export interface LabCorpusDocument {
  id: string;
  text: string;
  options: ChunkOptions;
}

export interface LabEvaluatePayload {
  result: Omit<EvalResult, 'timings'> & { timings: { indexMs: number; searchMs: number } };
  /** With `ranges`: the leaves' offsets. */
  starts?: Int32Array;
  ends?: Int32Array;
  /** Leaf index of each chunk (index into the chunk list) the result's `chunk` fields name; -1: not a leaf. */
  leafOf?: Int32Array;
}

export interface ChunkWorkerLabApi {
  /** The top k units for `query` over the chunks of finished job `jobId` (null: no longer the worker's last job).
   * The index is built once per (job, settings): a new query on the same chunks only ranks. */
  probe(input: { jobId: number; query: string; settings: LabSettings }): Promise<ProbePayload | null>;
  /** A golden set over the painted chunks (jobId) or over a configuration's chunks (options). */
  evaluate(input: LabEvaluateInput): Promise<LabEvaluatePayload | null>;
}
