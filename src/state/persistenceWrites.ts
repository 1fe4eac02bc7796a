import {
  db,
  DB_STORE,
  LEGACY_KEY,
  META_KEY,
  openedDb,
  PART_CHARS,
  partKey,
  partsFrom,
  revisionOf,
  type StoredDocument,
} from './persistence';

/**
 * The document's writes to IndexedDB (persistence.ts reads it, and keeps the synchronous localStorage writes: the
 * settings, the pending edit a page going away leaves): in parts, its revision checked in the same transaction, and
 * the last write as the page goes away. Loaded with the writers (persistenceWriter.ts), after the first paint.
 */


export type SaveOutcome = { ok: true; revision: number } | { ok: false; revision: number };

/** Whether a tab that last saw `baseRevision` may write over `stored`, and the revision the write gets. */
export function saveDecision(stored: number, baseRevision: number, force: boolean): SaveOutcome {
  if (stored > baseRevision && !force) return { ok: false, revision: stored };
  return { ok: true, revision: Math.max(stored, baseRevision) + 1 };
}

/**
 * The stored revision (0: none), to `then`: the meta record's, or the earlier layout's record's where one is left
 * (read whole, once: the save that reads it replaces it).
 */
function readRevision(store: IDBObjectStore, then: (revision: number) => void): void {
  const meta = store.get(META_KEY);
  const legacyKey = store.getKey(LEGACY_KEY);
  // Requests in a transaction succeed in order: the meta record is read by now.
  legacyKey.onsuccess = () => {
    if (legacyKey.result === undefined) return then(revisionOf(meta.result));
    const legacy = store.get(LEGACY_KEY);
    legacy.onsuccess = () => then(Math.max(revisionOf(meta.result), revisionOf(legacy.result)));
  };
}

/**
 * Store `doc` at `revision`: its parts, then the meta record, removing parts left from a longer text and the earlier
 * layout's record. `oneByOne`: each write waits for the one before, so each part is serialized in a task of its own;
 * else all are issued now (pagehide: nothing asynchronous finishes).
 */
function writeDocument(store: IDBObjectStore, doc: StoredDocument, revision: number, oneByOne: boolean): void {
  const parts: string[] = [];
  for (let at = 0; at < doc.text.length; at += PART_CHARS) parts.push(doc.text.slice(at, at + PART_CHARS));
  const meta = { name: doc.name, pageStarts: doc.pageStarts ?? null, revision, parts: parts.length, length: doc.text.length, savedAt: Date.now() };
  const writes: (() => IDBRequest)[] = [
    ...parts.map((part, i) => () => store.put(part, partKey(i))),
    () => store.delete(partsFrom(parts.length)),
    () => store.delete(LEGACY_KEY),
    () => store.put(meta, META_KEY),
  ];
  if (!oneByOne) {
    for (const write of writes) write();
    return;
  }
  let next = 0;
  const writeNext = () => {
    const request = writes[next++]!();
    if (next < writes.length) request.onsuccess = writeNext;
  };
  writeNext();
}

/**
 * Save the document unless another tab saved a newer one since this tab last read or wrote it (`baseRevision`):
 * the check and the write are one readwrite transaction, so two tabs never both win. `force` saves anyway (the
 * person chose to keep this tab's text).
 */
export async function saveDocument(doc: StoredDocument, baseRevision = 0, force = false): Promise<SaveOutcome> {
  const database = await db();
  return new Promise<SaveOutcome>((resolve, reject) => {
    const tx = database.transaction(DB_STORE, 'readwrite');
    const store = tx.objectStore(DB_STORE);
    let outcome: SaveOutcome = { ok: false, revision: baseRevision };
    readRevision(store, (stored) => {
      outcome = saveDecision(stored, baseRevision, force);
      if (outcome.ok) writeDocument(store, doc, outcome.revision, true);
    });
    tx.oncomplete = () => resolve(outcome);
    // A quota error can abort the transaction at commit without a failed request.
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

/**
 * The last save as the page goes away (pagehide): no read first (its answer would come after the page is gone),
 * the write committed at once. The caller knows no newer revision exists (another tab's save is announced to it).
 */
export function saveDocumentNow(doc: StoredDocument, revision: number): void {
  const dbReady = openedDb();
  if (!dbReady) return;
  try {
    const tx = dbReady.transaction(DB_STORE, 'readwrite');
    writeDocument(tx.objectStore(DB_STORE), doc, revision, false);
    tx.commit?.();
  } catch {
    /* the database is closing: the pending copy in localStorage still holds the edit */
  }
}
