import type { StateCreator } from 'zustand';
import type { DocumentSlice } from './documentSlice';

/**
 * The set of open documents (a corpus, as the lab evaluates one). The document slice keeps "the active document"
 * (text, name, page starts): the editor, the chunk worker and share links see only it. This slice keeps the others:
 * switching writes the active text back into its entry and loads the other one with setDocument, so edits survive a
 * switch. One configuration for the whole set (a switch never changes the strategy).
 *
 * `openDocuments` is empty on the one-document page (the usual case: nothing here is used, the page looks as before);
 * otherwise it holds two or more entries and `activeDocument` is the index of the one in the document slice (its
 * entry's text may be older than the live one: `documentTexts` reads the live one).
 */

export interface OpenDocument {
  /** Unique in the set: the file name (a second file of the same name gets " (2)"); the corpus id questions name. */
  name: string;
  text: string;
  pageStarts: number[] | null;
}

export interface NewDocument {
  name: string;
  text: string;
  pageStarts?: number[] | null;
}

export interface DocumentSetSlice {
  openDocuments: OpenDocument[];
  activeDocument: number;
  /**
   * Open documents: with a set open (or a document already shown and `add`), they are added to it (a file of a name
   * already open replaces that entry) and the first one becomes active; otherwise they replace the current document
   * (one file: as the page always did; several: they become the set).
   */
  openDocumentsIn: (docs: readonly NewDocument[], options?: { add?: boolean }) => void;
  switchDocument: (index: number) => void;
  closeDocument: (index: number) => void;
  resetDocumentSet: () => void;
}

/** The name a document without one (pasted text) has in a set. */
export const UNTITLED = 'untitled';

/** `name`, or "name (2)", "name (3)"… so that no two open documents share a name (questions name them). */
export function uniqueName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let i = 2; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

type Reads = Pick<DocumentSlice, 'text' | 'docName' | 'pageStarts' | 'setDocument'>;

/** Each open document's name and live text (the active one's from the document slice); one entry on the one-document page. */
export function documentTexts(s: Reads & Pick<DocumentSetSlice, 'openDocuments' | 'activeDocument'>): { name: string; text: string; active: boolean }[] {
  if (s.openDocuments.length === 0) return [{ name: s.docName ?? UNTITLED, text: s.text, active: true }];
  return s.openDocuments.map((d, i) => (i === s.activeDocument ? { name: d.name, text: s.text, active: true } : { name: d.name, text: d.text, active: false }));
}

/** The active entry brought up to date with the live document (before a switch, a close or an add). */
function withLiveActive(s: Reads & DocumentSetSlice): OpenDocument[] {
  return s.openDocuments.map((d, i) => (i === s.activeDocument ? { ...d, text: s.text, pageStarts: s.pageStarts } : d));
}

export const createDocumentSetSlice: StateCreator<DocumentSetSlice & Reads, [], [], DocumentSetSlice> = (set, get) => ({
  openDocuments: [],
  activeDocument: 0,
  openDocumentsIn: (docs, options = {}) => {
    if (docs.length === 0) return;
    const s = get();
    const inSet = s.openDocuments.length > 0;
    if (!inSet && docs.length === 1 && !options.add) {
      s.setDocument(docs[0]!.text, { name: docs[0]!.name, pageStarts: docs[0]!.pageStarts ?? null });
      return;
    }
    let entries: OpenDocument[] = inSet ? withLiveActive(s) : options.add ? [{ name: s.docName ?? UNTITLED, text: s.text, pageStarts: s.pageStarts }] : [];
    let first = -1;
    for (const doc of docs) {
      const entry: OpenDocument = { name: doc.name, text: doc.text, pageStarts: doc.pageStarts ?? null };
      const same = entries.findIndex((e) => e.name === doc.name);
      if (same >= 0) entries = entries.map((e, i) => (i === same ? entry : e));
      else entries = [...entries, { ...entry, name: uniqueName(doc.name, entries.map((e) => e.name)) }];
      if (first < 0) first = same >= 0 ? same : entries.length - 1;
    }
    if (entries.length < 2) {
      set({ openDocuments: [], activeDocument: 0 });
      s.setDocument(entries[0]!.text, { name: entries[0]!.name, pageStarts: entries[0]!.pageStarts });
      return;
    }
    set({ openDocuments: entries, activeDocument: first });
    s.setDocument(entries[first]!.text, { name: entries[first]!.name, pageStarts: entries[first]!.pageStarts });
  },
  switchDocument: (index) => {
    const s = get();
    if (s.openDocuments.length === 0 || index === s.activeDocument || !s.openDocuments[index]) return;
    const entries = withLiveActive(s);
    set({ openDocuments: entries, activeDocument: index });
    const next = entries[index]!;
    s.setDocument(next.text, { name: next.name, pageStarts: next.pageStarts });
  },
  closeDocument: (index) => {
    const s = get();
    if (!s.openDocuments[index]) return;
    const entries = withLiveActive(s).filter((_, i) => i !== index);
    const wasActive = index === s.activeDocument;
    // The document shown stays shown; closing the shown one shows its neighbour (the one after it, else before).
    const active = wasActive ? Math.min(index, entries.length - 1) : s.activeDocument > index ? s.activeDocument - 1 : s.activeDocument;
    set(entries.length < 2 ? { openDocuments: [], activeDocument: 0 } : { openDocuments: entries, activeDocument: active });
    if (wasActive) {
      const next = entries[active]!;
      s.setDocument(next.text, { name: next.name, pageStarts: next.pageStarts });
    }
  },
  resetDocumentSet: () => set({ openDocuments: [], activeDocument: 0 }),
});
