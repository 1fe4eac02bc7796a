import { beforeEach, describe, expect, it } from 'vitest';
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
  beforeEach(() => {
    useStore.getState().resetDocument();
    useStore.getState().resetUi();
    useStore.getState().setDocument(SAMPLE, { name: 'sample.md' });
  });

  it('a link with #doc= opens its document and leaves the address bar without the fragment', () => {
    const t = target(`http://h/?strategy=fixed#${encodeShareFragment({ text: 'Shared text', name: 'notes.md' })}`);
    applySharedLink(useStore, SAMPLE, t);
    expect(useStore.getState().text).toBe('Shared text');
    expect(useStore.getState().docName).toBe('notes.md');
    expect(useStore.getState().notice).toBeNull();
    expect(t.url.href).toBe('http://h/?strategy=fixed');
  });

  it('a settings-only link says so, the first time in a tab only', () => {
    const session = new Map<string, string>();
    applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed&size=10', session));
    expect(useStore.getState().notice).toBe(SETTINGS_ONLY_SAMPLE_NOTICE);
    useStore.getState().setNotice(null);
    applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed&size=10', session));
    expect(useStore.getState().notice).toBeNull();
  });

  it('with a stored document of one’s own, the notice says that one is shown', () => {
    useStore.getState().setDocument('mine');
    applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed'));
    expect(useStore.getState().notice).toBe(SETTINGS_ONLY_NOTICE);
  });

  it('a damaged fragment keeps the document and says why', () => {
    applySharedLink(useStore, SAMPLE, target('http://h/?strategy=fixed#doc=@@'));
    expect(useStore.getState().text).toBe(SAMPLE);
    expect(useStore.getState().notice).toMatch(/damaged.*sample document is shown/);
  });

  it('a plain address (no configuration, no document) says nothing', () => {
    applySharedLink(useStore, SAMPLE, target('http://h/'));
    expect(useStore.getState().notice).toBeNull();
  });
});
