import type { StoreApi } from 'zustand';
import { toChunkOptions } from './chunkOptions';
import { documentFacts } from './jobs';
import type { LlmPageResult } from './llmSlice';
import type { AppState } from './store';

/** The hook e2e tests (e2e/hook.ts) and the browser benchmark drive the page with: window.__chunkscope. */
export interface ChunkscopeTestHook {
  setDocument(text: string): void;
  /** Replaces the text as an edit in the editor would (the same document: its serial stays). */
  editDocument(text: string): void;
  getDocument(): string;
  getConfig(): object;
  paintedJobId(): number;
  /** The current result's job and chunk boundaries (e2e: the first sample's chunks built ahead, then the worker's). */
  boundaries(): { jobId: number; starts: number[]; ends: number[] } | null;
  /** An LLM run's result, as the LLM panel stores it, for the current document (e2e of the lab's "With LLM" tab). */
  setLlmResult(result: Omit<LlmPageResult, 'documentSerial'> | null): void;
  /** The painted semantic result's curve data, plus timings for the benchmark (embedMs 0: all from the cache). */
  semantic(): {
    distances: number[];
    threshold: number;
    breakpoints: number[];
    backend: string;
    embedMs: number;
    splitMs: number;
    sentencesEmbedded: number;
  } | null;
}

declare global {
  interface Window {
    __chunkscope?: ChunkscopeTestHook;
  }
}

export function testHook(store: StoreApi<AppState>): ChunkscopeTestHook {
  return {
    setDocument: (text) => store.getState().setDocument(text, { name: null }),
    editDocument: (text) => store.getState().setDocument(text, { origin: 'editor' }),
    getDocument: () => store.getState().text,
    getConfig: () => toChunkOptions(store.getState().config, documentFacts(store.getState())),
    paintedJobId: () => store.getState().paintedJobId,
    boundaries: () => {
      const result = store.getState().result;
      return result && { jobId: result.jobId, starts: Array.from(result.starts), ends: Array.from(result.ends) };
    },
    setLlmResult: (result) => store.getState().setLlmResult(result && { ...result, documentSerial: store.getState().documentSerial }),
    semantic: () => {
      const semantic = store.getState().result?.semantic;
      if (!semantic) return null;
      return {
        distances: Array.from(semantic.distances),
        threshold: semantic.threshold,
        breakpoints: Array.from(semantic.breakpoints),
        backend: semantic.embedder.backend,
        embedMs: semantic.embedMs,
        splitMs: semantic.splitMs,
        sentencesEmbedded: semantic.sentencesEmbedded,
      };
    },
  };
}
