import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk as coreChunk } from '../core/index';
import { MemoryCache } from '../core/llm/cache';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { chunk, LlmStrictError, runLlm } from './index';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const doc = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} says one thing. It then says another thing about ${i}.`).join('\n\n');
const options = { strategy: 'recursive', size: 80, overlap: 0 } as const;

describe('chunk() in the library with and without llm', () => {
  it('without llm (absent, undefined or null) is core chunk() exactly', async () => {
    const core = await coreChunk(doc, options);
    expect(await chunk(doc, options)).toEqual(core);
    expect(await chunk(doc, { ...options, llm: undefined })).toEqual(core);
    expect(await chunk(doc, { ...options, llm: null })).toEqual(core);
  });

  it('cancelled midway, a re-run with the same cache sends only what was not done', async () => {
    const cache = new MemoryCache();
    const controller = new AbortController();
    const llm = { feature: 'contextual', baseUrl: server.baseUrl, model: 'fake-1', cache, concurrency: 1 };
    const run = chunk(doc, { ...options, llm: { ...llm, signal: controller.signal, onRequestDone: (done: number) => done === 4 && controller.abort() } });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(cache.size).toBe(4);
    const before = server.requests.length;
    let report: { requests: number; cached: number; sent: number } | undefined;
    const chunks = await chunk(doc, { ...options, llm: { ...llm, onReport: (r) => (report = r) } });
    expect(report!.cached).toBe(4);
    expect(report!.sent).toBe(report!.requests - 4);
    expect(server.requests.length - before).toBe(report!.requests - 4);
    expect(chunks.every((c) => typeof c.metadata.context === 'string')).toBe(true);
  });

  it('strict: any failure rejects with one line naming the kinds', async () => {
    server.failNext('invalid-json');
    const err = await runLlm(doc, options, { feature: 'summaries', baseUrl: server.baseUrl, model: 'fake-1', strict: true }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmStrictError);
    expect(err.message).toMatch(/^LLM summaries: 1 invalid-json \(first: the answer holds no JSON/);
    expect(err.message).not.toContain('\n');
  });
});
