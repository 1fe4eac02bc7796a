import type { StoreApi } from 'zustand';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { droppedNotice } from './configValidation';
import {
  loadDocument,
  loadSettings,
  saveDocument,
  saveDocumentNow,
  savePending,
  saveSettings,
  takePending,
  type SaveOutcome,
  type StoredDocument,
} from './persistence';
import type { AppState } from './store';
import { encodeConfig } from './urlCodec';
import { sameItems, watch } from './watch';

/**
 * Local persistence: settings in localStorage, the document in IndexedDB (persistence.ts), read once at start
 * (corrupt stored state is discarded with a notice) and written off the hot path: settings at most every
 * SETTINGS_DELAY_MS when they changed, the document once edits pause (longer for big ones) and the browser is idle,
 * and at once when the page is hidden or goes away (pagehide). Tabs share the stored document: each save carries a
 * revision checked in the same transaction and announced on a BroadcastChannel, so a tab that fell behind never
 * overwrites a newer document; it says so (documentConflict) and offers to load the newer one.
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
  /** The stored document's revision (0: none stored). */
  revision: number;
  /** The document is an edit the last visit kept in localStorage as it went away: save it. */
  unsaved: boolean;
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

/** Where the document is stored (IndexedDB in the page; a stand-in in tests). */
export interface DocumentStorage {
  read(): Promise<StoredDocument | null | 'corrupt'>;
  write(doc: StoredDocument, baseRevision: number, force: boolean): Promise<SaveOutcome>;
  /** pagehide: write without waiting for anything. */
  writeNow(doc: StoredDocument, revision: number): void;
}

const INDEXED_DB: DocumentStorage = { read: loadDocument, write: saveDocument, writeNow: saveDocumentNow };

/** Tabs of the page announce each save here, so a tab that fell behind knows at once. */
const DOCUMENT_CHANNEL = 'chunkscope.document';

interface SaveMessage {
  tab: string;
  revision: number;
}

export interface PersistenceTarget {
  storage: Storage;
  documents?: DocumentStorage;
  /** The stored revision the page started from (loadStoredState). */
  revision?: number;
  /** The start document is not stored yet (a pending edit read back): save it soon. */
  unsaved?: boolean;
  /** null: no tab coordination (tests); default: a BroadcastChannel where there is one. */
  channel?: Pick<BroadcastChannel, 'postMessage' | 'close'> & { onmessage: ((e: MessageEvent) => void) | null } | null;
  /** Where pagehide and visibilitychange come from (window; none in tests). */
  lifecycle?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { document?: { visibilityState: string } };
  /** requestIdleCallback where there is one. */
  whenIdle?: (run: () => void) => void;
}

/** The running persistence's answer to a document conflict (see resolveDocumentConflict). */
let resolveConflict: ((choice: 'load' | 'keep') => Promise<void>) | null = null;

/** The stale-tab banner's buttons: load the newer stored document, or keep this tab's and save it over. */
export function resolveDocumentConflict(choice: 'load' | 'keep'): Promise<void> {
  return resolveConflict?.(choice) ?? Promise.resolve();
}

