import type { StateCreator } from 'zustand';
import type { ChunkResult } from '../bridge/chunkClient';
import type { LanguageWindows } from '../core/languageWindows';
import type { ChunkOptions } from '../core/types';
import type { SemanticPayload } from '../bridge/embedClient';
import type { ProbeRequest } from '../worker/protocol';

/** A result ready to paint: the worker's arrays plus the exact text they index into. */
export interface PaintableResult extends ChunkResult {
  /** The document text the offsets refer to (strings are immutable: holding it costs nothing). */
  text: string;
  /** The document's serial when the job was asked (documentSlice): another one means a new document has come since. */
  documentSerial: number;
  /** performance.now() at the input event that asked for this job. */
  requestedAt: number;
  /** The options this result was computed with (export reuses them). */
  options: ChunkOptions;
  /** Semantic results: the curve's data (distances, threshold, breakpoints, sentences) and embedder tokens. */
  semantic?: SemanticPayload;
  /** The lab probe the job carried (its ranking is the result's `probe`). */
  probeRequest?: ProbeRequest;
}

export interface TokenCounts {
  jobId: number;
  tokens: Int32Array;
  encoding: string;
  /** Each chunk's word count (the words unit), counted in the chunk worker for the per-language stats. */
  words?: Int32Array;
  /** The document's language windows (found once per document in the chunk worker) for the per-language stats. */
  languages?: LanguageWindows;
  /** The result's orphan bits, when it came without them (the first job on a document). */
  orphans?: Uint8Array;
}

export interface ResultsSlice {
  /** The last good result (kept on screen while a new one runs and while the options are invalid). */
  result: PaintableResult | null;
  tokens: TokenCounts | null;
  /** One-line message for invalid options (or an engine failure); null when the last job succeeded. */
  error: string | null;
  /** 0..1 while a long job runs, null otherwise. */
  progress: number | null;
  running: boolean;
  /** Id of the job whose decorations Monaco shows now. */
  paintedJobId: number;
  setResult: (result: PaintableResult) => void;
  setTokens: (tokens: TokenCounts) => void;
  setError: (message: string) => void;
  setRunning: (running: boolean) => void;
  setProgress: (fraction: number | null) => void;
  setPainted: (jobId: number) => void;
  resetResults: () => void;
}

const initial = { result: null, tokens: null, error: null, progress: null, running: false, paintedJobId: 0 };

export const createResultsSlice: StateCreator<ResultsSlice, [], [], ResultsSlice> = (set) => ({
  ...initial,
  setResult: (result) => set({ result, error: null, running: false, progress: null }),
  setTokens: (tokens) => set((s) => (s.result?.jobId === tokens.jobId ? { tokens } : {})),
  setError: (error) => set({ error, running: false, progress: null }),
  setRunning: (running) => set(running ? { running } : { running, progress: null }),
  setProgress: (progress) => set({ progress }),
  setPainted: (paintedJobId) => set({ paintedJobId }),
  resetResults: () => set(initial),
});
