import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PENDING_KEY, SETTINGS_KEY, type StoredDocument } from './persistence';
import { saveDecision } from './persistenceWrites';
import { loadStoredState } from './persistenceSync';
import { resolveDocumentConflict, SETTINGS_DELAY_MS, startPersistence, type DocumentStorage } from './persistenceWriter';
import { resetStore, useStore } from './store';
import { encodeConfig } from './urlCodec';
import { configFromUrl, startUrlSync, URL_SYNC_DELAY_MS } from './urlSync';
import { watch } from './watch';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  writes = 0;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.writes++;
    this.items.set(key, value);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  resetStore();
});
afterEach(() => vi.useRealTimers());

describe('watch', () => {
  it('calls back only when the selected part changes', () => {
    const seen: number[] = [];
    const stop = watch(useStore, (s) => s.config.size, (size) => seen.push(size));
    useStore.getState().setHoveredGap(2);
    useStore.getState().setConfig({ size: 100 });
    useStore.getState().setConfig({ size: 100 });
    useStore.getState().setConfig({ size: 200 });
    stop();
    useStore.getState().setConfig({ size: 300 });
    expect(seen).toEqual([100, 200]);
  });
});

describe('URL sync', () => {
  it('mirrors the configuration into the URL, once per pause, only when it changed', () => {
    const replaced: string[] = [];
    const target = { location: { pathname: '/app/', hash: '#x' }, history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) } };
    const stop = startUrlSync(useStore, target as never);
    vi.advanceTimersByTime(URL_SYNC_DELAY_MS);
    expect(replaced).toEqual([`/app/?${encodeConfig(useStore.getState().config)}#x`]);
    useStore.getState().setConfig({ size: 100 });
    useStore.getState().setConfig({ size: 120 });
    useStore.getState().setNotice('not the config');
    vi.advanceTimersByTime(URL_SYNC_DELAY_MS);
    expect(replaced).toHaveLength(2);
    expect(replaced[1]).toBe(`/app/?${encodeConfig(useStore.getState().config)}#x`);
    stop();
  });

  it('a shared link applies over the stored configuration; a URL without one changes nothing', () => {
    const stored = { ...useStore.getState().config, size: 300 };
    expect(configFromUrl('', stored)).toBe(stored);
    const shared = `?${encodeConfig({ ...stored, size: 777 })}`;
    expect(configFromUrl(shared, stored).size).toBe(777);
  });
});

