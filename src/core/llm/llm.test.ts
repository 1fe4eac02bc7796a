import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, INVENTED_PROPOSITION, type FakeLlmServer } from '../../testing/fakeLlmServer';
import { MemoryCache } from './cache';
import { firstJsonValue } from './json';
import { sendWithPolicy } from './policy';
import { getLlmProvider } from './providers/registry';
import { estimateLlmRun, runLlmFeature, type LlmOptions } from './run';
import { LlmError } from './types';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const doc =
  '# Handbook\n\nChunkscope shows where chunks start and end. It counts sizes in characters, words or tokens.\n\n' +
  '## Overlap\n\nOverlap is measured from offsets. It is never assumed from the setting. Neighbours share text.\n\n' +
  '## Retrieval\n\nRetrieval finds chunks for a question. Recall says how much of the answer was found. Precision says how much was noise.\n';
const base = { strategy: 'recursive', size: 120, overlap: 0 } as const;
const llm = (feature: string, extra: Partial<LlmOptions> = {}): LlmOptions => ({
  feature,
  baseUrl: server.baseUrl,
  model: 'fake-1',
  policy: { backoffMs: 10, timeoutMs: 1_000 },
  ...extra,
});

describe('tolerant JSON', () => {
  it('finds the first JSON value in prose and code fences', () => {
    expect(firstJsonValue('{"a":1}')).toEqual({ a: 1 });
    expect(firstJsonValue('Sure! ```json\n{"a": [1, "}"]}\n``` done')).toEqual({ a: [1, '}'] });
    expect(firstJsonValue('see [the note] and then {"b": 2} and {"c": 3}')).toEqual({ b: 2 });
    expect(firstJsonValue('no json here')).toBeUndefined();
  });
});

