/* Chunkscope service worker, generated at build time by the chunkscope-sw plugin in vite.config.ts from this template:
 * __VERSION__ and __PRECACHE__ are replaced with the build's hash and its file list (every file of the build: the
 * app shell, lazily loaded chunks, workers, wasm runtimes and grammars, tokenizer ranks, the pdf/docx readers and
 * the built-in model). Plain JavaScript on purpose: it runs as a classic service worker script, no bundling.
 *
 * - install: every file into the cache "chunkscope-<version>" (a new version installs beside the old one and waits;
 *   the page shows "A new version is available — Reload", which posts SKIP_WAITING).
 * - activate: older chunkscope-* caches are deleted (transformers.js' own cache of hub models is left alone).
 * - fetch: same-origin GETs only. Precached files from the cache (query ignored); navigations to / or /index.html
 *   get the cached page (its COOP/COEP headers are cached with it, so the page stays cross-origin isolated);
 *   anything else goes to the network. A model file under /models/ that the network cannot give answers 404
 *   offline, so transformers.js goes on to its own cache (where hub models a person downloaded are kept).
 *   Cross-origin requests are never touched.
 */
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `chunkscope-${VERSION}`;
const PREFIX = 'chunkscope-';

/** Files whose names carry a content hash: the browser's HTTP cache may serve them; others are revalidated. */
const HASHED = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const pending = PRECACHE.slice();
      // A few at a time: one failed file fails the install (a half-cached app would not work offline).
      const worker = async () => {
        for (let url = pending.shift(); url !== undefined; url = pending.shift()) {
          const request = new Request(url, { cache: HASHED.test(url) ? 'default' : 'no-cache', credentials: 'same-origin' });
          const response = await fetch(request);
          if (!response.ok) throw new Error(`precache: ${url} answered ${response.status}`);
          await cache.put(url, response);
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
  if (event.data && event.data.type === 'VERSION' && event.ports[0]) event.ports[0].postMessage({ version: VERSION, files: PRECACHE.length });
});

const PAGE_PATHS = new Set(['/', '/index.html']);

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/sw.js') return;
  if (request.mode === 'navigate') {
    if (!PAGE_PATHS.has(url.pathname)) return;
    event.respondWith(fromCacheOr('/', request));
    return;
  }
  event.respondWith(fromCacheOr(url.pathname, request));
});

async function fromCacheOr(key, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (err) {
    if (new URL(request.url).pathname.startsWith('/models/')) {
      return new Response('offline: not cached', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    throw err;
  }
}
