import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCache } from '../core/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { LlmController } from './llmController';
import { llmLibraryCode, llmRunFile } from './llmExport';
import { applyShareFile } from './shareFile';
import { startLlmSync } from './llmSync';
import { LLM_KEY_STORAGE, rememberedKey } from './llmKey';
import { DEFAULT_LLM_SETTINGS, encodeLlmQuery, initialLlmSettings, isLoopback, parseLlmSettings, storedLlmSettings, templatesFor } from './llmSettings';
import { resetStore, useStore } from './store';
import { policyHandbook } from '../ui/samples/policyHandbook';

/** A localStorage stand-in (the slice reads globalThis.localStorage). */
class MapStorage {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

describe('LLM settings are configuration, the key is not', () => {
  it('the link carries feature, base URL, model and edited templates, and reads them back', () => {
    const settings = { ...DEFAULT_LLM_SETTINGS, feature: 'propositions' as const, baseUrl: 'https://api.example.com/v1', model: 'm', templates: { propositions: { system: 'S', text: 'T {passage}' } } };
    const query = encodeLlmQuery(settings);
    expect(initialLlmSettings(`?strategy=recursive&${query}`, null)).toEqual(settings);
    expect(encodeLlmQuery(DEFAULT_LLM_SETTINGS)).toBe('');
  });

  it('never writes a key slipped into the settings object, in the link or the stored copy', () => {
    const withKey = { ...DEFAULT_LLM_SETTINGS, model: 'x', apiKey: 'fake-key-123' } as typeof DEFAULT_LLM_SETTINGS;
    expect(decodeURIComponent(encodeLlmQuery(withKey))).not.toContain('fake-key-123');
    expect(storedLlmSettings(withKey)).not.toContain('fake-key-123');
  });

  it('the run export and the copied code hold the settings but never the key', () => {
    const settings = { ...DEFAULT_LLM_SETTINGS, model: 'qwen', apiKey: 'fake-key-9' } as typeof DEFAULT_LLM_SETTINGS;
    const result = { documentSerial: 1, configKey: 'k', feature: 'contextual', chunks: [], cost: 0, report: {} as never };
    const file = llmRunFile(result, settings, { size: 800 });
    const code = llmLibraryCode(settings, { size: 800 });
    expect(JSON.parse(file).llm).toMatchObject({ feature: 'contextual', model: 'qwen', baseUrl: DEFAULT_LLM_SETTINGS.baseUrl });
    expect(code).toContain("model: \"qwen\"");
    expect(code).toContain('process.env.OPENAI_API_KEY');
    expect(file + code).not.toContain('fake-key-9');
  });

  it('a share file carries the LLM settings like its link', () => {
    resetStore();
    const query = `strategy=recursive&${encodeLlmQuery({ ...DEFAULT_LLM_SETTINGS, feature: 'summaries', model: 'm2' })}`;
    applyShareFile(useStore, { kind: 'chunkscope-share', version: 1, query, document: { name: null, text: 'Shared.' } });
    expect(useStore.getState().llmSettings).toMatchObject({ feature: 'summaries', model: 'm2' });
  });

  it('drops malformed fields and keeps the rest', () => {
    expect(parseLlmSettings('{"feature":"nope","model":"ok","concurrency":-1,"templates":{"evil":{"system":"","text":""}}}')).toEqual({ model: 'ok', templates: {} });
    expect(parseLlmSettings('not json')).toEqual({});
  });

  it('an edited template keeps its id and version; the others stay the defaults', () => {
    const t = templatesFor({ ...DEFAULT_LLM_SETTINGS, templates: { summaries: { system: 's', text: 't' } } });
    expect(Object.keys(t)).toEqual(['summaries']);
    expect(t.summaries).toMatchObject({ id: 'summaries', version: 1, system: 's', text: 't' });
  });

  it('loopback is localhost, 127.0.0.0/8 and ::1; anything else is another host', () => {
    for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:8080/v1', 'http://127.9.9.9/v1', 'http://[::1]:1234/v1']) expect(isLoopback(url)).toBe(true);
    for (const url of ['https://api.openai.com/v1', 'http://192.168.1.5:11434/v1', 'http://localhost.evil.com/v1', 'http://128.0.0.1/v1', 'not a url']) expect(isLoopback(url)).toBe(false);
  });
});

describe('the API key stays in memory unless remembered', () => {
  const storage = new MapStorage();
  beforeAll(() => {
    (globalThis as { localStorage?: unknown }).localStorage = storage;
  });
  afterAll(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });
  beforeEach(() => {
    storage.map.clear();
    resetStore();
  });

  it('typing a key writes nothing; ticking Remember writes it; unticking erases it', () => {
    const s = useStore.getState();
    s.setLlmApiKey('fake-typed');
    expect([...storage.map.values()].join()).not.toContain('fake-typed');
    s.setLlmRememberKey(true);
    expect(rememberedKey(storage)).toBe('fake-typed');
    useStore.getState().setLlmApiKey('fake-changed');
    expect(storage.getItem(LLM_KEY_STORAGE)).toBe('fake-changed');
    useStore.getState().setLlmRememberKey(false);
    expect(storage.getItem(LLM_KEY_STORAGE)).toBeNull();
    expect(useStore.getState().llmApiKey).toBe('fake-changed'); // still usable this session
  });

  it('the settings are stored between visits, never the key', async () => {
    const stop = startLlmSync(useStore, storage);
    useStore.getState().setLlmApiKey('fake-never-stored');
    useStore.getState().setLlmSettings({ model: 'qwen' });
    stop();
    expect([...storage.map.values()].join()).toContain('qwen');
    expect([...storage.map.values()].join()).not.toContain('fake-never-stored');
  });
});

