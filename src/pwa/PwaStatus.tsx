import { useEffect, useState, useSyncExternalStore } from 'react';
import { offlineInventory, type OfflineInventory } from './offlineModels';
import { applyUpdate, pwaState, subscribePwa, type PwaState } from './register';
import './pwa.css';

export function usePwa(): PwaState {
  return useSyncExternalStore(subscribePwa, pwaState, pwaState);
}

/** "A new version is available — Reload": shown when a new deployment has installed beside the running one. */
export function UpdateBanner() {
  const { updateReady } = usePwa();
  if (!updateReady) return null;
  return (
    <div className="update-banner" role="status" data-testid="update-banner">
      <span>A new version is available</span>
      <span aria-hidden="true"> — </span>
      <button type="button" className="btn btn-quiet" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  );
}

/**
 * The header's offline line: "Offline" while the browser has no network, and a disclosure that says plainly
 * which parts work offline (the app, the built-in model, the hub models this browser has downloaded).
 */
export function OfflineStatus() {
  const { online, offlineReady } = usePwa();
  const [inventory, setInventory] = useState<OfflineInventory | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    let live = true;
    void offlineInventory().then((inv) => live && setInventory(inv));
    return () => {
      live = false;
    };
  }, [open, offlineReady, online]);
  return (
    <details className="offline-status" data-testid="offline-status" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary className={`offline-pill${online ? '' : ' is-offline'}`}>{online ? (offlineReady ? 'Works offline' : 'Online') : 'Offline'}</summary>
      <div className="offline-panel" role="region" aria-label="Available offline">
        {!online && <p>You are offline. Everything below keeps working; other models need the network.</p>}
        {inventory === null ? (
          <p className="muted">Checking the offline cache…</p>
        ) : (
          <ul>
            <li>
              The app: {inventory.app ? 'saved for offline use' : offlineReady ? 'saved for offline use' : 'not saved yet (it saves itself after the first visit)'}
            </li>
            <li>Built-in model (chunkscope-static-en): {inventory.builtin || inventory.app ? 'available offline' : 'not saved yet'}</li>
            {inventory.models.length === 0 ? (
              <li>Hub models: none downloaded in this browser</li>
            ) : (
              inventory.models.map((id) => <li key={id}>{id}: downloaded, available offline</li>)
            )}
          </ul>
        )}
      </div>
    </details>
  );
}
