import type { Config } from './configSlice';

/**
 * What survives a reload: settings in localStorage (small, synchronous), the document in IndexedDB (it can be
 * 10 MiB; localStorage caps near 5 MB and blocks the main thread). Stored state that does not parse is
 * discarded and reported, never half-applied. Settings are the Config under the option table's names, each field
 * checked by the table's kind; settings the previous version stored under older names are migrated first
 * (urlMigration.ts).
 * This file reads (at start, and the document a link replaced); the writes are in persistenceWrites.ts, loaded with
 * the writers (persistenceWriter.ts) after the first paint.
 */

export const SETTINGS_KEY = 'chunkscope.settings.v1';
const DB_NAME = 'chunkscope';
export const DB_STORE = 'documents';
/** The document as one record {text, name, pageStarts, revision} (the layout before parts): still read, replaced by
 * the next save. */
export const LEGACY_KEY = 'current';
/** The stored document's name, page starts, revision and part count: a few bytes, so a save checks the revision
 * without reading the text. */
export const META_KEY = 'current.meta';
/** Part i of the stored text is the string under [PART_KEY, i]. */
const PART_KEY = 'current.part';
/** The person's document as it was before a share link replaced it (one record, kept until restored or dismissed). */
const PREVIOUS_KEY = 'previous';
/**
 * Characters per stored part. IndexedDB serializes a value on the main thread when it is put (about 50 ms for a
 * 10 MiB string here) and again when its result is read: a part is a few milliseconds, one per task. Parts may end
 * inside a surrogate pair (structured clone keeps lone surrogates; joined, the text is whole again).
 */
export const PART_CHARS = 1 << 19;

export function serializeSettings(config: Config): string {
  return JSON.stringify(config);
}

export function saveSettings(storage: Storage, config: Config): void {
  try {
    storage.setItem(SETTINGS_KEY, serializeSettings(config));
  } catch {
    /* quota or privacy mode: settings simply do not persist */
  }
}

/** Whether settings are stored (then storedSettings.ts reads and checks them; a first visit has none). */
export function hasStoredSettings(storage: Storage): boolean {
  try {
    return storage.getItem(SETTINGS_KEY) !== null;
  } catch {
    return false;
  }
}

export interface StoredDocument {
  text: string;
  name: string | null;
  /** Page starts of an imported PDF (absent in documents saved before import existed). */
  pageStarts?: number[] | null;
  /** Counts the saves of the stored document (every tab's): a tab that saves checks it has seen the latest. */
  revision?: number;
}

/** Page starts that fit the text: whole numbers from 0, never decreasing, inside the text; else null. */
function validPageStarts(value: unknown, text: string): number[] | null {
  if (!Array.isArray(value) || value.length === 0 || value[0] !== 0) return null;
  const ok = value.every((n, i) => Number.isInteger(n) && n >= 0 && n <= text.length && (i === 0 || n >= (value[i - 1] as number)));
  return ok ? (value as number[]) : null;
}

/** A stored revision: a whole number from 0, else 0 (the next save checks against it). */
export function revisionOf(value: unknown): number {
  const revision = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).revision : undefined;
  return Number.isSafeInteger(revision) && (revision as number) >= 0 ? (revision as number) : 0;
}

/** Validate what IndexedDB gave back (as one record: see readStored). Page starts that do not fit the text are
 * dropped, the text kept. */
export function parseStoredDocument(value: unknown): StoredDocument | null | 'corrupt' {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') return 'corrupt';
  const v = value as Record<string, unknown>;
  if (typeof v.text !== 'string' || !(v.name === null || typeof v.name === 'string')) return 'corrupt';
  const pageStarts = validPageStarts(v.pageStarts, v.text);
  return { text: v.text, name: v.name as string | null, ...(pageStarts ? { pageStarts } : {}), revision: revisionOf(v) };
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(DB_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let dbPromise: Promise<IDBDatabase> | null = null;
/** The open database once it is open (pagehide cannot wait for a promise). */
let dbReady: IDBDatabase | null = null;
export function db(): Promise<IDBDatabase> {
  dbPromise ??= openDb().then((database) => (dbReady = database));
  return dbPromise;
}
/** The database if it is open already, else null. */
export const openedDb = (): IDBDatabase | null => dbReady;

export const partKey = (i: number): IDBValidKey => [PART_KEY, i];
/** The parts from `first` on. */
export const partsFrom = (first: number) => IDBKeyRange.bound(partKey(first), partKey(Infinity));

/**
 * The stored document as one record (parseStoredDocument checks it): the meta record with its parts joined as `text`
 * (null when they do not add up), or the earlier layout's record where that one is newer (a tab of the previous
 * version saved it), or undefined. Parts are read through a cursor, one per task.
 */
function readStored(store: IDBObjectStore): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const metaRequest = store.get(META_KEY);
    const legacyRequest = store.get(LEGACY_KEY);
    legacyRequest.onerror = () => reject(legacyRequest.error);
    legacyRequest.onsuccess = () => {
      const found: unknown = metaRequest.result;
      const legacy: unknown = legacyRequest.result;
      // A meta record that is there but not a record (null, a number, an array), or an earlier-layout record that
      // is null, is damaged like any other shape (null was read as "nothing stored" and dropped without a word).
      if (found !== undefined && (typeof found !== 'object' || found === null || Array.isArray(found))) return resolve({ text: null });
      if (found === undefined && legacy === null) return resolve({ text: null });
      const meta = found as Record<string, unknown> | undefined;
      if (!meta || (legacy !== undefined && revisionOf(legacy) > revisionOf(meta))) return resolve(legacy);
      const count = Number.isSafeInteger(meta.parts) && (meta.parts as number) >= 0 ? (meta.parts as number) : -1;
      if (count <= 0) return resolve({ ...meta, text: count === 0 && meta.length === 0 ? '' : null });
      const parts: unknown[] = [];
      const cursor = store.openCursor(IDBKeyRange.bound(partKey(0), partKey(count - 1)));
      cursor.onerror = () => reject(cursor.error);
      cursor.onsuccess = () => {
        if (cursor.result) {
          parts.push(cursor.result.value);
          cursor.result.continue();
          return;
        }
        const fits = parts.length === count && parts.every((p) => typeof p === 'string');
        const text = fits ? (parts as string[]).join('') : null;
        resolve({ ...meta, text: text !== null && text.length === meta.length ? text : null });
      };
    };
  });
}

