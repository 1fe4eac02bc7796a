import { yieldToMessages } from './yieldToMessages';

/**
 * Embeddings cached per (model, text) in memory for this session (an edit re-embeds only the sentences it changed),
 * and in IndexedDB per (model, the whole list of texts of a document): a reload, or opening the same document
 * again, reads its vectors back in one request instead of embedding them again. (One IndexedDB get per sentence was
 * measured at about 2 s for the 24,000 sentences of 1 MiB on a cold cache, more than embedding them.)
 * IndexedDB is best effort: any failure (quota, private mode, a blocked upgrade) leaves the memory cache working.
 */

const DB_NAME = 'chunkscope-embeddings';
const STORE = 'documents';
/** Memory cache bound: beyond this many vectors, other models' entries go first, then the oldest ones. */
const MEMORY_LIMIT = 400_000;
/** Documents kept in IndexedDB per model (the oldest are deleted). */
const STORED_DOCUMENTS = 8;

const memory = new Map<string, Map<string, Float32Array>>();
let memorySize = 0;

function modelMap(model: string): Map<string, Float32Array> {
  let m = memory.get(model);
  if (!m) {
    m = new Map();
    memory.set(model, m);
  }
  return m;
}

function remember(model: string, text: string, vector: Float32Array): void {
  const m = modelMap(model);
  if (!m.has(text)) memorySize++;
  m.set(text, vector);
  if (memorySize <= MEMORY_LIMIT) return;
  for (const [name, entries] of memory) {
    if (name === model) continue;
    memorySize -= entries.size;
    memory.delete(name);
    if (memorySize <= MEMORY_LIMIT) return;
  }
  for (const key of m.keys()) {
    if (memorySize <= MEMORY_LIMIT * 0.9) break;
    m.delete(key);
    memorySize--;
  }
}

/** Forget the vectors held in memory (tests; IndexedDB is untouched). */
export function clearMemoryCache(): void {
  memory.clear();
  memorySize = 0;
}

/** A 53-bit hash of the texts (FNV-1a on two lanes): the IndexedDB key of a document's list, with its length. */
export function textsKey(texts: readonly string[]): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  let length = 0;
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0xffff, 0x01000193); // separator, so ["ab"] and ["a", "b"] differ
    length += t.length + 1;
  }
  return `${(h1 >>> 0).toString(36)}.${((h2 >>> 0) & 0x1fffff).toString(36)}.${texts.length}.${length}`;
}

let dbPromise: Promise<IDBDatabase | null> | null = null;
function db(): Promise<IDBDatabase | null> {
  dbPromise ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 2);
      request.onupgradeneeded = () => {
        for (const name of Array.from(request.result.objectStoreNames)) request.result.deleteObjectStore(name);
        request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return dbPromise;
}

interface StoredDocument {
  texts: string[];
  dims: number;
  /** texts.length × dims values. */
  vectors: Float32Array;
  savedAt: number;
}

/** The widest embedding a record may claim (real models: 100–4096). */
const MAX_DIMS = 16_384;

/**
 * Why a record read from IndexedDB cannot be used for `texts` (null when it can). Its texts must be exactly the
 * document's, `dims` a whole number in 1..MAX_DIMS, `vectors` a Float32Array of texts × dims finite values (no NaN,
 * no Infinity), and no vector longer or shorter than another.
 */
export function storedRecordProblem(record: unknown, texts: readonly string[]): string | null {
  if (typeof record !== 'object' || record === null) return 'not a record';
  const r = record as Partial<StoredDocument>;
  if (!Array.isArray(r.texts) || r.texts.length !== texts.length) return 'wrong number of texts';
  if (!Number.isSafeInteger(r.dims) || r.dims! < 1 || r.dims! > MAX_DIMS) return `dimensions ${String(r.dims)}`;
  if (!(r.vectors instanceof Float32Array)) return 'vectors are not a Float32Array';
  if (r.vectors.length !== texts.length * r.dims!) return 'vectors of the wrong length';
  for (let i = 0; i < r.vectors.length; i++) if (!Number.isFinite(r.vectors[i]!)) return 'values that are not numbers';
  return null;
}

/**
 * Vectors known for `texts` (undefined where none): memory first, then the document's record in IndexedDB. A
 * record that fails storedRecordProblem is deleted and `onDiscard` told why; its vectors are then computed again.
 */
