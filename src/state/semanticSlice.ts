import type { StateCreator } from 'zustand';
import type { BackendInfo } from '../bridge/embedClient';

/** What the page shows about the embedding worker, besides results: progress, backend, the curve's hover. */
export interface EmbedProgress {
  stage: 'loading' | 'embedding' | 'downloading';
  /** 0..1 (embedding: texts done; downloading: bytes). */
  fraction: number;
  loaded?: number;
  total?: number;
  file?: string;
}

export interface SemanticSlice {
  embedProgress: EmbedProgress | null;
  /** Where the model runs (WASM with its thread count, WebGPU): null until a model has loaded. */
  embedBackend: BackendInfo | null;
  /** Sentence gap the pointer is on in the similarity curve (the editor highlights that sentence pair). */
  hoveredGap: number | null;
  /** A gap to reveal in the editor (clicked in the curve); `seq` makes the same gap clickable twice. */
  revealGap: { gap: number; seq: number } | null;
  /** Each chunk's length in the embedding model's tokens and where the model stops reading (-1: all read). */
  embedderTokens: { jobId: number; counts: Int32Array; truncatedAt: Int32Array } | null;
  /** Model folders the user picked this session (ids "local/<name>"). */
  localModels: string[];
  setEmbedProgress: (p: EmbedProgress | null) => void;
  setEmbedBackend: (b: SemanticSlice['embedBackend']) => void;
  setEmbedderTokens: (t: SemanticSlice['embedderTokens']) => void;
  setHoveredGap: (gap: number | null) => void;
  requestRevealGap: (gap: number) => void;
  addLocalModel: (id: string) => void;
  resetSemantic: () => void;
}

const initial = {
  embedProgress: null,
  embedBackend: null,
  hoveredGap: null,
  revealGap: null,
  embedderTokens: null,
  localModels: [] as string[],
};

export const createSemanticSlice: StateCreator<SemanticSlice, [], [], SemanticSlice> = (set) => ({
  ...initial,
  setEmbedProgress: (embedProgress) => set({ embedProgress }),
  setEmbedBackend: (embedBackend) => set({ embedBackend }),
  setEmbedderTokens: (embedderTokens) => set({ embedderTokens }),
  setHoveredGap: (hoveredGap) => set((s) => (s.hoveredGap === hoveredGap ? {} : { hoveredGap })),
  requestRevealGap: (gap) => set((s) => ({ revealGap: { gap, seq: (s.revealGap?.seq ?? 0) + 1 } })),
  addLocalModel: (id) => set((s) => (s.localModels.includes(id) ? {} : { localModels: [...s.localModels, id] })),
  resetSemantic: () => set(initial),
});