describe('persistence sync', () => {
  it('reads stored settings and document; unreadable ones are discarded with a notice', async () => {
    const storage = new MemoryStorage();
    const fallback = { text: 'sample', name: 'sample.txt' };
    storage.setItem(SETTINGS_KEY, '{not json');
    const broken = await loadStoredState(storage, fallback, async () => 'corrupt');
    expect(broken.document).toBe(fallback);
    expect(broken.notices).toHaveLength(2);
    const saved: StoredDocument = { text: 'kept', name: 'kept.md', pageStarts: null, revision: 4 };
    const ok = await loadStoredState(new MemoryStorage(), fallback, async () => saved);
    expect(ok).toEqual({ config: useStore.getState().config, document: { text: 'kept', name: 'kept.md' }, notices: [], revision: 4, unsaved: false });
  });

  it('saves settings when the config changes and the document when it is edited, off the hot path', async () => {
    const storage = new MemoryStorage();
    const documents = memoryDocuments();
    const written = documents.writes;
    const stop = startPersistence(useStore, { storage, documents, channel: null, lifecycle: null as never, whenIdle: (run) => run() });
    useStore.getState().setHoveredGap(1);
    vi.advanceTimersByTime(1000);
    expect(storage.writes).toBe(0);
    expect(written).toEqual([]);

    useStore.getState().setConfig({ size: 100 });
    useStore.getState().setConfig({ size: 110 });
    vi.advanceTimersByTime(SETTINGS_DELAY_MS);
    expect(storage.writes).toBe(1);
    expect(JSON.parse(storage.getItem(SETTINGS_KEY)!)).toMatchObject({ size: 110 });

    useStore.getState().setDocument('edited', { name: 'notes.md' });
    useStore.getState().setDocument('edited twice', { name: 'notes.md' });
    await vi.advanceTimersByTimeAsync(200);
    expect(written).toEqual([{ text: 'edited twice', name: 'notes.md', pageStarts: null }]);
    stop();
  });

  it('writers started after the first paint save what changed since the start, and nothing when nothing did', async () => {
    const begun = useStore.getState();
    const start = { config: begun.config, document: { text: begun.text, name: begun.docName, pageStarts: begun.pageStarts } };
    const quiet = new MemoryStorage();
    const quietDocuments = memoryDocuments();
    const stopQuiet = startPersistence(useStore, { storage: quiet, documents: quietDocuments, channel: null, lifecycle: null as never, whenIdle: (run) => run(), start });
    await vi.advanceTimersByTimeAsync(1000);
    expect(quiet.writes).toBe(0);
    expect(quietDocuments.writes).toEqual([]);
    stopQuiet();

    // A slider move and an edit before the writers were loaded.
    useStore.getState().setConfig({ size: 130 });
    useStore.getState().setDocument('typed early', { name: 'early.md' });
    const storage = new MemoryStorage();
    const documents = memoryDocuments();
    const stop = startPersistence(useStore, { storage, documents, channel: null, lifecycle: null as never, whenIdle: (run) => run(), start });
    await vi.advanceTimersByTimeAsync(1000);
    expect(JSON.parse(storage.getItem(SETTINGS_KEY)!)).toMatchObject({ size: 130 });
    expect(documents.writes).toEqual([{ text: 'typed early', name: 'early.md', pageStarts: null }]);
    stop();
  });

  it('an edit is saved at once when the page is hidden, and kept synchronously when it goes away', async () => {
    const storage = new MemoryStorage();
    const documents = memoryDocuments();
    const lifecycle = Object.assign(new EventTarget(), { document: { visibilityState: 'visible' } });
    const stop = startPersistence(useStore, { storage, documents, channel: null, lifecycle: lifecycle as never, whenIdle: (run) => run() });
    useStore.getState().setDocument('typed', { name: null });
    lifecycle.document.visibilityState = 'hidden';
    lifecycle.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(documents.writes.map((d) => d.text)).toEqual(['typed']);

    // pagehide before the debounce: nothing asynchronous may finish, so localStorage holds the edit.
    useStore.getState().setDocument('typed more', { name: null });
    lifecycle.dispatchEvent(new Event('pagehide'));
    expect(documents.immediate.map((d) => d.text)).toEqual(['typed more']);
    expect(JSON.parse(storage.getItem(PENDING_KEY)!)).toMatchObject({ text: 'typed more', baseRevision: 1 });
    stop();
    // Next visit: the immediate write did not land (stored revision still 1): the pending edit wins and is saved.
    const next = await loadStoredState(storage, { text: 'sample', name: 's' }, async () => documents.stored);
    expect(next).toMatchObject({ document: { text: 'typed more' }, unsaved: true, revision: 1 });
    expect(storage.getItem(PENDING_KEY)).toBeNull();
    // A pending edit older than the stored revision (another tab saved since) is not taken.
    storage.setItem(PENDING_KEY, JSON.stringify({ text: 'old', name: null, pageStarts: null, baseRevision: 0 }));
    expect(await loadStoredState(storage, { text: 'sample', name: 's' }, async () => documents.stored)).toMatchObject({ document: { text: 'typed' }, unsaved: false });
  });

  it('a tab that fell behind never overwrites the newer document: it says so and offers to load it', async () => {
    const storage = new MemoryStorage();
    const documents = memoryDocuments();
    await documents.write({ text: 'first', name: null }, 0, false);
    useStore.getState().setDocument('first', { name: null });
    const channel = { postMessage: vi.fn(), close: vi.fn(), onmessage: null as ((e: MessageEvent) => void) | null };
    const stop = startPersistence(useStore, { storage, documents, revision: 1, channel, lifecycle: null as never, whenIdle: (run) => run() });
    // Another tab saves revision 2 (and, say, its announcement is lost).
    await documents.write({ text: 'newer from the other tab', name: null }, 1, false);
    useStore.getState().setDocument('first!', { name: null });
    await vi.advanceTimersByTimeAsync(200);
    expect(documents.stored?.text).toBe('newer from the other tab');
    expect(useStore.getState().documentConflict).toEqual({ revision: 2 });
    // Held while the person has not chosen.
    useStore.getState().setDocument('first!!', { name: null });
    await vi.advanceTimersByTimeAsync(200);
    expect(documents.stored?.text).toBe('newer from the other tab');
    await resolveDocumentConflict('load');
    expect(useStore.getState()).toMatchObject({ text: 'newer from the other tab', documentConflict: null });
    // Up to date again: the next edit saves over revision 2 and is announced.
    useStore.getState().setDocument('newer, edited here', { name: null });
    await vi.advanceTimersByTimeAsync(200);
    expect(documents.stored).toMatchObject({ text: 'newer, edited here', revision: 3 });
    expect(channel.postMessage).toHaveBeenLastCalledWith(expect.objectContaining({ revision: 3 }));
    // An announcement of a newer save marks the tab behind at once; keeping this tab's version saves it over.
    channel.onmessage!({ data: { tab: 'other', revision: 9 } } as MessageEvent);
    expect(useStore.getState().documentConflict).toEqual({ revision: 9 });
    await resolveDocumentConflict('keep');
    expect(documents.stored).toMatchObject({ text: 'newer, edited here', revision: 4 });
    stop();
  });
});

/** A document store with IndexedDB's revision rule (saveDecision), in memory. */
function memoryDocuments(): DocumentStorage & { stored: StoredDocument | null; writes: StoredDocument[]; immediate: StoredDocument[] } {
  const self = {
    stored: null as StoredDocument | null,
    writes: [] as StoredDocument[],
    immediate: [] as StoredDocument[],
    read: async () => self.stored,
    write: async (doc: StoredDocument, base: number, force: boolean) => {
      const outcome = saveDecision(self.stored?.revision ?? 0, base, force);
      if (outcome.ok) {
        self.writes.push(doc);
        self.stored = { ...doc, revision: outcome.revision };
      }
      return outcome;
    },
    writeNow: (doc: StoredDocument) => void self.immediate.push(doc),
  };
  return self;
}
