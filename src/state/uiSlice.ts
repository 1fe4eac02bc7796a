import type { StateCreator } from 'zustand';

/** Who selected the chunk: the list reveals it in the editor, the editor scrolls the list. */
export type SelectionSource = 'list' | 'editor';

export interface UiSlice {
  selectedIndex: number | null;
  selectionSource: SelectionSource;
  /** A visible, dismissable notice (e.g. stored state was unreadable and was discarded). */
  notice: string | null;
  /** The documentSerial of the document the notice is about (it goes when that document goes); null: the page's. */
  noticeFor: number | null;
  /** 0..1 while a large document is being put into the editor piece by piece, null otherwise. */
  loadProgress: number | null;
  /** Injected text in the editor: shown in full or collapsed to a mark; null: collapsed in projector mode only. */
  injectedShown: boolean | null;
  /** The document (its serial) the person asked to edit though it is over the read-only view's size. */
  editLargeSerial: number | null;
  /** Puts the document shown read-only into the editor. */
  editLargeDocument: () => void;
  setInjectedShown: (shown: boolean | null) => void;
  select: (index: number | null, source: SelectionSource) => void;
  /** A notice about the document shown now, or with `{ page: true }` one about the page that outlives it. */
  setNotice: (notice: string | null, scope?: { page: true }) => void;
  setLoadProgress: (fraction: number | null) => void;
  resetUi: () => void;
}

/** The slice reads the document's serial (documentSlice) to tie a notice to its document. */
export const createUiSlice: StateCreator<UiSlice & { documentSerial: number }, [], [], UiSlice> = (set, get) => ({
  selectedIndex: null,
  selectionSource: 'list',
  notice: null,
  noticeFor: null,
  loadProgress: null,
  injectedShown: null,
  editLargeSerial: null,
  editLargeDocument: () => set({ editLargeSerial: get().documentSerial }),
  setInjectedShown: (injectedShown) => set({ injectedShown }),
  select: (selectedIndex, selectionSource) => set({ selectedIndex, selectionSource }),
  setNotice: (notice, scope) => set({ notice, noticeFor: scope?.page ? null : get().documentSerial }),
  setLoadProgress: (loadProgress) => set({ loadProgress }),
  resetUi: () => set({ selectedIndex: null, selectionSource: 'list', notice: null, noticeFor: null, loadProgress: null, injectedShown: null }),
});
