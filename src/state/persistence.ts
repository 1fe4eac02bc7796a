import { DEFAULT_CONFIG, type Config } from './configSlice';
import { checkConfig } from './configValidation';
import { migrateStoredSettings } from './urlMigration';

/**
 * What survives a reload: settings in localStorage (small, synchronous), the document in IndexedDB (it can be
 * 10 MiB; localStorage caps near 5 MB and blocks the main thread). Stored state that does not parse is
 * discarded and reported, never half-applied. Settings are the Config under the option table's names, each field
 * checked by the table's kind; settings the previous version stored under older names are migrated first
 * (urlMigration.ts).
 */

export const SETTINGS_KEY = 'chunkscope.settings.v1';
const DB_NAME = 'chunkscope';
const DB_STORE = 'documents';
const DOC_KEY = 'current';

export type ParsedSettings = { ok: true; config: Config; dropped: string[] } | { ok: false; reason: string };

/**
 * Parse stored settings. What is not a JSON object is rejected as a whole; inside it each field is checked through
 * the option table (configValidation.ts: own properties only, the row's kind, then the rows' validation) and a
 * field that fails is dropped back to its default and named in `dropped`.
 */
export function parseSettings(raw: string | null): ParsedSettings | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not an object' };
  const migrated = migrateStoredSettings(value as Record<string, unknown>);
  if (!migrated.ok) return migrated;
  const checked = checkConfig(migrated.value, DEFAULT_CONFIG);
  return { ok: true, config: checked.config, dropped: checked.dropped };
}

export function serializeSettings(config: Config): string {
  return JSON.stringify(config);
}

export function loadSettings(storage: Storage): ParsedSettings | null {
  let raw: string | null = null;
  try {
    raw = storage.getItem(SETTINGS_KEY);
  } catch {
    return null;
  }
  const parsed = parseSettings(raw);
  // What was refused never stays stored: the whole when unreadable, else the settings without the dropped fields.
  try {
    if (parsed && !parsed.ok) storage.removeItem(SETTINGS_KEY);
    else if (parsed && parsed.dropped.length > 0) storage.setItem(SETTINGS_KEY, serializeSettings(parsed.config));
  } catch {
    /* storage unavailable: nothing to clean */
  }
  return parsed;
}

export function saveSettings(storage: Storage, config: Config): void {
  try {
    storage.setItem(SETTINGS_KEY, serializeSettings(config));
  } catch {
    /* quota or privacy mode: settings simply do not persist */
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

/** Validate what IndexedDB gave back. Page starts that do not fit the text are dropped, the text kept. */
export function parseStoredDocument(value: unknown): StoredDocument | null | 'corrupt' {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') return 'corrupt';
  const v = value as Record<string, unknown>;
  if (typeof v.text !== 'string' || !(v.name === null || typeof v.name === 'string')) return 'corrupt';
  const pageStarts = validPageStarts(v.pageStarts, v.text);
  const revision = Number.isSafeInteger(v.revision) && (v.revision as number) >= 0 ? (v.revision as number) : 0;
  return { text: v.text, name: v.name as string | null, ...(pageStarts ? { pageStarts } : {}), revision };
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
function db(): Promise<IDBDatabase> {
  dbPromise ??= openDb().then((database) => (dbReady = database));
  return dbPromise;
}

export async function loadDocument(): Promise<StoredDocument | null | 'corrupt'> {
  try {
    const database = await db();
    const value = await new Promise<unknown>((resolve, reject) => {
      const request = database.transaction(DB_STORE, 'readonly').objectStore(DB_STORE).get(DOC_KEY);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const parsed = parseStoredDocument(value);
    if (parsed === 'corrupt') await clearDocument();
    return parsed;
  } catch {
    return null;
  }
}

export type SaveOutcome = { ok: true; revision: number } | { ok: false; revision: number };

/** Whether a tab that last saw `baseRevision` may write over `stored`, and the revision the write gets. */
export function saveDecision(stored: number, baseRevision: number, force: boolean): SaveOutcome {
  if (stored > baseRevision && !force) return { ok: false, revision: stored };
  return { ok: true, revision: Math.max(stored, baseRevision) + 1 };
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
    const read = store.get(DOC_KEY);
    read.onsuccess = () => {
      const current = parseStoredDocument(read.result);
      outcome = saveDecision(current && current !== 'corrupt' ? (current.revision ?? 0) : 0, baseRevision, force);
      if (outcome.ok) store.put(documentRecord(doc, outcome.revision), DOC_KEY);
    };
    tx.oncomplete = () => resolve(outcome);
    tx.onerror = () => reject(tx.error);
  });
}

/**
 * The last save as the page goes away (pagehide): no read first (its answer would come after the page is gone),
 * the write committed at once. The caller knows no newer revision exists (another tab's save is announced to it).
 */
export function saveDocumentNow(doc: StoredDocument, revision: number): void {
  if (!dbReady) return;
  try {
    const tx = dbReady.transaction(DB_STORE, 'readwrite');
    tx.objectStore(DB_STORE).put(documentRecord(doc, revision), DOC_KEY);
    tx.commit?.();
  } catch {
    /* the database is closing: the pending copy in localStorage still holds the edit */
  }
}

function documentRecord(doc: StoredDocument, revision: number) {
  return { text: doc.text, name: doc.name, pageStarts: doc.pageStarts ?? null, revision, savedAt: Date.now() };
}

/**
 * An edit not yet in IndexedDB when the page went away, kept synchronously in localStorage (IndexedDB is
 * asynchronous and a reload can come before its write finishes). Up to PENDING_LIMIT characters; read back at
 * start when it is based on the stored revision or a newer one.
 */
export const PENDING_KEY = 'chunkscope.pending-document.v1';
export const PENDING_LIMIT = 2_000_000;

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
    tx.objectStore(DB_STORE).delete(DOC_KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
  });
}
