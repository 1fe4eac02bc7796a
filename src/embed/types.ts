import type { Range } from '../core/types';

/**
 * One interface for every embedding back-end (the built-in static model, hub models through transformers.js),
 * used by the CLI in Node and by the embedding worker in the browser. Core never imports this folder: the
 * semantic splitter receives vectors, not an embedder.
 */

/** 'direct': the built-in model's table lookup in JavaScript (no neural runtime); the others run onnxruntime. */
export type EmbedBackend = 'webgpu' | 'wasm' | 'node' | 'direct';

export interface EmbedderInfo {
  /** 'builtin' or a hub model id such as 'Xenova/all-MiniLM-L6-v2'. */
  id: string;
  label: string;
  dims: number;
  /** Longest input the model reads, in its own tokens (Infinity for the static model). */
  maxTokens: number;
  backend: EmbedBackend;
}

export interface EmbedCallOptions {
  signal?: { aborted: boolean };
  /** Fraction of texts embedded so far (0..1). */
  onProgress?: (fraction: number) => void;
}

export interface Embedder {
  readonly info: EmbedderInfo;
  /** One normalized vector per text. Texts must not be empty or whitespace-only (callers filter them). */
  embed(texts: string[], options?: EmbedCallOptions): Promise<Float32Array[]>;
  /** Tokens of `text` in the model's own tokenizer, without special tokens, with UTF-16 offsets. */
  tokenize(text: string): Range[];
  /**
   * Late chunking: embed the whole text once and return one vector per token (offsets as in `tokenize`).
   * Long texts are embedded in overlapping windows of at most `maxTokens`.
   */
  embedTokens(text: string, options?: EmbedCallOptions): Promise<{ tokens: Range[]; vectors: Float32Array[] }>;
  dispose(): Promise<void>;
}

export interface DownloadProgress {
  file: string;
  loaded: number;
  total: number;
}

export interface CreateEmbedderOptions {
  /** 'builtin' (default) or a hub model id. */
  model?: string;
  /** Folder (Node path or URL path) holding model folders, e.g. public/models/ or /models/. */
  localModelPath?: string;
  /** Hub downloads are only allowed when the user picked a hub model. */
  allowRemote?: boolean;
  onDownloadProgress?: (p: DownloadProgress) => void;
  /** Browser only: 'webgpu' when an adapter exists, else 'wasm' (the worker decides). Node always runs on the CPU. */
  device?: 'wasm' | 'webgpu';
  /** Weights to load (default 'q8', the file the built-in model ships and the hub models' smallest). */
  dtype?: 'q8' | 'fp32' | 'fp16' | 'int8' | 'uint8' | 'q4';
  /**
   * How the built-in model runs: 'direct' (default; its tokenizer rules and a table lookup in JavaScript) or 'onnx'
   * (transformers.js and onnxruntime, as hub models always do). Tests and benchmarks compare the two.
   */
  runtime?: 'direct' | 'onnx';
  /** ONNX path, Node: onnxruntime's intra-op threads per session (default: its own choice; a pool sets 1 per worker). */
  sessionThreads?: number;
}
