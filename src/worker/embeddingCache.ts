/**
 * Embeddings cached per (model, text): in memory for this session, and in IndexedDB so that a reload (or the same
 * sentences in another document) needs no second embedding run. IndexedDB is best effort: any failure (quota,
 * private mode, a blocked upgrade) leaves the memory cache working.
 */

const DB_NAME = 'chunkscope-embeddings';
const STORE = 'vectors';
/** Memory cache bound: beyond this many vectors the oldest model's entries are dropped first. */
const MEMORY_LIMIT = 400_000;

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

let dbPromise: Promise<IDBDatabase | null> | null = null;
function db(): Promise<IDBDatabase | null> {
  dbPromise ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return dbPromise;
}

const keyOf = (model: string, text: string) => [model, text];

/** Vectors known for `texts` (undefined where none), from memory, then IndexedDB. */
export async function lookupEmbeddings(model: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
  const m = modelMap(model);
  const out: (Float32Array | undefined)[] = texts.map((t) => m.get(t));
  const missing: number[] = [];
  out.forEach((v, i) => v === undefined && missing.push(i));
  if (missing.length === 0) return out;
  const database = await db();
  if (!database) return out;
  try {
    await new Promise<void>((resolve) => {
      const tx = database.transaction(STORE, 'readonly');
      const store = tx.objectStore(STORE);
      for (const i of missing) {
        const request = store.get(keyOf(model, texts[i]!));
        request.onsuccess = () => {
          const v = request.result as unknown;
          if (v instanceof Float32Array) {
            out[i] = v;
            remember(model, texts[i]!, v);
          }
        };
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => resolve();
      tx.onabort = () => resolve();
    });
  } catch {
    /* a closed or broken database: memory only */
  }
  return out;
}

function remember(model: string, text: string, vector: Float32Array): void {
  const m = modelMap(model);
  if (!m.has(text)) memorySize++;
  m.set(text, vector);
  if (memorySize > MEMORY_LIMIT) {
    for (const [name, entries] of memory) {
      if (name === model) continue;
      memorySize -= entries.size;
      memory.delete(name);
      if (memorySize <= MEMORY_LIMIT) return;
    }
    // One model alone exceeds the bound: forget its oldest entries (Map keeps insertion order).
    for (const key of m.keys()) {
      if (memorySize <= MEMORY_LIMIT * 0.9) break;
      m.delete(key);
      memorySize--;
    }
  }
}

/** Keep new vectors in memory at once and in IndexedDB in the background. */
export function storeEmbeddings(model: string, texts: readonly string[], vectors: readonly Float32Array[]): void {
  texts.forEach((t, i) => remember(model, t, vectors[i]!));
  void db().then((database) => {
    if (!database) return;
    try {
      const tx = database.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      texts.forEach((t, i) => store.put(vectors[i]!, keyOf(model, t)));
    } catch {
      /* quota or a closed database: the memory cache still has them */
    }
  });
}
