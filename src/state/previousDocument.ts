import type { StoreApi } from 'zustand';
import { PREVIOUS_IN_INDEXED_DB, type PreviousDocumentStorage, type StoredDocument } from './persistence';
import type { AppState } from './store';

/**
 * A share link never replaces the person's document without a way back (issue 29): the document shown before the
 * link opened is kept (IndexedDB, persistence.ts) and the page offers "Restore my previous document" until the person
 * restores or dismisses it, across reloads. The copy in memory answers at once; the stored one outlives the tab.
 */

let storage: PreviousDocumentStorage = PREVIOUS_IN_INDEXED_DB;
let inMemory: StoredDocument | null = null;
/** The write of the kept document: restore and dismiss wait for it, so neither races it. */
let keeping: Promise<void> = Promise.resolve();

/** Tests: keep the previous document somewhere other than IndexedDB. */
export function usePreviousDocumentStorage(next: PreviousDocumentStorage): void {
  storage = next;
  inMemory = null;
  keeping = Promise.resolve();
}

/** Keep `doc` (the document a link is about to replace) and offer it back. */
export function keepPreviousDocument(store: StoreApi<AppState>, doc: StoredDocument): void {
  inMemory = doc;
  store.getState().setPreviousKept(true);
  keeping = storage.keep(doc).catch(() => {
    /* not stored (quota, privacy mode): the copy in memory still answers until the tab closes */
  });
}

/** At start: offer back a document a link replaced in an earlier visit, if one is still kept. */
export async function offerKeptDocument(store: StoreApi<AppState>): Promise<void> {
  if (await storage.has().catch(() => false)) store.getState().setPreviousKept(true);
}

/** "Restore my previous document": it becomes the document again (and is saved as such); the offer ends. */
export async function restorePreviousDocument(store: StoreApi<AppState>): Promise<void> {
  await keeping;
  const doc = inMemory ?? (await storage.read());
  if (doc) store.getState().setDocument(doc.text, { name: doc.name, pageStarts: doc.pageStarts ?? null });
  else store.getState().setNotice('The previous document could not be read back; it was lost from this browser’s storage.');
  await dismissPreviousDocument(store);
}

/** "Dismiss": the kept document is dropped. */
export async function dismissPreviousDocument(store: StoreApi<AppState>): Promise<void> {
  await keeping;
  inMemory = null;
  store.getState().setPreviousKept(false);
  await storage.drop();
}
