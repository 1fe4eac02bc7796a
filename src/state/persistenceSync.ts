import type { StoreApi } from 'zustand';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { droppedNotice } from './configValidation';
import { loadDocument, loadSettings, saveDocument, saveSettings, type StoredDocument } from './persistence';
import type { AppState } from './store';
import { encodeConfig } from './urlCodec';
import { sameItems, watch } from './watch';

/**
 * Local persistence: settings in localStorage, the document in IndexedDB (persistence.ts), read once at start
 * (corrupt stored state is discarded with a notice) and written off the hot path: settings at most every
 * SETTINGS_DELAY_MS when they changed, the document once edits pause (longer for big ones) and the browser is idle.
 * Each writer watches only its slice: the config, or the document's text, name and page starts.
 */

export const SETTINGS_DELAY_MS = 120;

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
}

/** Stored settings and document, or the defaults and `fallback` (with a notice for what was unreadable). */
export async function loadStoredState(storage: Storage, fallback: InitialDocument, readDocument = loadDocument): Promise<StoredState> {
  const notices: string[] = [];
  const stored = loadSettings(storage);
  let config = DEFAULT_CONFIG;
  if (stored?.ok) {
    config = stored.config;
    const notice = droppedNotice(stored.dropped, 'stored');
    if (notice) notices.push(notice);
  } else if (stored && !stored.ok) notices.push(`Saved settings were unreadable (${stored.reason}) and have been reset.`);
  const storedDoc = await readDocument();
  if (storedDoc === 'corrupt') notices.push('The saved document was unreadable and has been discarded.');
  const document = storedDoc && storedDoc !== 'corrupt' ? storedDoc : fallback;
  return { config, document, notices };
}

export interface PersistenceTarget {
  storage: Storage;
  writeDocument?: (doc: StoredDocument) => Promise<void>;
  /** requestIdleCallback where there is one. */
  whenIdle?: (run: () => void) => void;
}

export function startPersistence(store: StoreApi<AppState>, target: PersistenceTarget): () => void {
  const writeDocument = target.writeDocument ?? saveDocument;
  const whenIdle =
    target.whenIdle ??
    ((run: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : run()));
  let settingsTimer: ReturnType<typeof setTimeout> | null = null;
  let lastSettings = encodeConfig(store.getState().config);
  let docTimer: ReturnType<typeof setTimeout> | null = null;

  const saveSettingsSoon = () => {
    settingsTimer ??= setTimeout(() => {
      settingsTimer = null;
      const config = store.getState().config;
      const query = encodeConfig(config);
      if (query === lastSettings) return;
      lastSettings = query;
      saveSettings(target.storage, config);
    }, SETTINGS_DELAY_MS);
  };

  const saveDocumentSoon = () => {
    if (docTimer) clearTimeout(docTimer);
    // Big documents wait longer: saving is a structured clone of the whole text.
    const delay = store.getState().text.length > 1_000_000 ? 600 : 150;
    docTimer = setTimeout(() => {
      docTimer = null;
      whenIdle(() => {
        const s = store.getState();
        writeDocument({ text: s.text, name: s.docName, pageStarts: s.pageStarts }).catch(() => {
          store.getState().setNotice('The document could not be saved in this browser; it will not survive a reload.');
        });
      });
    }, delay);
  };

  const unsubscribe = [
    watch(store, (s) => s.config, saveSettingsSoon),
    watch(store, (s) => [s.text, s.docName, s.pageStarts] as const, saveDocumentSoon, sameItems),
  ];
  return () => {
    for (const u of unsubscribe) u();
    if (settingsTimer) clearTimeout(settingsTimer);
    if (docTimer) clearTimeout(docTimer);
  };
}