export async function lookupEmbeddings(
  model: string,
  texts: readonly string[],
  /** textsKey(texts). */
  documentKey: string,
  onDiscard?: (reason: string) => void,
): Promise<(Float32Array | undefined)[]> {
  const m = modelMap(model);
  const out: (Float32Array | undefined)[] = texts.map((t) => m.get(t));
  if (out.every((v) => v !== undefined)) return out;
  const database = await db();
  if (!database) return out;
  const stored = await new Promise<StoredDocument | undefined>((resolve) => {
    try {
      const request = database.transaction(STORE, 'readonly').objectStore(STORE).get([model, documentKey]);
      request.onsuccess = () => resolve(request.result as StoredDocument | undefined);
      request.onerror = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
  if (stored === undefined) return out;
  const problem = storedRecordProblem(stored, texts);
  if (problem) {
    discard(database, [model, documentKey]);
    onDiscard?.(problem);
    return out;
  }
  // The hash matched; the texts themselves decide (another document under the same hash is no damage).
  for (let i = 0; i < texts.length; i++) if (stored.texts[i] !== texts[i]) return out;
  const { dims, vectors } = stored;
  for (let i = 0; i < texts.length; i++) {
    if (out[i] !== undefined) continue;
    // Views of the record's one buffer, not a typed array with its own backing store per text (23,845 of them for
    // 1 MiB cost more than reading the record). Vectors leave this worker packed into a new buffer, never transferred.
    const v = vectors.subarray(i * dims, (i + 1) * dims);
    out[i] = v;
    remember(model, texts[i]!, v);
  }
  return out;
}

function discard(database: IDBDatabase, key: IDBValidKey): void {
  try {
    database.transaction(STORE, 'readwrite').objectStore(STORE).delete(key);
  } catch {
    /* a closed database: the record is skipped again next time */
  }
}

/** Keep new vectors in memory at once. */
export function storeEmbeddings(model: string, texts: readonly string[], vectors: readonly Float32Array[]): void {
  texts.forEach((t, i) => remember(model, t, vectors[i]!));
}

/** Quiet time before a document's vectors are written: typing changes the document at every key. */
const WRITE_DELAY_MS = 2000;
let writeTimer: ReturnType<typeof setTimeout> | null = null;
/** Which scheduled write is the latest: an older one still packing gives up. */
let writeSerial = 0;

/**
 * Save a document's whole list of vectors to IndexedDB once edits pause (only the latest document is written);
 * keeps the newest few documents per model.
 */
export function storeDocumentEmbeddings(model: string, texts: readonly string[], documentKey: string, vectors: readonly Float32Array[]): void {
  if (texts.length === 0) return;
  if (writeTimer) clearTimeout(writeTimer);
  const serial = ++writeSerial;
  writeTimer = setTimeout(() => {
    writeTimer = null;
    void writeDocument(model, documentKey, texts, vectors, () => serial !== writeSerial);
  }, WRITE_DELAY_MS);
}

/** How long packRecord works before it lets queued messages in. */
const PACK_SLICE_MS = 4;

/**
 * The stored record of a document's vectors: one flat array of texts × dims values, or null when a vector has another
 * width or a value that is not finite (what a later read would refuse), or when `stale()` turns true (a newer
 * write). Built PACK_SLICE_MS at a time with a task boundary between slices: the threshold's re-split runs in this
 * worker, and packing 1 MiB's 24k vectors in one go was a 150 ms task that a key press landing 2 s after the
 * embedding waited behind.
 */
export async function packRecord(
  texts: readonly string[],
  vectors: readonly Float32Array[],
  stale: () => boolean,
  yieldNow: () => Promise<void> = yieldToMessages,
  sliceMs = PACK_SLICE_MS,
): Promise<StoredDocument | null> {
  if (vectors.length !== texts.length || vectors.length === 0) return null;
  const dims = vectors[0]!.length;
  const flat = new Float32Array(texts.length * dims);
  let sliceStart = performance.now();
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    if (v.length !== dims) return null;
    for (let j = 0; j < dims; j++) if (!Number.isFinite(v[j]!)) return null;
    flat.set(v, i * dims);
    if ((i & 63) === 63 && performance.now() - sliceStart > sliceMs) {
      await yieldNow();
      if (stale()) return null;
      sliceStart = performance.now();
    }
  }
  return { texts: [...texts], dims, vectors: flat, savedAt: Date.now() };
}

async function writeDocument(model: string, key: string, texts: readonly string[], vectors: readonly Float32Array[], stale: () => boolean): Promise<void> {
  const record = await packRecord(texts, vectors, stale);
  if (!record || stale()) return;
  const database = await db();
  if (!database || stale()) return;
  try {
    const tx = database.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    store.put(record, [model, key]);
    // A small list per model, newest last, says which documents to forget beyond the bound.
    const listKey = [model, '#documents'];
    const list = store.get(listKey);
    list.onsuccess = () => {
      const keys = ((Array.isArray(list.result) ? list.result : []) as string[]).filter((k) => k !== key);
      keys.push(key);
      while (keys.length > STORED_DOCUMENTS) store.delete([model, keys.shift()!]);
      store.put(keys, listKey);
    };
  } catch {
    /* quota or a closed database: the memory cache still has them */
  }
}
