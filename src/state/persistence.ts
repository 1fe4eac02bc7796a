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
  return { text: v.text, name: v.name as string | null, ...(pageStarts ? { pageStarts } : {}) };
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
function db(): Promise<IDBDatabase> {
  dbPromise ??= openDb();
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

export async function saveDocument(doc: StoredDocument): Promise<void> {
  const database = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = database.transaction(DB_STORE, 'readwrite');
    tx.objectStore(DB_STORE).put({ text: doc.text, name: doc.name, pageStarts: doc.pageStarts ?? null, savedAt: Date.now() }, DOC_KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
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