export function startPersistence(store: StoreApi<AppState>, target: PersistenceTarget): () => void {
  const documents = target.documents ?? INDEXED_DB;
  const whenIdle =
    target.whenIdle ??
    ((run: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : run()));
  const lifecycle = target.lifecycle === undefined ? (typeof window !== 'undefined' ? window : undefined) : target.lifecycle;
  const channel = target.channel !== undefined ? target.channel : typeof BroadcastChannel === 'function' ? new BroadcastChannel(DOCUMENT_CHANNEL) : null;
  const tab = Math.random().toString(36).slice(2);
  let settingsTimer: ReturnType<typeof setTimeout> | null = null;
  let lastSettings = encodeConfig(store.getState().config);
  let docTimer: ReturnType<typeof setTimeout> | null = null;

  // The document as last confirmed stored (by identity of its parts), the revision it has, and whether another
  // tab stored a newer one since (then nothing is written until the person chooses).
  const snapshot = (): StoredDocument => {
    const s = store.getState();
    return { text: s.text, name: s.docName, pageStarts: s.pageStarts };
  };
  let saved: StoredDocument | null = target.unsaved ? null : snapshot();
  let revision = target.revision ?? 0;
  let stale = false;
  let writing: Promise<void> = Promise.resolve();
  const dirty = () => {
    const now = snapshot();
    return !saved || saved.text !== now.text || saved.name !== now.name || saved.pageStarts !== now.pageStarts;
  };
  const fallBehind = (newer: number) => {
    stale = true;
    store.getState().setDocumentConflict({ revision: newer });
  };

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

  /** Write the document now (in order after any write under way) unless it is stored already or this tab is behind. */
  const saveDocumentNowOrQueue = (force = false): Promise<void> => {
    if (docTimer) clearTimeout(docTimer);
    docTimer = null;
    writing = writing.then(async () => {
      if ((stale && !force) || (!force && !dirty())) return;
      const doc = snapshot();
      try {
        const outcome = await documents.write(doc, revision, force);
        if (!outcome.ok) return fallBehind(outcome.revision);
        revision = outcome.revision;
        saved = doc;
        channel?.postMessage({ tab, revision } satisfies SaveMessage);
      } catch {
        store.getState().setNotice('The document could not be saved in this browser; it will not survive a reload.');
      }
    });
    return writing;
  };

  const saveDocumentSoon = () => {
    if (docTimer) clearTimeout(docTimer);
    // Big documents wait longer: saving serializes the whole text (a part per task, see persistence.ts).
    const delay = store.getState().text.length > 1_000_000 ? 600 : 150;
    docTimer = setTimeout(() => {
      docTimer = null;
      whenIdle(() => void saveDocumentNowOrQueue());
    }, delay);
  };

  // Leaving the page: the debounced save may never run. Hidden (tab switch, minimise): save at once, the page is
  // still alive. pagehide (reload, close, navigation): nothing asynchronous finishes, so the edit goes to
  // localStorage synchronously and IndexedDB gets a write that does not wait.
  const onHidden = () => {
    if (lifecycle?.document?.visibilityState === 'hidden' && dirty()) void saveDocumentNowOrQueue();
  };
  const onPageHide = () => {
    if (stale || !dirty()) return;
    const doc = snapshot();
    savePending(target.storage, doc, revision);
    documents.writeNow(doc, revision + 1);
  };
  lifecycle?.addEventListener('visibilitychange', onHidden);
  lifecycle?.addEventListener('pagehide', onPageHide);

  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      const message = event.data as Partial<SaveMessage> | null;
      if (!message || message.tab === tab || !Number.isSafeInteger(message.revision)) return;
      if ((message.revision as number) > revision) fallBehind(message.revision as number);
    };
  }

  resolveConflict = async (choice) => {
    if (choice === 'keep') {
      stale = false;
      store.getState().setDocumentConflict(null);
      return saveDocumentNowOrQueue(true);
    }
    const newer = await documents.read();
    if (!newer || newer === 'corrupt') {
      stale = false;
      store.getState().setDocumentConflict(null);
      return;
    }
    revision = newer.revision ?? revision;
    store.getState().setDocument(newer.text, { name: newer.name, pageStarts: newer.pageStarts ?? null });
    saved = snapshot();
    stale = false;
    store.getState().setDocumentConflict(null);
  };

  const unsubscribe = [
    watch(store, (s) => s.config, saveSettingsSoon),
    watch(store, (s) => [s.text, s.docName, s.pageStarts] as const, saveDocumentSoon, sameItems),
  ];
  if (target.unsaved) saveDocumentSoon();
  return () => {
    for (const u of unsubscribe) u();
    lifecycle?.removeEventListener('visibilitychange', onHidden);
    lifecycle?.removeEventListener('pagehide', onPageHide);
    if (channel && target.channel === undefined) channel.close();
    resolveConflict = null;
    if (settingsTimer) clearTimeout(settingsTimer);
    if (docTimer) clearTimeout(docTimer);
  };
}
