import type { StoreApi } from 'zustand';
import type { Config } from './configSlice';
import { loadDocument, savePending, saveSettings, type StoredDocument } from './persistence';
import { saveDocument, saveDocumentNow, type SaveOutcome } from './persistenceWrites';
import type { AppState } from './store';
import { encodeConfig } from './urlCodec';
import { sameItems, watch } from './watch';

/**
 * The writers of local persistence (persistenceSync.ts reads it at start): settings to localStorage, the document
 * to IndexedDB, tabs kept from overwriting each other. Not on the first paint's path: the controller starts them
 * after the first paint (or at the first change before it) with the state the page started from (`start`), so a
 * change made before they started is saved as any other.
 */

export const SETTINGS_DELAY_MS = 120;

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
  /** The settings and document the page started from, when the writers start later (default: the store's now). */
  start?: { config: Config; document: StoredDocument };
}

/** The running persistence's answer to a document conflict (see resolveDocumentConflict). */
let resolveConflict: ((choice: 'load' | 'keep') => Promise<void>) | null = null;

/** The stale-tab banner's buttons: load the newer stored document, or keep this tab's and save it over. */
export function resolveDocumentConflict(choice: 'load' | 'keep'): Promise<void> {
  return resolveConflict?.(choice) ?? Promise.resolve();
}

/**
 * Saves the settings and the document as they change (settings debounced; the document after a short wait and when
 * the browser is idle, at once when the tab is hidden, synchronously when the page goes), and keeps tabs from
 * overwriting each other: a tab that sees a newer revision stored elsewhere writes nothing until the person chooses.
 */
export function startPersistence(store: StoreApi<AppState>, target: PersistenceTarget): () => void {
  const persistence = new DocumentPersistence(store, target);
  resolveConflict = (choice) => persistence.resolve(choice);
  return () => {
    persistence.stop();
    resolveConflict = null;
  };
}

class DocumentPersistence {
  private readonly documents: DocumentStorage;
  private readonly whenIdle: (run: () => void) => void;
  private readonly lifecycle: PersistenceTarget['lifecycle'] | undefined;
  private readonly channel: NonNullable<PersistenceTarget['channel']> | null;
  private readonly tab = Math.random().toString(36).slice(2);
  private settingsTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSettings: string;
  private docTimer: ReturnType<typeof setTimeout> | null = null;
  /** The document as last confirmed stored (its parts by identity), the revision it has, and whether another tab
   * stored a newer one since (then nothing is written until the person chooses). */
  private saved: StoredDocument | null;
  private revision: number;
  private stale = false;
  /** Writes run one after another, in order. */
  private writing: Promise<void> = Promise.resolve();
  private readonly unsubscribe: (() => void)[];
  private readonly onHidden = () => {
    if (this.lifecycle?.document?.visibilityState === 'hidden' && this.dirty()) void this.saveDocumentNowOrQueue();
  };
  private readonly onPageHide = () => {
    if (this.stale || !this.dirty()) return;
    const doc = this.snapshot();
    savePending(this.target.storage, doc, this.revision);
    this.documents.writeNow(doc, this.revision + 1);
  };

  constructor(
    private readonly store: StoreApi<AppState>,
    private readonly target: PersistenceTarget,
  ) {
    this.documents = target.documents ?? INDEXED_DB;
    this.whenIdle =
      target.whenIdle ??
      ((run: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : run()));
    this.lifecycle = target.lifecycle === undefined ? (typeof window !== 'undefined' ? window : undefined) : target.lifecycle;
    this.channel = target.channel !== undefined ? target.channel : typeof BroadcastChannel === 'function' ? new BroadcastChannel(DOCUMENT_CHANNEL) : null;
    this.lastSettings = encodeConfig(target.start?.config ?? store.getState().config);
    this.saved = target.unsaved ? null : (target.start?.document ?? this.snapshot());
    this.revision = target.revision ?? 0;
    // Leaving the page: the debounced save may never run. Hidden (tab switch, minimise): save at once, the page is
    // still alive. pagehide (reload, close, navigation): nothing asynchronous finishes, so the edit goes to
    // localStorage synchronously and IndexedDB gets a write that does not wait.
    this.lifecycle?.addEventListener('visibilitychange', this.onHidden);
    this.lifecycle?.addEventListener('pagehide', this.onPageHide);
    if (this.channel) this.channel.onmessage = (event: MessageEvent) => this.onOtherTabSaved(event.data as Partial<SaveMessage> | null);
    this.unsubscribe = [
      watch(store, (s) => s.config, () => this.saveSettingsSoon()),
      watch(store, (s) => [s.text, s.docName, s.pageStarts] as const, () => this.saveDocumentSoon(), sameItems),
    ];
    // Changed since the start (the writers started late): saved as any change.
    if (encodeConfig(store.getState().config) !== this.lastSettings) this.saveSettingsSoon();
    if (this.dirty()) this.saveDocumentSoon();
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.lifecycle?.removeEventListener('visibilitychange', this.onHidden);
    this.lifecycle?.removeEventListener('pagehide', this.onPageHide);
    if (this.channel && this.target.channel === undefined) this.channel.close();
    if (this.settingsTimer) clearTimeout(this.settingsTimer);
    if (this.docTimer) clearTimeout(this.docTimer);
  }

