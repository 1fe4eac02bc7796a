import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './configSlice';
import { answerEmbedderConsent, availableWithoutDownload, embedderConsentText, holdLinkedEmbedder, isHubModel } from './embedderConsent';
import { resetStore, useStore } from './store';
import { checkedConfigFromUrl } from './urlSync';

beforeEach(() => resetStore());

describe('a hub model named by a link', () => {
  const link = (query: string) => checkedConfigFromUrl(query, DEFAULT_CONFIG).config;

  it('waits for the person: the current model stays until they agree', async () => {
    const config = await holdLinkedEmbedder(useStore, link('?strategy=semantic&embedder=Xenova/all-MiniLM-L6-v2'), DEFAULT_CONFIG, async () => false);
    expect(config).toMatchObject({ strategy: 'semantic', embedder: 'builtin' });
    expect(useStore.getState().embedderToConfirm).toBe('Xenova/all-MiniLM-L6-v2');
    useStore.getState().setConfig(config);
    answerEmbedderConsent(useStore, true);
    expect(useStore.getState()).toMatchObject({ embedderToConfirm: null, config: { embedder: 'Xenova/all-MiniLM-L6-v2' } });
  });

  it('"keep" leaves the model as it was', async () => {
    await holdLinkedEmbedder(useStore, link('?strategy=semantic&embedder=someone/model'), DEFAULT_CONFIG, async () => false);
    answerEmbedderConsent(useStore, false);
    expect(useStore.getState()).toMatchObject({ embedderToConfirm: null, config: { embedder: 'builtin' } });
  });

  it('needs no question for the built-in model, the model already in use, or one available without a download', async () => {
    const asks = async (query: string, before = DEFAULT_CONFIG, available = false) => {
      resetStore();
      await holdLinkedEmbedder(useStore, link(query), before, async () => available);
      return useStore.getState().embedderToConfirm;
    };
    expect(await asks('?strategy=semantic&embedder=builtin')).toBeNull();
    expect(await asks('?strategy=semantic')).toBeNull();
    expect(await asks('?strategy=semantic&embedder=a/b', { ...DEFAULT_CONFIG, embedder: 'a/b' })).toBeNull();
    expect(await asks('?strategy=semantic&embedder=a/b', DEFAULT_CONFIG, true)).toBeNull();
    expect(await asks('?strategy=semantic&embedder=a/b')).toBe('a/b');
  });

  it('cached or self-hosted counts as available; a failing check asks', async () => {
    expect(await availableWithoutDownload('a/b', async () => ['a/b'], async () => false)).toBe(true);
    expect(await availableWithoutDownload('a/b', async () => [], async () => true)).toBe(true);
    expect(await availableWithoutDownload('a/b', async () => Promise.reject(new Error('no caches')), async () => Promise.reject(new Error('offline')))).toBe(false);
    expect(isHubModel('builtin') || isHubModel('local/my-folder')).toBe(false);
  });

  it('says which model, from where and about how much', () => {
    expect(embedderConsentText('Xenova/all-MiniLM-L6-v2')).toMatch(/Xenova\/all-MiniLM-L6-v2.*about \d.* MB from the Hugging Face hub/);
  });
});
