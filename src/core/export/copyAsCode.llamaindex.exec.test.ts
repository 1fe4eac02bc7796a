/**
 * The generated LlamaIndex TypeScript programs are run, unchanged, with node against the real @llamaindex/core (a
 * devDependency), and must print the same chunk texts as Chunkscope's compat mode `llamaindex`. The Python LlamaIndex
 * programs stay compiled-only (copyAsCode.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import { chunk } from '../index';
import { validateOptions } from '../options';
import type { ChunkOptions } from '../types';
import { programRunner } from '../../node/programRunner';
import { codeFor, loadCopyAsCode, reproducesExactly, targetsFor } from './copyAsCode';

// The programs load on first use (the registry keeps them behind dynamic imports).
beforeAll(() => loadCopyAsCode());

/** python3 compiles the generated programs where it is installed; elsewhere that test is reported as skipped. */
const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;

const runner = programRunner('llamaindex-ts', 'llamaindex');
afterAll(() => runner.dispose());
const runGenerated = (text: string, options: ChunkOptions): Promise<string[]> => runner.run(text, options);
const expectSameChunks = (text: string, options: ChunkOptions): Promise<void> => runner.sameAsCompat(text, options, (a, e) => expect(a).toEqual(e));

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

  it('SentenceWindowNodeParser (sentence windows): default window, window 1', async () => {
    await expectSameChunks(DOC, { strategy: 'sentence', retrieval: 'window' });
    await expectSameChunks(DOC, { strategy: 'sentence', retrieval: 'window', window: 1 });
  });

  it('HierarchicalNodeParser (hierarchical levels) on SentenceSplitter: defaults, small levels in tokens, characters', async () => {
    await expectSameChunks(DOC, { strategy: 'sentence', retrieval: 'hierarchical' });
    await expectSameChunks(DOC, { strategy: 'sentence', retrieval: 'hierarchical', levels: [60, 25, 12], overlap: 3 });
    await expectSameChunks(DOC, { strategy: 'sentence', retrieval: 'hierarchical', levels: [200, 80], overlap: 10, unit: 'chars' });
  });

  const pythonPrograms = () => {
    const window = codeFor(validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'window', window: 2 }), 'llamaindex');
    expect(window).toContain('SentenceWindowNodeParser.from_defaults(\n    window_size=2,');
    const levels = codeFor(validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'hierarchical' }), 'llamaindex');
    expect(levels).toContain('sizes = [2048, 512, 128]');
    expect(levels).toContain('chunk_overlap=20');
    return [window, levels];
  };

  it('the Python programs for sentence windows and hierarchical levels are LlamaIndex\'s parsers', () => {
    pythonPrograms();
  });

  it.skipIf(!HAS_PYTHON)('the Python programs for sentence windows and hierarchical levels compile (needs python3)', () => {
    for (const program of pythonPrograms()) {
      const r = spawnSync('python3', ['-c', 'import sys\ncompile(sys.stdin.read(), "program.py", "exec")'], { input: program, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
  });

  it('only strategies with a LlamaIndex TS equivalent list the target; native mode says it differs', () => {
    expect(targetsFor(validateOptions({ strategy: 'sentence' }))).toContain('llamaindex-ts');
    expect(targetsFor(validateOptions({ strategy: 'recursive' }))).not.toContain('llamaindex-ts');
    const native = codeFor(validateOptions({ strategy: 'sentence' }), 'llamaindex-ts');
    expect(native).toContain("Chunkscope's native mode differs");
    expect(reproducesExactly(validateOptions({ strategy: 'sentence' }), 'llamaindex-ts')).toBe(false);
  });
});
