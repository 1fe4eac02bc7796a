// First: the Trusted Types default policy must exist before any worker or markup is made.
import './ui/trustedTypes';
import { startChunkWorkerEarly } from './bridge/chunkWorker';
import './ui/styles.css';
import './ui/a11y.css';

/**
 * A first visit: no address query or fragment (a link's settings or document) and nothing of the page's in
 * localStorage (settings, a pending edit). Its first job is the first sample with the default options, whose chunks
 * are built ahead (src/state/firstChunks.ts): it paints them without the worker, which starts after that paint.
 */
function looksLikeFirstVisit(): boolean {
  if (location.search.length > 1 || location.hash.length > 1) return false;
  try {
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith('chunkscope')) return false;
    return true;
  } catch {
    return false;
  }
}

// Any other visit runs its first job in the chunk worker: it starts before the page's own code (React, the store,
// the panels) is fetched, so both load at once and the worker is ready when the store sends the job
// (docs/first-visit.md). On a first visit the client starts it after the first paint.
if (!looksLikeFirstVisit()) startChunkWorkerEarly();
const { startApp } = await import('./startApp');
await startApp();