describe('the run controller against the fake server', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    resetStore();
    server.requests.length = 0;
    server.slowMs = 2_000;
    const s = useStore.getState();
    s.setDocument(policyHandbook, { name: 'employee-handbook.md', pageStarts: null });
    s.setConfig({ strategy: 'recursive', size: 800 });
    s.setLlmSettings({ baseUrl: server.baseUrl, model: 'fake', feature: 'contextual', concurrency: 2 });
  });

  it('estimates without sending, runs, fills llmResult, and a second estimate counts everything cached', async () => {
    const controller = new LlmController({ store: useStore, cache: new MemoryCache() });
    await controller.estimate();
    const first = useStore.getState().llmEstimate;
    expect(first && 'estimate' in first && first.estimate.requests).toBeGreaterThan(2);
    expect(server.requests.length).toBe(0);
    await controller.run();
    const result = useStore.getState().llmResult!;
    expect(result.feature).toBe('contextual');
    expect(result.documentSerial).toBe(useStore.getState().documentSerial);
    expect(result.chunks.every((c) => typeof c.metadata.context === 'string' && c.text === policyHandbook.slice(c.start, c.end))).toBe(true);
    expect(useStore.getState().llmRun.tokensIn).toBeGreaterThan(0);
    const sent = server.requests.length;
    await controller.estimate();
    const again = useStore.getState().llmEstimate;
    expect(again && 'estimate' in again && again.estimate.cached).toBe(sent);
    expect(server.requests.length).toBe(sent);
  });

  it('Cancel aborts midway; Run again sends only what was not answered', async () => {
    const cache = new MemoryCache();
    const controller = new LlmController({ store: useStore, cache });
    server.slowMs = 400;
    // The marker is in every prompt (each holds the document): every answer takes slowMs.
    useStore.getState().setDocument(`${policyHandbook}\n\n[[fault:slow]]`, { name: null, pageStarts: null });
    const running = controller.run();
    await expect.poll(() => useStore.getState().llmRun.done, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    controller.cancel();
    await running;
    expect(useStore.getState().llmRun.phase).toBe('cancelled');
    expect(useStore.getState().llmResult).toBeNull();
    const answered = cache.size;
    expect(answered).toBeGreaterThanOrEqual(2);
    server.requests.length = 0;
    server.slowMs = 0;
    await controller.run();
    const total = useStore.getState().llmResult!.report.requests;
    expect(useStore.getState().llmResult!.report.cached).toBe(answered);
    expect(server.requests.length).toBeLessThanOrEqual(total - answered + 2); // at most the 2 in flight at Cancel, resent
  });

  it('a configuration already run redraws from the cache without a request; a document change clears the result', async () => {
    const controller = new LlmController({ store: useStore, cache: new MemoryCache() });
    const stops = [controller.start(), startLlmSync(useStore, null)];
    await controller.run();
    const key = useStore.getState().llmResult!.configKey;
    useStore.getState().setConfig({ size: 500 });
    await controller.estimate();
    expect(useStore.getState().llmResult!.configKey).toBe(key); // not re-run: size 500 is not cached
    useStore.getState().setConfig({ size: 800 });
    server.requests.length = 0;
    await controller.estimate();
    expect(useStore.getState().llmResult!.configKey).toBe(key);
    expect(server.requests.length).toBe(0);
    useStore.getState().setDocument('Another document.', { name: null, pageStarts: null });
    expect(useStore.getState().llmResult).toBeNull();
    stops.forEach((stop) => stop());
  });

  it('a 500 on one chunk is recorded on that chunk and the rest goes on', async () => {
    const controller = new LlmController({ store: useStore, cache: new MemoryCache() });
    useStore.getState().setLlmSettings({ concurrency: 1, timeoutS: 5 });
    server.failNext('500', 4); // the first request and its 3 retries
    await controller.run();
    const { chunks, report } = useStore.getState().llmResult!;
    expect(report.failed).toBe(1);
    expect(report.failuresByKind['http-5xx']).toBe(1);
    expect(chunks.filter((c) => c.metadata.llmError).length).toBe(1);
    expect(chunks.filter((c) => typeof c.metadata.context === 'string').length).toBe(chunks.length - 1);
  }, 30_000);
});
