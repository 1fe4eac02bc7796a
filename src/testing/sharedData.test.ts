/**
 * The rule of sharedData.ts, kept: no test names the ../shared folder's files itself (they go through the helper,
 * which skips with the reason where the folder is absent), and no test returns early when a file is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NEEDS_SHARED_CORPUS, NEEDS_SHARED_EVAL, SHARED_CORPUS_PATH, SHARED_DIR } from './sharedData';

const repository = fileURLToPath(new URL('../../', import.meta.url));
const testFiles = ['src', 'e2e']
  .flatMap((folder) => readdirSync(join(repository, folder), { recursive: true, encoding: 'utf8' }).map((f) => join(folder, f)))
  .filter((f) => /\.(test|spec)\.tsx?$/.test(f) || f.startsWith('e2e') && f.endsWith('.ts'));

describe('tests reach ../shared only through src/testing/sharedData.ts', () => {
  it('finds the test files (src/**/*.test.ts, e2e/*.ts)', () => {
    expect(testFiles.length).toBeGreaterThan(100);
    expect(testFiles).toContain(join('src', 'testing', 'sharedData.test.ts'));
  });

  it('no test names the shared corpus or evaluation files itself', () => {
    const naming = testFiles.filter((f) => f !== join('src', 'testing', 'sharedData.test.ts') && /\bshared(\/|',\s*')(corpus|eval)\b|english-1mib\.txt/.test(readFileSync(join(repository, f), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('no test returns early when a file is missing (skip it with the reason instead)', () => {
    const early = testFiles.filter((f) => /if \(!\s*existsSync\([^)]*\)\)\s*return\b/.test(readFileSync(join(repository, f), 'utf8')));
    expect(early).toEqual([]);
  });

  it('points beside the repository unless CHUNKSCOPE_SHARED_DIR says otherwise, and says why a test is skipped', () => {
    if (!process.env.CHUNKSCOPE_SHARED_DIR) expect(resolve(SHARED_DIR)).toBe(resolve(repository, '..', 'shared'));
    expect(SHARED_CORPUS_PATH.startsWith(SHARED_DIR)).toBe(true);
    expect(NEEDS_SHARED_CORPUS).toBe('(needs ../shared/corpus: absent in a fresh clone)');
    expect(NEEDS_SHARED_EVAL).toBe('(needs ../shared/eval: absent in a fresh clone)');
  });
});