export async function loadDocument(): Promise<StoredDocument | null | 'corrupt'> {
  try {
    const database = await db();
    const parsed = parseStoredDocument(await readStored(database.transaction(DB_STORE, 'readonly').objectStore(DB_STORE)));
    if (parsed === 'corrupt') await clearDocument();
    return parsed;
  } catch {
    return null;
  }
}

/**
 * An edit not yet in IndexedDB when the page went away, kept synchronously in localStorage (IndexedDB is
 * asynchronous and a reload can come before its write finishes). Up to PENDING_LIMIT characters; read back at
 * start when it is based on the stored revision or a newer one.
 */
export const PENDING_KEY = 'chunkscope.pending-document.v1';
const PENDING_LIMIT = 2_000_000;

export interface PendingDocument extends StoredDocument {
  /** The revision the edit was made on. */
  baseRevision: number;
}

export function savePending(storage: Storage, doc: StoredDocument, baseRevision: number): boolean {
  if (doc.text.length > PENDING_LIMIT) return false;
  try {
    storage.setItem(PENDING_KEY, JSON.stringify({ text: doc.text, name: doc.name, pageStarts: doc.pageStarts ?? null, baseRevision }));
    return true;
  } catch {
    return false;
  }
}

/** The pending edit, checked like a stored document (a bad one is dropped), and removed from storage. */
export function takePending(storage: Storage): PendingDocument | null {
  let raw: string | null = null;
  try {
    raw = storage.getItem(PENDING_KEY);
    if (raw !== null) storage.removeItem(PENDING_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const doc = parseStoredDocument(value);
    if (!doc || doc === 'corrupt' || !Number.isSafeInteger(value.baseRevision)) return null;
    return { ...doc, baseRevision: value.baseRevision as number };
  } catch {
    return null;
  }
}

async function clearDocument(): Promise<void> {
  const database = await db();
  await new Promise<void>((resolve) => {
    const tx = database.transaction(DB_STORE, 'readwrite');
    const store = tx.objectStore(DB_STORE);
    for (const key of [META_KEY, partsFrom(0), LEGACY_KEY]) store.delete(key);
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
  });
}

// --- the document a share link replaced ------------------------------------------------------------------------------

/** Where the document a link replaced is kept (IndexedDB in the page; a stand-in in tests). */
export interface PreviousDocumentStorage {
  keep(doc: StoredDocument): Promise<void>;
  /** Whether one is kept (without reading its text). */
  has(): Promise<boolean>;
  /** The kept document, checked like the stored one; null when none or damaged. */
  read(): Promise<StoredDocument | null>;
  drop(): Promise<void>;
}

function previousRequest<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return db().then(
    (database) =>
      new Promise<T>((resolve, reject) => {
        const request = act(database.transaction(DB_STORE, mode).objectStore(DB_STORE));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      }),
  );
}

export const PREVIOUS_IN_INDEXED_DB: PreviousDocumentStorage = {
  keep: (doc) => previousRequest('readwrite', (store) => store.put({ text: doc.text, name: doc.name, pageStarts: doc.pageStarts ?? null, keptAt: Date.now() }, PREVIOUS_KEY)).then(() => undefined),
  has: () => previousRequest('readonly', (store) => store.getKey(PREVIOUS_KEY)).then((key) => key !== undefined, () => false),
  read: () =>
    previousRequest('readonly', (store) => store.get(PREVIOUS_KEY)).then(
      (value) => {
        const doc = parseStoredDocument(value);
        return doc === 'corrupt' ? null : doc;
      },
      () => null,
    ),
  drop: () => previousRequest('readwrite', (store) => store.delete(PREVIOUS_KEY)).then(() => undefined, () => undefined),
};
