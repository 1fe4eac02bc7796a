/**
 * `chunkscope corpus --llm <feature>` against the fake OpenAI-compatible server on loopback (it counts requests):
 * the feature runs in the worker threads through the answer cache; a re-run sends nothing; a fresh output folder
 * with the same cache sends nothing and writes the same lines; the LLM settings are in the configuration (a changed
 * model re-chunks everything and says why), never the key; a document whose requests fail is reported and retried.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, MemoryCache } from '../node/index';
import type { CorpusChanges, CorpusChunkRecord } from '../node/corpus/record';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { main } from './main';

const root = mkdtempSync(join(tmpdir(), 'chunkscope-corpus-llm-'));
const corpus = join(root, 'corpus');
mkdirSync(join(corpus, 'sub'), { recursive: true });
const texts: Record<string, string> = {
  'a.md': 'Rivers carry salt to the sea. The delta grows each year.\n\nBoats wait for the tide. The harbour is quiet at noon.\n',
  'b.txt': 'Night trains cross the border. Passengers sleep in narrow bunks.\n\nAt dawn the train reaches the coast.\n',
  'sub/c.md': 'Old maps show islands that do not exist. Sailors trusted them anyway.\n\nCartographers copied each other.\n',
};
for (const [name, text] of Object.entries(texts)) writeFileSync(join(corpus, name), text);

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
  process.env.CHUNKSCOPE_CORPUS_TEST_KEY = 'fake-corpus-key-42';
});
afterAll(async () => {
  delete process.env.CHUNKSCOPE_CORPUS_TEST_KEY;
  await server.close();
});

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
  return { code, out, err };
}

const cacheDir = join(root, 'llm-cache');
const llmFlags = (model = 'fake-1') => ['--llm', 'contextual', '--llm-base-url', server.baseUrl, '--llm-model', model, '--llm-cache', cacheDir, '--llm-api-key-env', 'CHUNKSCOPE_CORPUS_TEST_KEY'];
const run = (out: string, extra: string[] = [], model?: string) => cli(['corpus', corpus, '--out', out, '--size', '70', '--overlap', '0', '--jobs', '2', ...llmFlags(model), ...extra]);
const recordsOf = (out: string) => readFileSync(join(out, 'chunks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CorpusChunkRecord);
const changesOf = (out: string) => JSON.parse(readFileSync(join(out, 'changes.json'), 'utf8')) as CorpusChanges & { rebuildReason: string | null };

describe('chunkscope corpus --llm', () => {
  it('applies the feature to every document in the worker threads, through the cache; a re-run sends nothing', async () => {
    const out = join(root, 'out');
    const before = server.requests.length;
    const first = await run(out);
    expect(first.code).toBe(0);
    const sent = server.requests.length - before;
    const records = recordsOf(out);
    expect(sent).toBe(records.length); // contextual: one request per chunk
    expect(first.err).toContain(`chunkscope: llm: ${sent} requests (0 from the cache, ${sent} sent)\n`);
    expect(server.requests[before]!.authorization).toBe('Bearer fake-corpus-key-42');
    // The library's chunks for each document (same feature, a fresh cache), as the corpus lines.
    for (const [id, text] of Object.entries(texts)) {
      const library = await chunk(text, { size: 70, overlap: 0, path: id, documentId: id, llm: { feature: 'contextual', baseUrl: server.baseUrl, model: 'fake-1', cache: new MemoryCache() } });
      const mine = records.filter((r) => r.documentId === id);
      expect(mine.map((r) => [r.start, r.end, r.content])).toEqual(library.map((c) => [c.start, c.end, c.content]));
      for (const r of mine) expect(r.content).toMatch(/^Context: this chunk begins with /);
    }
    // The key is in no file; the LLM settings are in the configuration.
    for (const name of readdirSync(out)) if (name.endsWith('.json') || name.endsWith('.jsonl')) expect(readFileSync(join(out, name), 'utf8')).not.toContain('fake-corpus-key');
    for (const name of readdirSync(cacheDir)) expect(readFileSync(join(cacheDir, name), 'utf8')).not.toContain('fake-corpus-key');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.configuration.llm).toEqual({ feature: 'contextual', provider: 'openai-compatible', model: 'fake-1', structuredOutput: true, settings: {} });

    const requestsNow = server.requests.length;
    const again = await run(out);
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(requestsNow);
    expect(changesOf(out)).toMatchObject({ added: [], changed: [], deleted: [], unchanged: Object.keys(texts).sort() });

    // A new output folder, the same cache: every answer from the cache, the same lines.
    const fresh = await run(join(root, 'fresh'), ['--jobs', '1']);
    expect(fresh.code).toBe(0);
    expect(server.requests.length).toBe(requestsNow);
    expect(fresh.err).toContain(`chunkscope: llm: ${sent} requests (${sent} from the cache, 0 sent)\n`);
    expect(readFileSync(join(root, 'fresh', 'chunks.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'chunks.jsonl'), 'utf8'));
  });

  it('a changed LLM setting re-chunks everything and says why; a run without --llm is another configuration', async () => {
    const out = join(root, 'settings');
    expect((await run(out)).code).toBe(0);
    const first = recordsOf(out);
    const other = await run(out, [], 'fake-2');
    expect(other.err).toMatch(/re-chunking every document: the configuration changed \(llm .*"model":"fake-1".* → .*"model":"fake-2"/);
    expect(changesOf(out).changed).toEqual(Object.keys(texts).sort());
    expect(recordsOf(out)[0]!.configHash).not.toBe(first[0]!.configHash);
    const plain = await cli(['corpus', corpus, '--out', out, '--size', '70', '--overlap', '0', '--jobs', '1']);
    expect(plain.err).toMatch(/re-chunking every document: the configuration changed \(llm .* → null\)/);
    for (const r of recordsOf(out)) expect(r.content).toBe(r.text);
  });

  it('a document whose requests fail is reported on one line and retried by the next run', async () => {
    const out = join(root, 'faults');
    writeFileSync(join(corpus, 'sub', 'd.md'), 'This paragraph makes the server fail [[fault:500]] every time it is asked.\n');
    try {
      const r = await run(out, ['--llm-timeout', '5']);
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/^chunkscope: skipped sub\/d\.md: LLM contextual: \d+ [a-z0-9-]+ \(first: [^\n]*\)$/m);
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).failed.map((f: { id: string }) => f.id)).toEqual(['sub/d.md']);
      expect(recordsOf(out).some((x) => x.documentId === 'sub/d.md')).toBe(false);
      const before = server.requests.length;
      await run(out, ['--llm-timeout', '5']);
      expect(server.requests.length).toBeGreaterThan(before); // retried, the others unchanged
      expect(changesOf(out).unchanged).toEqual(Object.keys(texts).sort());
    } finally {
      const { rmSync } = await import('node:fs');
      rmSync(join(corpus, 'sub', 'd.md'));
    }
  });

  it('refuses --dry-run and an LLM flag without --llm in one line', async () => {
    const out = join(root, 'refused');
    expect(await run(out, ['--dry-run'])).toEqual({ code: 2, out: '', err: 'chunkscope: --dry-run is for chunkscope chunk (one document); a corpus run sends only what its cache does not hold\n' });
    expect((await cli(['corpus', corpus, '--out', out, '--llm-model', 'x'])).err).toMatch(/^chunkscope: --llm-model needs --llm <feature>/);
  });
});
