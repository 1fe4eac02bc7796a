import type { StateCreator } from 'zustand';

/**
 * A hub model a link names is downloaded only after the person agrees: until then the page keeps the model it had
 * (the built-in one, usually) and asks. Models that are local (built-in, a picked folder, self-hosted under
 * /models) or already in the browser's cache need no question.
 */
export interface EmbedderConsentSlice {
  /** The hub model id a link asked for, waiting for the person's answer; null when nothing waits. */
  embedderToConfirm: string | null;
  setEmbedderToConfirm: (id: string | null) => void;
  resetEmbedderConsent: () => void;
}

export const createEmbedderConsentSlice: StateCreator<EmbedderConsentSlice, [], [], EmbedderConsentSlice> = (set) => ({
  embedderToConfirm: null,
  setEmbedderToConfirm: (embedderToConfirm) => set({ embedderToConfirm }),
  resetEmbedderConsent: () => set({ embedderToConfirm: null }),
});
