/**
 * Which embedding models this browser can load with no network: the built-in model when the offline cache (the
 * service worker's precache) or transformers.js' own cache holds its weights, and every hub or self-hosted model
 * whose ONNX weights transformers.js has cached (it keeps what it downloaded in Cache Storage "transformers-cache"
 * and reads it from there before any request). Read from Cache Storage; nothing is fetched.
 */

const BUILTIN_FOLDER = 'chunkscope-static-en';
const TRANSFORMERS_CACHE = 'transformers-cache';
const APP_CACHE_PREFIX = 'chunkscope-';

export interface OfflineInventory {
  /** The app's files are in the offline cache. */
  app: boolean;
  builtin: boolean;
  /** Hub ids (owner/name) and self-hosted folders whose weights are cached. */
  models: string[];
}

/** The model id an ONNX weights URL belongs to: hub resolve URLs and this origin's /models/<id>/onnx/ paths. */
function modelIdOfUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!/\/onnx\/[^/]+\.onnx(_data)?$/.test(u.pathname)) return null;
  const hub = /^\/([^/]+\/[^/]+)\/resolve\//.exec(u.pathname);
  if (hub && /(^|\.)huggingface\.co$/.test(u.hostname)) return decodeURIComponent(hub[1]!);
  const local = /^\/models\/(.+?)\/onnx\//.exec(u.pathname);
  if (local) return decodeURIComponent(local[1]!);
  return null;
}

export async function offlineInventory(storage: CacheStorage | undefined = globalThis.caches): Promise<OfflineInventory> {
  const out: OfflineInventory = { app: false, builtin: false, models: [] };
  if (!storage) return out;
  const found = new Set<string>();
  try {
    for (const name of await storage.keys()) {
      if (name !== TRANSFORMERS_CACHE && !name.startsWith(APP_CACHE_PREFIX)) continue;
      const cache = await storage.open(name);
      const keys = await cache.keys();
      if (name.startsWith(APP_CACHE_PREFIX) && keys.length > 0) out.app = true;
      for (const request of keys) {
        const id = modelIdOfUrl(request.url);
        if (id) found.add(id);
      }
    }
  } catch {
    return out;
  }
  out.builtin = found.delete(BUILTIN_FOLDER);
  out.models = [...found].filter((id) => !id.startsWith('local/')).sort();
  return out;
}
