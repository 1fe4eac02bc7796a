/**
 * `chunkscope eval|sweep --llm ...` against the fake OpenAI-compatible server on loopback (in-process main(): the
 * server answers from this process's event loop while the command awaits its requests).
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-eval-llm-'));
const doc =
  'The lighthouse keeper lit the lamp at dusk. Ships avoided the northern reef because of it. The keeper logged every ship in a ledger.\n\n' +
  'Winter storms closed the harbour for weeks. Fishermen mended nets in the boathouse. The ferry stopped running in January.\n\n' +
  'Spring brought the first supply boat. It carried flour, oil for the lamp and letters. The keeper answered the letters by candlelight.\n';
const docPath = join(dir, 'island.txt');
writeFileSync(docPath, doc);
const ref = (content: string) => ({ start: doc.indexOf(content), end: doc.indexOf(content) + content.length, content });
const questions = [
  { question: 'Why did ships avoid the northern reef?', references: [ref('Ships avoided the northern reef because of it.')] },
  { question: 'When did the ferry stop running?', references: [ref('The ferry stopped running in January.')] },
  { question: 'What did the supply boat carry?', references: [ref('It carried flour, oil for the lamp and letters.')] },
  { question: 'Where did fishermen mend nets?', references: [ref('Fishermen mended nets in the boathouse.')] },
];
const questionsPath = join(dir, 'golden.json');
writeFileSync(questionsPath, JSON.stringify(questions));

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const evalArgs = (feature: string, cache: string, extra: string[] = [], baseUrl = server.baseUrl) => [
  'eval', docPath, '--questions', questionsPath, '--size', '140', '--overlap', '0', '--k', '1',
  '--llm', feature, '--llm-base-url', baseUrl, '--llm-model', 'fake-1', '--llm-cache', cache, '--llm-price-in', '1', '--llm-price-out', '2', ...extra,
];

describe('chunkscope eval --llm (fake server)', () => {
  it('plain vs contextual vs propositions: recall on source characters, LLM requests, tokens and money beside it', async () => {
    const results: Record<string, { means: { recall: number; precision: number; iou: number }; llm: Record<string, unknown>; baseline: { means: { recall: number; precision: number } } }> = {};
    for (const feature of ['contextual', 'propositions']) {
      const r = await runCli(evalArgs(feature, join(dir, `cache-${feature}`)));
      expect(r.code, r.err).toBe(0);
      results[feature] = JSON.parse(r.out);
      expect(r.err).toMatch(new RegExp(`${feature}: \\d+ requests \\(0 cached, \\d+ sent\\), \\d+ answered, 0 failed`));
    }
    const contextual = results.contextual!;
    const propositions = results.propositions!;
    // Both runs have the same baseline: the plain chunks of the same configuration.
    expect(contextual.baseline).toEqual(propositions.baseline);
    expect(contextual.llm).toMatchObject({ feature: 'contextual', retrieval: 'flat', requests: 3, sent: 3, cached: 0, failed: 0 });
    expect((contextual.llm.tokens as { input: number }).input).toBeGreaterThan(0);
    const tokens = contextual.llm.tokens as { input: number; output: number };
    expect(contextual.llm.cost).toBeCloseTo((tokens.input * 1 + tokens.output * 2) / 1e6, 12);
    expect((contextual.llm.estimate as { inputTokens: number; cost: number }).cost).toBeGreaterThan(0);
    // The fake's propositions are the passage's sentences, each aligned exactly: a retrieved one is one sentence,
    // so precision rises well above the ~140-character chunks' while recall stays on source characters.
    expect(propositions.llm).toMatchObject({ feature: 'propositions', requests: 3, sent: 3, failed: 0 });
    // Figures of this set, k = 1: the plain chunks find every answer (recall 1, precision 0.33); the fake's
    // propositions miss one question (its best match is another sentence) and are exact on the rest.
    expect(propositions.baseline.means).toMatchObject({ recall: 1, hit: 1 });
    expect(propositions.baseline.means.precision).toBeCloseTo(0.3325, 4);
    expect(propositions.means).toMatchObject({ recall: 0.75, precision: 0.75, iou: 0.75, hit: 0.75 });
    expect(contextual.means.recall).toBe(1);
    const retrieved = (JSON.parse((await runCli(evalArgs('propositions', join(dir, 'cache-propositions')))).out) as { questions: { retrieved: { kind: string; spans: unknown[] }[] }[] }).questions[0]!.retrieved[0]!;
    expect(retrieved).toMatchObject({ kind: 'proposition', spans: [expect.objectContaining({ start: expect.any(Number) })] });
  });

  it('a second run answers from the cache: no request sent, the same figures', async () => {
    const cache = join(dir, 'cache-again');
    const first = await runCli(evalArgs('propositions', cache));
    const sent = server.requests.length;
    const second = await runCli(evalArgs('propositions', cache));
    expect(server.requests.length).toBe(sent);
    expect(readdirSync(cache)).toHaveLength(3);
    const a = JSON.parse(first.out);
    const b = JSON.parse(second.out);
    expect(b.llm).toMatchObject({ requests: 3, cached: 3, sent: 0, tokens: { input: 0, output: 0 }, cost: 0 });
    // What the feature costs with nothing cached does not change when it came from the cache.
    expect(b.llm.estimate).toEqual(a.llm.estimate);
    expect(b.means).toEqual(a.means);
  });

  it('--dry-run prints the estimate and sends nothing', async () => {
    const sent = server.requests.length;
    const r = await runCli(evalArgs('contextual', join(dir, 'cache-dry'), ['--dry-run']));
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(sent);
    expect(JSON.parse(r.out)).toMatchObject({ feature: 'contextual', requests: 3, cached: 0, tokenizer: 'cl100k_base', inputTokens: expect.any(Number), cost: expect.any(Number) });
  });

  it('counts failures by kind and goes on; --llm-strict makes them fatal; an unusable endpoint exits 1', async () => {
    server.failNext('invalid-json', 1);
    const r = await runCli(evalArgs('propositions', 'none'));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.llm).toMatchObject({ requests: 3, failed: 1, succeeded: 2, failuresByKind: { 'invalid-json': 1 } });
    expect(r.err).toMatch(/^chunkscope: llm: 1 × invalid-json: /m);
    server.failNext('invent', 1);
    const strict = await runCli(evalArgs('propositions', 'none', ['--llm-strict']));
    expect(strict.code).toBe(1);
    expect(strict.out).toBe('');
    expect(strict.err).toMatch(/1 × unsupported-proposition/);
    expect(strict.err).toMatch(/--llm-strict: 1 failure/);
    const closed = await startFakeLlmServer();
    await closed.close();
    const down = await runCli(evalArgs('contextual', 'none', ['--llm-timeout', '2'], closed.baseUrl));
    expect(down.code).toBe(1);
    expect(down.out).toBe('');
    expect(down.err).toMatch(/^chunkscope: llm: 3 × network: /m);
    expect(down.err).toMatch(/nothing succeeded/);
  });

  it('summaries: two-stage retrieval by default, flat on request; bad LLM flags exit 2 with one line', async () => {
    const r = await runCli(evalArgs('summaries', join(dir, 'cache-summaries')));
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ retrieval: 'two-stage', summaries: 1, configuration: { retrieval: 'two-stage', summariesFirst: 1 }, llm: { feature: 'summaries', requests: 1 } });
    // One document summary: two-stage routes every chunk to it, so it ranks like the plain chunks.
    expect(out.means).toEqual(out.baseline.means);
    const flat = JSON.parse((await runCli(evalArgs('summaries', join(dir, 'cache-summaries'), ['--llm-retrieval', 'flat']))).out);
    expect(flat.llm).toMatchObject({ cached: 1, sent: 0 });
    for (const [args, message] of [
      [['--llm-retrieval', 'two-stage'], /two-stage needs --llm summaries/],
      [['--summaries-first', '0'], /needs two-stage retrieval|at least 1/],
    ] as const) {
      const bad = await runCli(evalArgs('contextual', 'none', [...args]));
      expect(bad.code).toBe(2);
      expect(bad.err.trim().split('\n')).toHaveLength(1);
      expect(bad.err).toMatch(message);
    }
    const stray = await runCli(['eval', docPath, '--questions', questionsPath, '--summaries-first', '2']);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/--summaries-first needs --llm summaries/);
  });
});

describe('chunkscope sweep --llm (fake server)', () => {
  it('runs each configuration\'s feature once: configurations over the same chunks are served from the cache', async () => {
    const before = server.requests.length;
    const r = await runCli(['sweep', docPath, '--questions', questionsPath, '--size', '140,400', '--overlap', '0', '--k', '1,2', '--llm', 'contextual', '--llm-base-url', server.baseUrl, '--llm-model', 'fake-1', '--llm-cache', 'none']);
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(r.out);
    expect(rows).toHaveLength(4);
    expect(rows.map((row: { llm: { sent: number; cached: number } }) => [row.llm.sent, row.llm.cached])).toEqual([[3, 0], [0, 3], [1, 0], [0, 1]]);
    expect(server.requests.length - before).toBe(4);
    for (const row of rows) expect(row.baseline.means.recall).toEqual(expect.any(Number));
    const csv = await runCli(['sweep', docPath, '--questions', questionsPath, '--size', '140,400', '--overlap', '0', '--llm', 'contextual', '--llm-base-url', server.baseUrl, '--llm-model', 'fake-1', '--llm-cache', 'none', '--format', 'csv']);
    const [head, ...lines] = csv.out.trim().split('\n');
    expect(head).toBe('size,recall,precision,iou,precisionOmega,hit,reciprocalRank,chunks,indexed,embeddingTokens,baselineRecall,llmRequests,llmSent,llmCached,llmFailed,llmInputTokens,llmOutputTokens,llmCost,llmEstimatedCost,error');
    expect(lines).toHaveLength(2);
    const dry = await runCli(['sweep', docPath, '--questions', questionsPath, '--size', '140,400', '--k', '1,2', '--overlap', '0', '--llm', 'contextual', '--llm-base-url', server.baseUrl, '--llm-model', 'fake-1', '--llm-cache', 'none', '--dry-run']);
    const estimate = JSON.parse(dry.out);
    expect(estimate).toMatchObject({ requests: 4, rows: [{ requests: 3 }, { sameRequestsAs: 0 }, { requests: 1 }, { sameRequestsAs: 2 }] });
  });
});
