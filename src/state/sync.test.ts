import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_KEY, type StoredDocument } from './persistence';
import { loadStoredState, SETTINGS_DELAY_MS, startPersistence } from './persistenceSync';
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
    const saved: StoredDocument = { text: 'kept', name: 'kept.md', pageStarts: null };
    const ok = await loadStoredState(new MemoryStorage(), fallback, async () => saved);
    expect(ok).toEqual({ config: useStore.getState().config, document: saved, notices: [] });
  });

  it('saves settings when the config changes and the document when it is edited, off the hot path', () => {
    const storage = new MemoryStorage();
    const written: StoredDocument[] = [];
    const stop = startPersistence(useStore, { storage, writeDocument: async (d) => void written.push(d), whenIdle: (run) => run() });
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
    vi.advanceTimersByTime(200);
    expect(written).toEqual([{ text: 'edited twice', name: 'notes.md', pageStarts: null }]);
    stop();
  });
});
