import type { StateCreator } from 'zustand';

/**
 * What the page knows about the stored document that other tabs share: whether another tab saved a newer one
 * (then this tab holds its saves until the person chooses: load the newer one, or keep this one).
 */
export interface PersistenceSlice {
  /** Another tab saved revision `revision` after the one this tab last read or wrote; null when none. */
  documentConflict: { revision: number } | null;
  setDocumentConflict: (conflict: { revision: number } | null) => void;
  /** A share link replaced the person's document, which is kept: offer it back until dismissed. */
  previousKept: boolean;
  setPreviousKept: (kept: boolean) => void;
  resetPersistence: () => void;
}

export const createPersistenceSlice: StateCreator<PersistenceSlice, [], [], PersistenceSlice> = (set) => ({
  documentConflict: null,
  setDocumentConflict: (documentConflict) => set({ documentConflict }),
  previousKept: false,
  setPreviousKept: (previousKept) => set({ previousKept }),
  resetPersistence: () => set({ documentConflict: null, previousKept: false }),
});