  /** The stale-tab banner's answer: keep this tab's document (saved over the newer one) or load the newer one. */
  async resolve(choice: 'load' | 'keep'): Promise<void> {
    if (choice === 'keep') {
      this.settle();
      return this.saveDocumentNowOrQueue(true);
    }
    const newer = await this.documents.read();
    if (!newer || newer === 'corrupt') return this.settle();
    this.revision = newer.revision ?? this.revision;
    this.store.getState().setDocument(newer.text, { name: newer.name, pageStarts: newer.pageStarts ?? null });
    this.saved = this.snapshot();
    this.settle();
  }

  private snapshot(): StoredDocument {
    const s = this.store.getState();
    return { text: s.text, name: s.docName, pageStarts: s.pageStarts };
  }

  private dirty(): boolean {
    const now = this.snapshot();
    const saved = this.saved;
    return !saved || saved.text !== now.text || saved.name !== now.name || saved.pageStarts !== now.pageStarts;
  }

  private fallBehind(newer: number): void {
    this.stale = true;
    this.store.getState().setDocumentConflict({ revision: newer });
  }

  private settle(): void {
    this.stale = false;
    this.store.getState().setDocumentConflict(null);
  }

  private onOtherTabSaved(message: Partial<SaveMessage> | null): void {
    if (!message || message.tab === this.tab || !Number.isSafeInteger(message.revision)) return;
    if ((message.revision as number) > this.revision) this.fallBehind(message.revision as number);
  }

  private saveSettingsSoon(): void {
    this.settingsTimer ??= setTimeout(() => {
      this.settingsTimer = null;
      const config = this.store.getState().config;
      const query = encodeConfig(config);
      if (query === this.lastSettings) return;
      this.lastSettings = query;
      saveSettings(this.target.storage, config);
    }, SETTINGS_DELAY_MS);
  }

  /** Write the document now (in order after any write under way) unless it is stored already or this tab is behind. */
  private saveDocumentNowOrQueue(force = false): Promise<void> {
    if (this.docTimer) clearTimeout(this.docTimer);
    this.docTimer = null;
    this.writing = this.writing.then(() => this.writeDocument(force));
    return this.writing;
  }

  private async writeDocument(force: boolean): Promise<void> {
    if ((this.stale && !force) || (!force && !this.dirty())) return;
    const doc = this.snapshot();
    try {
      const outcome = await this.documents.write(doc, this.revision, force);
      if (!outcome.ok) return this.fallBehind(outcome.revision);
      this.revision = outcome.revision;
      this.saved = doc;
      this.channel?.postMessage({ tab: this.tab, revision: this.revision } satisfies SaveMessage);
    } catch {
      this.store.getState().setNotice('The document could not be saved in this browser; it will not survive a reload.');
    }
  }

  private saveDocumentSoon(): void {
    if (this.docTimer) clearTimeout(this.docTimer);
    // Big documents wait longer: saving serializes the whole text (a part per task, see persistence.ts).
    const delay = this.store.getState().text.length > 1_000_000 ? 600 : 150;
    this.docTimer = setTimeout(() => {
      this.docTimer = null;
      this.whenIdle(() => void this.saveDocumentNowOrQueue());
    }, delay);
  }
}
