import type { StateCreator } from 'zustand';

/** Where the latest document change came from: the editor itself, or anything else (sample, file, hook). */
export type DocumentOrigin = 'editor' | 'external';

export interface SetDocumentOptions {
  name?: string | null;
  origin?: DocumentOrigin;
  /** Page starts of an imported PDF; omitted: kept while the text is unchanged, cleared when it changes. */
  pageStarts?: number[] | null;
  /** An editor change that is a document of its own (a paste over the whole text): it gets a new serial. */
  newDocument?: boolean;
}

export interface DocumentSlice {
  text: string;
  /** Increases on every change; results carry the version they were computed on. */
  docVersion: number;
  /** File or sample name (drives the editor's language); null for pasted text. */
  docName: string | null;
  docOrigin: DocumentOrigin;
  /**
   * Which document this is: increases when another document arrives (a sample, a file, a link, a paste over the
   * whole text), not on edits. Notices about a document carry its serial and go when it goes.
   */
  documentSerial: number;
  /**
   * UTF-16 offset where each page starts (first 0), from PDF import; null for other documents. Chunk options
   * carry it so chunks get page numbers. An edit that changes the text clears it: the offsets would be stale
   * (a typed character shifts every later page), and wrong page numbers are worse than none.
   */
  pageStarts: number[] | null;
  /**
   * Opening a PDF drops lines repeated at the top or bottom of most pages (running headers, "Page 3 of 9"):
   * left in, they cut through paragraphs and repeat in every embedding. On by default; the import notice says
   * what was dropped. Applies to the next PDF opened.
   */
  dropPageFurniture: boolean;
  setDocument: (text: string, options?: SetDocumentOptions) => void;
  setDropPageFurniture: (drop: boolean) => void;
  resetDocument: () => void;
}

export const createDocumentSlice: StateCreator<DocumentSlice, [], [], DocumentSlice> = (set) => ({
  text: '',
  docVersion: 0,
  docName: null,
  docOrigin: 'external',
  documentSerial: 0,
  pageStarts: null,
  dropPageFurniture: true,
  setDocument: (text, options = {}) =>
    set((s) => ({
      text,
      docVersion: s.docVersion + 1,
      docName: options.name === undefined ? s.docName : options.name,
      docOrigin: options.origin ?? 'external',
      documentSerial: options.origin !== 'editor' || options.newDocument ? s.documentSerial + 1 : s.documentSerial,
      pageStarts: options.pageStarts !== undefined ? options.pageStarts : text === s.text ? s.pageStarts : null,
    })),
  setDropPageFurniture: (drop) => set({ dropPageFurniture: drop }),
  resetDocument: () =>
    set((s) => ({
      text: '',
      docVersion: s.docVersion + 1,
      docName: null,
      docOrigin: 'external',
      documentSerial: s.documentSerial + 1,
      pageStarts: null,
      dropPageFurniture: true,
    })),
});
