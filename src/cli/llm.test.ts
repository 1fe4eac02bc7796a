/**
 * `chunkscope chunk --llm ...` as a user runs it: the built CLI (bin/chunkscope.js → dist/lib, `npm run build:lib`)
 * spawned against the fake OpenAI-compatible server on loopback. spawn, not spawnSync: the server answers from this
 * process's event loop.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, MemoryCache } from '../node/index';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-llm-cli-'));
const doc =
  'Chunkscope shows where chunks start and end. It counts sizes in characters, words or tokens.\n\n' +
  'Overlap is measured from offsets. It is never assumed from the setting.\n\nRetrieval finds chunks for a question. Recall says how much was found.\n';
const docPath = join(dir, 'doc.txt');
writeFileSync(docPath, doc);

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/chunkscope.js', ...args], { env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: join(dir, 'xdg'), ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

const base = () => ['chunk', docPath, '--size', '100', '--overlap', '0', '--llm-base-url', server.baseUrl, '--llm-model', 'fake-1'];

describe('chunkscope chunk --llm (the built CLI against the fake server)', () => {
  it('contextual: the same chunks as the library, the key sent but never written to the cache', async () => {
    const cacheDir = join(dir, 'cache-contextual');
    const before = server.requests.length;
    const r = await cli([...base(), '--llm', 'contextual', '--llm-cache', cacheDir, '--llm-api-key-env', 'MY_KEY'], { MY_KEY: 'fake-key-123' });
    expect(r.code).toBe(0);
    const chunks = JSON.parse(r.out);
    const library = await chunk(doc, { size: 100, overlap: 0, llm: { feature: 'contextual', baseUrl: server.baseUrl, model: 'fake-1', cache: new MemoryCache() } });
    expect(chunks).toEqual(JSON.parse(JSON.stringify(library)));
    expect(chunks[0].content.startsWith(chunks[0].metadata.context)).toBe(true);
    expect(server.requests[before]!.authorization).toBe('Bearer fake-key-123');
    expect(r.err).toMatch(/contextual: 3 requests \(0 cached, 3 sent\), 3 answered, 0 failed/);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(3);
    for (const f of files) expect(readFileSync(join(cacheDir, f), 'utf8')).not.toContain('fake-key');
    expect(r.out).not.toContain('fake-key');
    // Run again: every answer from the cache, nothing sent.
    const sent = server.requests.length;
    const again = await cli([...base(), '--llm', 'contextual', '--llm-cache', cacheDir]);
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(sent);
    expect(again.out).toBe(r.out);
  });

  it('--dry-run prints the estimate and sends nothing; cached requests count as cached', async () => {
    const sent = server.requests.length;
    const r = await cli([...base(), '--llm', 'propositions', '--llm-cache', 'none', '--dry-run', '--llm-price-in', '2', '--llm-price-out', '8']);
    expect(r.code).toBe(0);
    const estimate = JSON.parse(r.out);
    expect(estimate).toMatchObject({ feature: 'propositions', requests: 3, cached: 0, tokenizer: 'cl100k_base', prices: { inputPerMillion: 2, outputPerMillion: 8 } });
    expect(estimate.cost).toBeCloseTo((estimate.inputTokens * 2 + estimate.outputTokens * 8) / 1e6, 10);
    const cached = await cli([...base(), '--llm', 'contextual', '--llm-cache', join(dir, 'cache-contextual'), '--dry-run']);
    expect(JSON.parse(cached.out)).toMatchObject({ requests: 3, cached: 3, inputTokens: 0 });
    expect(server.requests.length).toBe(sent);
  });

  it('OPENAI_BASE_URL and OPENAI_API_KEY are the defaults', async () => {
    const before = server.requests.length;
    const r = await cli(['chunk', docPath, '--size', '100', '--overlap', '0', '--llm', 'summaries', '--llm-model', 'fake-1', '--llm-cache', 'none'], {
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: 'fake-env-key',
    });
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out).find((c: { metadata: { kind?: string } }) => c.metadata.kind === 'summary');
    expect(summary.content).toBe('Summary: Chunkscope shows where chunks start and end.');
    expect(server.requests[before]!.authorization).toBe('Bearer fake-env-key');
  });

  it('one stderr line per kind of failure; --llm-strict makes it fatal', async () => {
    server.failNext('invalid-json');
    const r = await cli([...base(), '--llm', 'propositions', '--llm-cache', 'none', '--llm-concurrency', '1']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^chunkscope: llm: 1 × invalid-json: the answer holds no JSON/m);
    server.failNext('invalid-json');
    const strict = await cli([...base(), '--llm', 'propositions', '--llm-cache', 'none', '--llm-concurrency', '1', '--llm-strict']);
    expect(strict.code).toBe(1);
    expect(strict.out).toBe('');
    expect(strict.err).toMatch(/--llm-strict: 1 failure\(s\)/);
  });

  it('exits 1 with one line when nothing succeeded (endpoint down)', async () => {
    const closed = await startFakeLlmServer();
    await closed.close();
    const r = await cli(['chunk', docPath, '--llm', 'contextual', '--llm-base-url', closed.baseUrl, '--llm-model', 'x', '--llm-cache', 'none']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^chunkscope: llm: 1 × network: cannot reach .*ECONNREFUSED$/m);
    expect(r.err).toMatch(/^chunkscope: llm: nothing succeeded: cannot reach/m);
  });

  it('refuses bad LLM flags in one line (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['chunk', docPath, '--dry-run'], /--dry-run needs --llm/],
      [['chunk', docPath, '--llm', 'poems', '--llm-base-url', server.baseUrl, '--llm-model', 'x'], /unknown --llm feature "poems"/],
      [['chunk', docPath, '--llm', 'contextual', '--llm-model', 'x'], /no endpoint: give --llm-base-url/],
      [['chunk', docPath, '--llm', 'contextual', '--llm-base-url', server.baseUrl], /no model/],
      [['chunk', docPath, '--llm', 'contextual', '--llm-base-url', server.baseUrl, '--llm-model', 'x', '--llm-concurrency', '0'], /--llm-concurrency must be at least 1/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
