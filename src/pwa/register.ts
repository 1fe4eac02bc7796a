/**
 * The page side of the offline app: registers /sw.js (production builds only), tells the UI when a new version is
 * waiting (UpdateBanner) and whether the browser is online. A small external store for useSyncExternalStore; no
 * React here.
 */

export interface PwaState {
  /** A new version is installed and waiting for the page to reload into it. */
  updateReady: boolean;
  /** The app's files are all in the offline cache (the service worker is active). */
  offlineReady: boolean;
  online: boolean;
}

let state: PwaState = { updateReady: false, offlineReady: false, online: typeof navigator === 'undefined' ? true : navigator.onLine };
const listeners = new Set<() => void>();
let waiting: ServiceWorker | null = null;
/** Set by applyUpdate: the next controllerchange is the update this page asked for. */
let asked = false;

function set(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

export function subscribePwa(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function pwaState(): PwaState {
  return state;
}

/** "Reload" on the update banner: activate the waiting version; the page reloads when it takes control. */
export function applyUpdate(): void {
  asked = true;
  if (!waiting) {
    window.location.reload();
    return;
  }
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

/** Start: online/offline tracking always; the service worker only in a production build served over http(s). */
export function startPwa(): void {
  window.addEventListener('online', () => set({ online: true }));
  window.addEventListener('offline', () => set({ online: false }));
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const container = navigator.serviceWorker;
  // Reload into the new version once it controls the page, but only when this page asked for it (the first
  // installation also takes control, and must not reload the page under the person's hands).
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    if (!asked || reloading) return;
    reloading = true;
    window.location.reload();
  });
  const register = async () => {
    try {
      const registration = await container.register('/sw.js', { scope: '/' });
      const watchInstalling = (worker: ServiceWorker | null) => {
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && container.controller) markWaiting(worker);
          if (worker.state === 'activated') set({ offlineReady: true });
        });
      };
      if (registration.waiting && container.controller) markWaiting(registration.waiting);
      if (registration.active) set({ offlineReady: true });
      watchInstalling(registration.installing);
      registration.addEventListener('updatefound', () => watchInstalling(registration.installing));
      // A page left open for a workshop day still learns about a new deployment.
      setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
    } catch {
      /* no service worker (private mode, blocked): the app works online as before */
    }
  };
  // After the page has loaded: the precache must not compete with the first paint.
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

function markWaiting(worker: ServiceWorker): void {
  waiting = worker;
  set({ updateReady: true });
}
