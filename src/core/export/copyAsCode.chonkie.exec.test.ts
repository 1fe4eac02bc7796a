/**
 * The generated Chonkie TypeScript programs are run, unchanged, with node against the real @chonkiejs/core (a
 * devDependency; token units through js-tiktoken's bundled ranks), and must print the same chunk texts as
 * Chunkscope's compat mode `chonkie`. The Python Chonkie program stays compiled-only (copyAsCode.test.ts).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import { chunk } from '../index';
import { validateOptions } from '../options';
import type { ChunkOptions } from '../types';
import { programRunner } from '../../node/programRunner';
import { codeFor, loadCopyAsCode, reproducesExactly, targetsFor } from './copyAsCode';

// The programs load on first use (the registry keeps them behind dynamic imports).
beforeAll(() => loadCopyAsCode());

const runner = programRunner('chonkie-ts', 'chonkie');
afterAll(() => runner.dispose());
const runGenerated = (text: string, options: ChunkOptions): Promise<string[]> => runner.run(text, options);
const expectSameChunks = (text: string, options: ChunkOptions): Promise<void> => runner.sameAsCompat(text, options, (a, e) => expect(a).toEqual(e));

const DOC = [
  '# Title',
  '',
  'Intro with "quotes", a back\\slash and an emoji 😀 in it.\r\n\r\nA CRLF paragraph follows here. And   spaces.',
  '',
  'Ünïcödé text — “quotes” here. Ünïcödé text — “quotes” here.',
  '',
  'def f(x):\n    return x  # code (with: pauses; and, commas)',
  '',
  '日本語のテキスト、そして終わり。 👨‍👩‍👧‍👦 🏳️‍🌈 done! Really? Yes.',
].join('\n');

describe('generated Chonkie TypeScript code, executed', () => {
  it('RecursiveChunker: defaults, small sizes (the byte-offset quirk), cl100k', async () => {
    await expectSameChunks(DOC, { strategy: 'recursive' });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 30 });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 7 });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 12, unit: 'cl100k_base' });
  });

  it('FastChunker: UTF-8 byte windows (a cut inside an emoji, the defaults)', async () => {
    await expectSameChunks(DOC, { strategy: 'fixed', compat: 'chonkie' });
    await expectSameChunks(DOC, { strategy: 'fixed', compat: 'chonkie', size: 25 });
    await expectSameChunks(DOC, { strategy: 'fixed', compat: 'chonkie', size: 3 });
  });

  it('TokenChunker: characters and tokens, with overlap', async () => {
    await expectSameChunks(DOC, { strategy: 'token' });
    await expectSameChunks(DOC, { strategy: 'token', size: 40, overlap: 15 });
    await expectSameChunks(DOC, { strategy: 'token', size: 5, overlap: 2, unit: 'cl100k_base' });
    await expectSameChunks(DOC, { strategy: 'token', size: 3, overlap: 0, unit: 'o200k_base' });
  });

  it('SentenceChunker: defaults, size and overlap, tokens', async () => {
    await expectSameChunks(DOC, { strategy: 'sentence' });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 60, overlap: 30 });
    await expectSameChunks(DOC, { strategy: 'sentence', size: 10, overlap: 4, unit: 'cl100k_base' });
  });

  it('property: random documents and settings (a few per chunker, each one node run)', async () => {
    const doc = fc
      .array(fc.constantFrom('word', 'Ünï', ' ', '  ', '\n', '\n\n', '\r\n', '. ', '! ', '—', '“', '😀', '日本', '\t', ','), { maxLength: 60 })
      .map((p) => p.join(''));
    const options = fc.oneof(
      fc.record({ strategy: fc.constant('recursive' as const), size: fc.integer({ min: 1, max: 60 }) }),
      fc.integer({ min: 2, max: 40 }).chain((size) =>
        fc.record({ strategy: fc.constantFrom('token' as const, 'sentence' as const), size: fc.constant(size), overlap: fc.integer({ min: 0, max: size - 1 }) }),
      ),
    );
    await fc.assert(fc.asyncProperty(doc, options, (text, o) => expectSameChunks(text, o)), { numRuns: 12 });
  }, 60_000);

  it('strategies without a Chonkie TypeScript chunker have no chonkie-ts program', () => {
    expect(targetsFor(validateOptions({ strategy: 'markdown' }))).not.toContain('chonkie-ts');
    expect(() => codeFor(validateOptions({ strategy: 'markdown' }), 'chonkie-ts')).toThrow(/Chonkie \(TypeScript\) has no equivalent of the markdown strategy/);
    expect(targetsFor(validateOptions({ strategy: 'recursive' }))).toContain('chonkie-ts');
  });

  it('native mode says it is Chonkie\'s own algorithm, and still runs', async () => {
    const code = codeFor(validateOptions({ strategy: 'recursive', size: 40, overlap: 8 }), 'chonkie-ts');
    expect(code).toContain("Chonkie's own algorithm");
    expect(code).toContain('new RecursiveRules');
    const out = await runGenerated(DOC, { strategy: 'recursive', size: 40, overlap: 8 });
    expect(out.length).toBeGreaterThan(1);
  });
});
