import type { LlmCache } from '../core/llm';

/**
 * The page's LLM answer cache: core's LlmCache over IndexedDB (database LLM_CACHE_DB, one object store, key =
 * core's cacheKey, value = the model's raw answer text). Only answers are stored: never the API key, never the
 * document. After a reload or a Cancel, Run finds what was answered here and sends nothing for it. When IndexedDB
 * is refused (privacy mode) it falls back to memory for the session.
 */
export const LLM_CACHE_DB = 'chunkscope-llm-cache';
const STORE = 'answers';

export class IdbLlmCache implements LlmCache {
  private db: Promise<IDBDatabase | null> | null = null;
  private readonly memory = new Map<string, string>();

  constructor(private readonly factory: IDBFactory | undefined = globalThis.indexedDB) {}

  private open(): Promise<IDBDatabase | null> {
    this.db ??= new Promise((resolve) => {
      if (!this.factory) return resolve(null);
      try {
        const request = this.factory.open(LLM_CACHE_DB, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(STORE);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve(null);
        request.onblocked = () => resolve(null);
      } catch {
        resolve(null);
      }
    });
    return this.db;
  }

  async get(key: string): Promise<string | undefined> {
    const hit = this.memory.get(key);
    if (hit !== undefined) return hit;
    const db = await this.open();
    if (!db) return undefined;
    return new Promise((resolve) => {
      try {
        const request = db.transaction(STORE, 'readonly').objectStore(STORE).get(key);
        request.onsuccess = () => resolve(typeof request.result === 'string' ? request.result : undefined);
        request.onerror = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
  }

  async set(key: string, value: string): Promise<void> {
    this.memory.set(key, value);
    const db = await this.open();
    if (!db) return;
    await new Promise<void>((resolve) => {
      try {
        const tx = db.transaction(STORE, 'readwrite');
        tx.objectStore(STORE).put(value, key);
        tx.oncomplete = () => resolve();
        tx.onerror = () => resolve(); // quota: the answer stays in memory for this session
        tx.onabort = () => resolve();
      } catch {
        resolve();
      }
    });
  }
}
