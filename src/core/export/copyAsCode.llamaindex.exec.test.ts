/**
 * The generated LlamaIndex TypeScript programs are run, unchanged, with node against the real @llamaindex/core (a
 * devDependency), and must print the same chunk texts as Chunkscope's compat mode `llamaindex`. The Python LlamaIndex
 * programs stay compiled-only (copyAsCode.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { chunk } from '../index';
import { validateOptions } from '../options';
import type { ChunkOptions } from '../types';
import { codeFor, reproducesExactly, targetsFor } from './copyAsCode';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Inside node_modules so that the program's bare imports resolve as in a user's project.
const DIR = mkdtempSync(join(ROOT, 'node_modules', '.chunkscope-llamaindex-export-test-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

let counter = 0;

async function runGenerated(text: string, options: ChunkOptions): Promise<string[]> {
  const n = counter++;
  const program = join(DIR, `split${n}.mjs`);
  const input = join(DIR, `doc${n}.txt`);
  writeFileSync(program, codeFor(validateOptions(options), 'llamaindex-ts'));
  writeFileSync(input, text, 'utf8');
  const { stdout } = await run(process.execPath, [program, input], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as string[];
}

async function expectSameChunks(text: string, options: ChunkOptions): Promise<void> {
  const compat: ChunkOptions = { ...options, compat: 'llamaindex' };
  expect(reproducesExactly(validateOptions(compat), 'llamaindex-ts')).toBe(true);
  const ours = (await chunk(text, compat)).map((c) => c.content);
  expect(await runGenerated(text, compat)).toEqual(ours);
}

const DOC = [
  '# Title',
  '',
  'Intro with "quotes", a back\\slash and an emoji 😀 in it. Mr. Smith paid 1,000.50 dollars!\r\n\r\nA CRLF paragraph.',
  '',
  '## Section two',
  'Ünïcödé text — “quotes” here;; and,, doubled punctuation. See www.example.com today.',
  '',
  '```',
  '# not a header',
  '```',
  '日本語のテキスト、そして終わり。 👨‍👩‍👧‍👦 🏳️‍🌈 done! Really? Yes.',
].join('\n');

describe('generated LlamaIndex TypeScript code, executed', () => {
  it('SentenceSplitter: defaults, small sizes, characters, words, another encoding', async () => {
    await expectSameChunks(DOC, { strategy: 'sentence' });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 20, overlap: 5 });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 60, overlap: 10, unit: 'chars' });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 8, overlap: 3, unit: 'words' });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 12, overlap: 2, unit: 'o200k_base' });
  });

  it('TokenTextSplitter: defaults and small sizes', async () => {
    await expectSameChunks(DOC, { strategy: 'token' });
    await expectSameChunks(DOC, { strategy: 'token', size: 9, overlap: 3 });
    await expectSameChunks(DOC, { strategy: 'token', size: 5, overlap: 0, unit: 'p50k_base' });
  });

  it('MarkdownNodeParser', async () => {
    await expectSameChunks(DOC, { strategy: 'markdown' });
  });

  it('only strategies with a LlamaIndex TS equivalent list the target; native mode says it differs', () => {
    expect(targetsFor(validateOptions({ strategy: 'sentence' }))).toContain('llamaindex-ts');
    expect(targetsFor(validateOptions({ strategy: 'recursive' }))).not.toContain('llamaindex-ts');
    const native = codeFor(validateOptions({ strategy: 'sentence' }), 'llamaindex-ts');
    expect(native).toContain("Chunkscope's native mode differs");
    expect(reproducesExactly(validateOptions({ strategy: 'sentence' }), 'llamaindex-ts')).toBe(false);
  });
});