describe('the openai-compatible provider under the request policy (real HTTP on loopback)', () => {
  const client = () => getLlmProvider('openai-compatible').create({ baseUrl: server.baseUrl, model: 'fake-1', apiKey: 'fake-test-key' });
  const ask = { prompt: 'Summarise.\n<text>\nOne. Two.\n</text>', schema: { type: 'object' } };

  it('sends the key as a bearer token and asks for structured output', async () => {
    const before = server.requests.length;
    const answer = await sendWithPolicy(client(), ask);
    expect(firstJsonValue(answer.text)).toEqual({ summary: 'Summary: One.' });
    const sent = server.requests[before]!;
    expect(sent.authorization).toBe('Bearer fake-test-key');
    expect(sent.body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('retries a 500 and a 429 (waiting its Retry-After), then answers', async () => {
    server.retryAfterSeconds = 1;
    server.failNext('500');
    server.failNext('429');
    const started = Date.now();
    const retries: string[] = [];
    const answer = await sendWithPolicy(client(), ask, { backoffMs: 10 }, undefined, (e) => retries.push(e.kind));
    expect(retries).toEqual(['http-5xx', 'http-429']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(answer.text).toContain('Summary');
  });

  it('gives up after the bounded retries with a typed one-line error', async () => {
    server.failNext('500', 3);
    const err = await sendWithPolicy(client(), ask, { retries: 2, backoffMs: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.kind).toBe('http-5xx');
    expect(err.message).not.toContain('\n');
  });

  it('times out a slow answer, and Cancel aborts at once', async () => {
    server.slowMs = 800;
    server.failNext('slow');
    const err = await sendWithPolicy(client(), ask, { timeoutMs: 200, retries: 0 }).catch((e) => e);
    expect(err.kind).toBe('timeout');
    server.failNext('slow');
    const controller = new AbortController();
    const pending = sendWithPolicy(client(), ask, { timeoutMs: 5_000 }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('types 401, empty, truncated and unreachable', async () => {
    server.failNext('401');
    const unauthorised = await sendWithPolicy(client(), ask).catch((e) => e);
    expect(unauthorised.kind).toBe('http-401');
    expect(unauthorised.message).toBe('HTTP 401: Incorrect API key provided: *** (check the API key)');
    server.failNext('empty');
    expect((await sendWithPolicy(client(), ask).catch((e) => e)).kind).toBe('empty');
    server.failNext('truncated');
    expect((await sendWithPolicy(client(), ask).catch((e) => e)).kind).toBe('truncated');
    const closed = await startFakeLlmServer();
    await closed.close(); // a port nobody listens on
    const down = getLlmProvider('openai-compatible').create({ baseUrl: closed.baseUrl, model: 'x' });
    const err = await sendWithPolicy(down, ask, { retries: 0 }).catch((e) => e);
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});

describe('the prompt-api provider over a stub LanguageModel', () => {
  it('creates a session, prompts with the schema as responseConstraint, and reports an absent model', async () => {
    const seen: unknown[] = [];
    const stub = {
      availability: async () => 'available',
      create: async (options: unknown) => ({
        prompt: async (input: string, options2: { responseConstraint?: unknown }) => {
          seen.push(options, options2.responseConstraint);
          return JSON.stringify({ context: `stub saw ${input.length} characters` });
        },
        destroy() {},
      }),
    };
    const result = await runLlmFeature(doc, base, { feature: 'contextual', provider: 'prompt-api', languageModel: stub });
    expect(result.report.succeeded).toBe(result.chunks.length);
    expect(result.chunks[0]!.metadata.context).toMatch(/^stub saw \d+ characters$/);
    expect(seen[1]).toMatchObject({ type: 'object', required: ['context'] });
    // A model still to download: create() reports its progress through the monitor.
    const progress: number[] = [];
    const downloading = {
      availability: async () => 'downloadable',
      create: async (options: { monitor?: (t: { addEventListener(type: string, l: (e: { loaded: number }) => void): void }) => void }) => {
        options.monitor?.({ addEventListener: (_type, listener) => [0.5, 1].forEach((loaded) => listener({ loaded })) });
        return { prompt: async () => '{"summary": "done"}' };
      },
    };
    await runLlmFeature(doc, base, { feature: 'summaries', provider: 'prompt-api', languageModel: downloading, onDownloadProgress: (f) => progress.push(f) });
    expect(progress).toEqual([0.5, 1]);
    const client = getLlmProvider('prompt-api').create({ languageModel: undefined });
    expect(client.defaultConcurrency).toBe(1);
    const missing = await sendWithPolicy(getLlmProvider('prompt-api').create({ languageModel: { availability: async () => 'unavailable', create: async () => ({}) } }), { prompt: 'x' }).catch((e) => e);
    expect(missing.kind).toBe('unsupported');
  });
});

describe('features against the fake server', () => {
  it('contextual: context prepended to content only; text, start, end unchanged', async () => {
    const plain = (await runLlmFeature(doc, base, llm('contextual', { cache: new MemoryCache() }))).chunks;
    const { chunks, report } = await runLlmFeature(doc, base, llm('contextual'));
    expect(report.failed).toBe(0);
    expect(chunks.length).toBe(plain.length);
    for (const c of chunks) {
      expect(c.text).toBe(doc.slice(c.start, c.end));
      expect(c.metadata.context).toBe(`Context: this chunk begins with ${c.text.split(/\s+/).slice(0, 5).join(' ')}.`);
      expect(c.content).toBe(`${c.metadata.context}\n\n${c.text}`);
      expect(c.metadata.prefix).toBe(`${c.metadata.context}\n\n`);
    }
  });

  it('contextual: a document over the budget sends the section around the chunk and says so', async () => {
    const { chunks } = await runLlmFeature(doc, base, llm('contextual', { settings: { contextBudget: 150 } }));
    for (const c of chunks) {
      const scope = c.metadata.contextScope as { start: number; end: number };
      expect(scope.end - scope.start).toBeLessThanOrEqual(Math.max(150, c.end - c.start));
      expect(scope.start).toBeLessThanOrEqual(c.start);
      expect(scope.end).toBeGreaterThanOrEqual(c.end);
    }
    const last = server.requests[server.requests.length - 1]!.body.messages[1]!.content;
    expect(last).toContain('an excerpt of a longer document');
  });

  it('contextual: a failed chunk keeps its source content, says why, and the run goes on', async () => {
    server.failNext('500', 2); // the first chunk's request and its one retry
    const { chunks, report } = await runLlmFeature(doc, base, llm('contextual', { concurrency: 1, policy: { retries: 1, backoffMs: 5 } }));
    const failed = chunks.filter((c) => c.metadata.llmError !== undefined);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.content).toBe(failed[0]!.text);
    expect(failed[0]!.metadata.llmError).toMatch(/^http-5xx: HTTP 500/);
    expect(report.failuresByKind).toEqual({ 'http-5xx': 1 });
    expect(report.succeeded).toBe(chunks.length - 1);
  });

  it('propositions: each sentence aligns exactly; an invented one is unsupported and counted', async () => {
    const faulty = doc.replace('Recall says', 'Recall [[fault:invent]] says');
    const { chunks, report } = await runLlmFeature(faulty, base, llm('propositions'));
    const invented = chunks.filter((c) => c.content === INVENTED_PROPOSITION);
    expect(invented).toHaveLength(1);
    expect(invented[0]!.metadata.supportStatus).toBe('unsupported');
    expect(invented[0]!.metadata.support).toEqual([]);
    for (const c of chunks) {
      expect(c.text).toBe(faulty.slice(c.start, c.end));
      expect(c.metadata.derivedFrom).toEqual({ start: c.start, end: c.end });
      expect(c.metadata.kind).toBe('proposition');
      if (c !== invented[0]) {
        expect(c.metadata.supportStatus).toBe('exact');
        const [span] = c.metadata.support as { start: number; end: number }[];
        expect(faulty.slice(span!.start, span!.end)).toBe(c.content);
      }
    }
    expect(report.counts.unsupported).toBe(1);
    expect(report.failuresByKind['unsupported-proposition']).toBe(1);
  });

  it('propositions: code-fenced JSON is read; invalid JSON fails its passage only', async () => {
    server.failNext('fenced');
    server.failNext('invalid-json');
    const { report } = await runLlmFeature(doc, base, llm('propositions', { concurrency: 1 }));
    expect(report.failuresByKind).toEqual({ 'invalid-json': 1 });
    expect(report.succeeded).toBe(report.requests - 1);
  });

  it('boundaries: exact slices within the size; out-of-range ids repaired and counted', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about topic ${Math.floor(i / 4)}.`).join(' ');
    const options = { strategy: 'recursive', size: 200, overlap: 0 } as const;
    const { chunks, report } = await runLlmFeature(long, options, llm('boundaries'));
    expect(report.failed).toBe(0);
    for (const c of chunks) {
      expect(c.text).toBe(long.slice(c.start, c.end));
      expect(c.size).toBeLessThanOrEqual(200);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(long);
    server.failNext('out-of-range');
    const repaired = await runLlmFeature(long, options, llm('boundaries'));
    expect(repaired.report.counts.repairedIds).toBe(6);
    expect(repaired.report.failuresByKind['repaired-ids']).toBe(1);
    for (const c of repaired.chunks) expect(c.text).toBe(long.slice(c.start, c.end));
  });

  it('boundaries: an oversized group is re-split by the recursive splitter', async () => {
    const long = Array.from({ length: 3 }, (_, i) => `Sentence ${i} is here and it is quite a long one indeed.`).join(' ');
    const { chunks } = await runLlmFeature(long, { size: 40, overlap: 0 }, llm('boundaries'));
    expect(chunks.some((c) => c.metadata.resplit)).toBe(true);
    for (const c of chunks) expect(c.size).toBeLessThanOrEqual(40);
  });

  it('summaries: the document and its top-level sections, with the spans they summarise', async () => {
    const { chunks } = await runLlmFeature(doc, base, llm('summaries', { settings: { sectionSummaries: true } }));
    const summaries = chunks.filter((c) => c.metadata.kind === 'summary');
    expect(summaries.map((s) => s.metadata.summaryOf)).toEqual([
      { start: 0, end: doc.length },
      { start: doc.indexOf('## Overlap'), end: doc.indexOf('## Retrieval') },
      { start: doc.indexOf('## Retrieval'), end: doc.length },
    ]);
    expect(summaries[0]!.content).toBe('Summary: # Handbook\n\nChunkscope shows where chunks start and end.');
    for (const c of chunks) expect(c.text).toBe(doc.slice(c.start, c.end));
  });

  it('a second run is answered from the cache; the estimate counts cached requests and sends nothing', async () => {
    const cache = new MemoryCache();
    const first = await runLlmFeature(doc, base, llm('contextual', { cache }));
    const before = server.requests.length;
    const estimate = await estimateLlmRun(doc, base, llm('contextual', { cache }), { inputPerMillion: 1, outputPerMillion: 2 });
    expect(estimate).toMatchObject({ requests: first.report.requests, cached: first.report.requests, inputTokens: 0, outputTokens: 0, cost: 0 });
    const fresh = await estimateLlmRun(doc, base, llm('contextual'), { inputPerMillion: 1, outputPerMillion: 2 });
    expect(fresh.cached).toBe(0);
    expect(fresh.inputTokens).toBeGreaterThan(100);
    expect(fresh.cost).toBeCloseTo((fresh.inputTokens + 2 * fresh.outputTokens) / 1e6);
    const second = await runLlmFeature(doc, base, llm('contextual', { cache }));
    expect(server.requests.length).toBe(before);
    expect(second.report).toMatchObject({ cached: first.report.requests, sent: 0 });
    expect(second.chunks).toEqual(first.chunks);
  });
});
