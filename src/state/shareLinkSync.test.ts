import { beforeEach, describe, expect, it } from 'vitest';
import type { PreviousDocumentStorage, StoredDocument } from './persistence';
import { dismissPreviousDocument, restorePreviousDocument, usePreviousDocumentStorage } from './previousDocument';
import { encodeShareFragment } from './shareLink';
import { applySharedLink, SETTINGS_ONLY_NOTICE, SETTINGS_ONLY_SAMPLE_NOTICE, type ShareTarget } from './shareLinkSync';
import { useStore } from './store';

/** A fake address bar whose location is live, as window.location is (replaceState changes what it reads). */
function target(url: string, session = new Map<string, string>()): ShareTarget & { url: URL } {
  const t = {
    url: new URL(url),
    get location() {
      return { href: t.url.href, pathname: t.url.pathname, search: t.url.search, hash: t.url.hash };
    },
    history: { state: null, replaceState: (_s: unknown, _t: string, next: string) => void (t.url = new URL(next, t.url)) },
    session: { getItem: (k: string) => session.get(k) ?? null, setItem: (k: string, v: string) => void session.set(k, v) },
  };
  return t;
}

const SAMPLE = 'the sample';

describe('applySharedLink', () => {
  let kept: StoredDocument | null = null;
  beforeEach(() => {
    useStore.getState().resetDocument();
    useStore.getState().resetUi();
    useStore.getState().resetPersistence();
    useStore.getState().setDocument(SAMPLE, { name: 'sample.md' });
    kept = null;
    const memory: PreviousDocumentStorage = {
      keep: async (doc) => void (kept = doc),
      has: async () => kept !== null,
      read: async () => kept,
      drop: async () => void (kept = null),
    };
    usePreviousDocumentStorage(memory);
  });

  it('a link that replaces the person’s own document keeps it and offers it back until restored', async () => {
    useStore.getState().setDocument('my own notes', { name: 'mine.md' });
    await applySharedLink(useStore, SAMPLE, target(`http://h/#${encodeShareFragment({ text: 'Shared text', name: 'notes.md' })}`));
    expect(useStore.getState().text).toBe('Shared text');
    expect(useStore.getState().previousKept).toBe(true);
    expect(kept).toMatchObject({ text: 'my own notes', name: 'mine.md' });
    await restorePreviousDocument(useStore);
    expect(useStore.getState().text).toBe('my own notes');
    expect(useStore.getState().docName).toBe('mine.md');
    expect(useStore.getState().previousKept).toBe(false);
    expect(kept).toBeNull();
  });

  it('dismissing the offer drops the kept document; the sample is never kept', async () => {
    await applySharedLink(useStore, SAMPLE, target(`http://h/#${encodeShareFragment({ text: 'Shared', name: null })}`));
    expect(useStore.getState().previousKept).toBe(false);
    useStore.getState().setDocument('mine');
    await applySharedLink(useStore, SAMPLE, target(`http://h/#${encodeShareFragment({ text: 'Shared again', name: null })}`));
    expect(useStore.getState().previousKept).toBe(true);
    await dismissPreviousDocument(useStore);
    expect(useStore.getState().previousKept).toBe(false);
    expect(useStore.getState().text).toBe('Shared again');
    expect(kept).toBeNull();
  });

  it('a damaged link (1.9 M × "Q", or empty) opens nothing and keeps the document', async () => {
    useStore.getState().setDocument('mine');
    for (const hash of [`#doc=${'Q'.repeat(1_900_000)}`, '#doc=']) {
      await applySharedLink(useStore, SAMPLE, target(`http://h/${hash}`));
      expect(useStore.getState().text).toBe('mine');
      expect(useStore.getState().notice).toMatch(/^This link is damaged: [^.]+\. Nothing was opened\. Your own document is shown\.$/);
      expect(useStore.getState().previousKept).toBe(false);
    }
  });

  it('a link with #doc= opens its document and leaves the address bar without the fragment', async () => {
    const t = target(`http://h/?strategy=fixed#${encodeShareFragment({ text: 'Shared text', name: 'notes.md' })}`);
    await applySharedLink(useStore, SAMPLE, t);
    expect(useStore.getState().text).toBe('Shared text');
    expect(useStore.getState().docName).toBe('notes.md');
    expect(useStore.getState().notice).toBeNull();
    expect(t.url.href).toBe('http://h/?strategy=fixed');
  });

  it('a settings-only link says so, the first time in a tab only', async () => {
    const session = new Map<string, string>();
    await applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed&size=10', session));
    expect(useStore.getState().notice).toBe(SETTINGS_ONLY_SAMPLE_NOTICE);
    useStore.getState().setNotice(null);
    await applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed&size=10', session));
    expect(useStore.getState().notice).toBeNull();
  });

  it('with a stored document of one’s own, the notice says that one is shown', async () => {
    useStore.getState().setDocument('mine');
    await applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed'));
    expect(useStore.getState().notice).toBe(SETTINGS_ONLY_NOTICE);
  });

  it('a damaged fragment keeps the document and says why', async () => {
    await applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed#doc=@@'));
    expect(useStore.getState().text).toBe(SAMPLE);
    expect(useStore.getState().notice).toMatch(/damaged.*sample document is shown/);
  });

  it('a plain address (no configuration, no document) says nothing', async () => {
    await applySharedLink(useStore, SAMPLE, target('http://h/'));
    expect(useStore.getState().notice).toBeNull();
  });
});
