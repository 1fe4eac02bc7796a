import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHubModelFolder } from '../embed/pool/testModelFolder';
import { main } from './main';

// --embedder <folder> and --embed-workers, end to end through the CLI, with a hub-format model folder built here.

const folder = makeHubModelFolder();
const dir = mkdtempSync(join(tmpdir(), 'chunkscope-cli-embed-'));
const topics = new URL('../embed/fixtures/topics.txt', import.meta.url).pathname;
// Enough distinct sentences for several batches of 64 (the pool's unit of work).
const longFile = join(dir, 'long.txt');
writeFileSync(longFile, Array.from({ length: 400 }, (_, i) => `Sentence ${i} talks about ${['boats', 'bread', 'taxes', 'rain'][i % 4]} ${'again '.repeat(i % 5)}today.`).join(' '));
afterAll(() => folder.remove());

async function runCli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
  return { code, out, err };
}

describe('chunkscope chunk --embedder <folder> --embed-workers N', () => {
  it('gives the same chunks with two worker threads as in this thread', async () => {
    const argv = ['chunk', longFile, '--strategy', 'semantic', '--embedder', folder.path, '--format', 'jsonl'];
    const [one, two] = [await runCli([...argv, '--embed-workers', '1']), await runCli([...argv, '--embed-workers', '2'])];
    expect(one.err).toBe('');
    expect(two.err).toBe('');
    expect([one.code, two.code]).toEqual([0, 0]);
    expect(two.out).toBe(one.out);
    expect(one.out.trim().split('\n').length).toBeGreaterThan(1);
  }, 120_000);

  it('refuses a bad worker count or a missing folder in one line, exit 2, before loading anything', async () => {
    for (const [argv, message] of [
      [['--embed-workers', '0'], /^chunkscope: --embed-workers must be between 1 and 64 \(got 0\)\n$/],
      [['--embed-workers', 'two'], /^chunkscope: --embed-workers must be a whole number \(got "two"\)\n$/],
      [['--embedder', './no/such/folder'], /^chunkscope: --embedder \.\/no\/such\/folder: no such model folder .*\n$/],
    ] as const) {
      const r = await runCli(['chunk', topics, '--strategy', 'semantic', ...argv]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
    }
  });

  it('lists --embed-workers in --help', async () => {
    expect((await runCli(['--help'])).out).toMatch(/--embed-workers <n>\s+hub models and model folders/);
  });
});
