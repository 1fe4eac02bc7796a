import type { StateCreator } from 'zustand';

/** Where the latest document change came from: the editor itself, or anything else (sample, file, hook). */
export type DocumentOrigin = 'editor' | 'external';

export interface DocumentSlice {
  text: string;
  /** Increases on every change; results carry the version they were computed on. */
  docVersion: number;
  /** File or sample name (drives the editor's language); null for pasted text. */
  docName: string | null;
  docOrigin: DocumentOrigin;
  setDocument: (text: string, options?: { name?: string | null; origin?: DocumentOrigin }) => void;
  resetDocument: () => void;
}

export const createDocumentSlice: StateCreator<DocumentSlice, [], [], DocumentSlice> = (set) => ({
  text: '',
  docVersion: 0,
  docName: null,
  docOrigin: 'external',
  setDocument: (text, options = {}) =>
    set((s) => ({
      text,
      docVersion: s.docVersion + 1,
      docName: options.name === undefined ? s.docName : options.name,
      docOrigin: options.origin ?? 'external',
    })),
  resetDocument: () => set((s) => ({ text: '', docVersion: s.docVersion + 1, docName: null, docOrigin: 'external' })),
});
