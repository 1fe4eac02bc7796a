import { useStore } from './store';

/**
 * The page's parts that load on first use (a sample's text, the share-link codec, the lab's jobs, the importers,
 * the export formats) are dynamic imports. One that cannot be fetched (offline before the service worker cached
 * it, or a build replaced since the page loaded) says so in one line; the page stays as it was.
 */
export function lazyPartFailed(what: string): string {
  return `The ${what} could not be loaded (offline, or the app was updated): nothing changed; reload the page when online.`;
}

/** `load()`, or null after putting lazyPartFailed(what) in the notice. */
export async function loadPart<T>(what: string, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    console.error(err);
    useStore.getState().setNotice(lazyPartFailed(what));
    return null;
  }
}
