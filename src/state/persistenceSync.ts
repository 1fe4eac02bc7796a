import { DEFAULT_CONFIG, type Config } from './configSlice';
import { hasStoredSettings, loadDocument, takePending } from './persistence';

/**
 * Local persistence: settings in localStorage, the document in IndexedDB (persistence.ts), read once at start
 * (corrupt stored state is discarded with a notice) and written off the hot path: settings at most every
 * SETTINGS_DELAY_MS when they changed, the document once edits pause (longer for big ones) and the browser is idle,
 * and at once when the page is hidden or goes away (pagehide). Tabs share the stored document: each save carries a
 * revision checked in the same transaction and announced on a BroadcastChannel, so a tab that fell behind never
 * overwrites a newer document; it says so (documentConflict) and offers to load the newer one.
 * Each writer watches only its slice: the config, or the document's text, name and page starts.
 * This file reads (before the first render); the writers (persistenceWriter.ts) start after the first paint, or at
 * the first change before it, from the state read here (controller.ts).
 */

export interface InitialDocument {
  text: string;
  name: string | null;
  /** Where each page starts (a PDF), so reloaded chunks keep their page numbers. */
  pageStarts?: number[] | null;
}

export interface StoredState {
  config: Config;
  document: InitialDocument;
  notices: string[];
  /** The stored document's revision (0: none stored). */
  revision: number;
  /** The document is an edit the last visit kept in localStorage as it went away: save it. */
  unsaved: boolean;
}

/** Stored settings and document, or the defaults and `fallback` (with a notice for what was unreadable). */
export async function loadStoredState(storage: Storage, fallback: InitialDocument, readDocument = loadDocument): Promise<StoredState> {
  const notices: string[] = [];
  const settings = hasStoredSettings(storage) ? await import('./storedSettings') : null;
  const stored = settings?.loadSettings(storage) ?? null;
  let config = DEFAULT_CONFIG;
  if (stored?.ok) {
    config = stored.config;
    const notice = settings!.droppedNotice(stored.dropped, 'stored');
    if (notice) notices.push(notice);
  } else if (stored && !stored.ok) notices.push(`Saved settings were unreadable (${stored.reason}) and have been reset.`);
  const storedDoc = await readDocument();
  if (storedDoc === 'corrupt') notices.push('The saved document was unreadable and has been discarded.');
  const saved = storedDoc && storedDoc !== 'corrupt' ? storedDoc : null;
  const revision = saved?.revision ?? 0;
  // An edit the last visit could not finish saving, made on this revision (or a newer one): it is the latest.
  const pending = takePending(storage);
  if (pending && pending.baseRevision >= revision) {
    const { baseRevision: _base, revision: _revision, ...document } = pending;
    return { config, document, notices, revision, unsaved: true };
  }
  const document = saved ? { text: saved.text, name: saved.name, ...(saved.pageStarts ? { pageStarts: saved.pageStarts } : {}) } : fallback;
  return { config, document, notices, revision, unsaved: false };
}
