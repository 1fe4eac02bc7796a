/**
 * The embedding worker's two APIs (through src/worker/rpc.ts): one for the page (src/bridge/embedClient.ts), one
 * served on each MessagePort a chunk worker holds (the semantic strategy's `hooks.embed`). The embedding worker is
 * expensive to start (runtime + model load), so it is never killed to cancel work: jobs are cancelled by id (the
 * chunk job's id: one counter for the whole page).
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

export interface EmbedderSummary {
  id: string;
  label: string;
  dims: number;
  maxTokens: number;
  backend: 'webgpu' | 'wasm' | 'node' | 'direct';
  /** Threads in the WASM pool (more than 1 only when the page is cross-origin isolated); 0 on WebGPU. */
  threads: number;
  /** The page is cross-origin isolated (SharedArrayBuffer, so WASM threads are possible). */
  isolated: boolean;
  /** Why a hub model runs on WASM rather than WebGPU (no adapter, a failed WebGPU load); absent otherwise. */
  note?: string;
}

/** What the similarity curve and the test hook need, besides the chunks. */
export interface SemanticPayload {
  /** Which analysis the curve arrays come from (a serial of the worker): a re-split keeps the analysis. */
  analysis: number;
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

/** Served on a chunk worker's port. */
export interface EmbedPortApi {
  /** One vector per text, packed: vector i is `vectors.subarray(i * dims, (i + 1) * dims)`. Rejects with an error
   * named 'EmbedCancelled' when the page cancelled job `jobId` (or a later one). */
  embed(input: { jobId: number; model: string; texts: string[]; settings: EmbedSettings }): Promise<{
    vectors: Float32Array;
    dims: number;
    embedder: EmbedderSummary;
  }>;
  /** The model's summary (loads it if needed). */
  info(input: { jobId: number; model: string; settings: EmbedSettings }): Promise<EmbedderSummary>;
  /** Tokens of `text` in the model's tokenizer (UTF-16 offsets); empty when its tokenizer gives no offsets. */
  tokenize(input: { model: string; text: string }): Promise<{ starts: Int32Array; ends: Int32Array }>;
}

export interface LateAnswer {
  naive: Float64Array;
  late: Float64Array;
  note: string | null;
}

/** Served to the page. */
export interface EmbedMainApi {
  /** Serve EmbedPortApi on this port (a chunk worker holds the other end). */
  connect(input: { port: MessagePort }): Promise<void>;
  /** Stop the embedding that job `jobId` (or an earlier one) waits on; the page keeps its last good result. */
  cancel(input: { jobId: number }): Promise<void>;
  /** A picked model folder; resolves with the embedder id to select ("local/<name>"). */
  addLocalModel(input: LocalModelFiles): Promise<{ id: string; message: string }>;
  /** Late chunking: similarity of `query` with each chunk [starts[i], ends[i]) of `text`, naive and late-chunked. */
  late(input: { model: string; version: number; text: string; starts: Int32Array; ends: Int32Array; query: string }): Promise<LateAnswer>;
}

/** Events the embedding worker sends the page. */
export interface EmbedEvents {
  backend: Pick<EmbedderSummary, 'backend' | 'threads' | 'isolated' | 'note'>;
  progress: { jobId: number; stage: 'embedding' | 'loading'; fraction: number };
  download: { jobId: number; file: string; loaded: number; total: number };
  /** A hub model could not be loaded: the page switches to the built-in model (one line for the page). */
  fallback: { jobId: number; message: string };
  /** Something the page should say in one line (a damaged cached record was discarded and recomputed). */
  notice: { jobId: number; message: string };
}
