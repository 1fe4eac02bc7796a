import type { StateCreator } from 'zustand';

/** Who selected the chunk: the list reveals it in the editor, the editor scrolls the list. */
export type SelectionSource = 'list' | 'editor';

export interface UiSlice {
  selectedIndex: number | null;
  selectionSource: SelectionSource;
  /** A visible, dismissable notice (e.g. stored state was unreadable and was discarded). */
  notice: string | null;
  /** 0..1 while a large document is being put into the editor piece by piece, null otherwise. */
  loadProgress: number | null;
  select: (index: number | null, source: SelectionSource) => void;
  setNotice: (notice: string | null) => void;
  setLoadProgress: (fraction: number | null) => void;
  resetUi: () => void;
}

export const createUiSlice: StateCreator<UiSlice, [], [], UiSlice> = (set) => ({
  selectedIndex: null,
  selectionSource: 'list',
  notice: null,
  loadProgress: null,
  select: (selectedIndex, selectionSource) => set({ selectedIndex, selectionSource }),
  setNotice: (notice) => set({ notice }),
  setLoadProgress: (loadProgress) => set({ loadProgress }),
  resetUi: () => set({ selectedIndex: null, selectionSource: 'list', notice: null, loadProgress: null }),
});
