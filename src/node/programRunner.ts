/**
 * For the tests that run generated copy-as-code programs: writes the program for a target and a document into a
 * folder inside node_modules (so the program's bare imports resolve as in a user's project), runs it with node and
 * returns the chunk strings it prints. Not shipped: only the *.exec.test.ts files import it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chunk } from '../core/index';
import { validateOptions } from '../core/options';
import type { ChunkOptions, CompatMode } from '../core/types';
import { codeFor, loadCopyAsCode, reproducesExactly, type CodeTarget } from '../core/export/copyAsCode';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ProgramRunner {
  /** The chunk strings the generated program for `options` prints for `text`. */
  run(text: string, options: ChunkOptions): Promise<string[]>;
  /** Asserts (via `expectEqual`) that the program, in compat mode `compat`, prints exactly chunk()'s contents. */
  sameAsCompat(text: string, options: ChunkOptions, expectEqual: (actual: unknown, expected: unknown) => void): Promise<void>;
  dispose(): void;
}

export function programRunner(target: CodeTarget, compat: CompatMode): ProgramRunner {
  const dir = mkdtempSync(join(ROOT, 'node_modules', `.chunkscope-${target}-export-test-`));
  let counter = 0;
  const runner: ProgramRunner = {
    async run(text, options) {
      await loadCopyAsCode();
      const n = counter++;
      const program = join(dir, `split${n}.mjs`);
      const input = join(dir, `doc${n}.txt`);
      writeFileSync(program, codeFor(validateOptions(options), target));
      writeFileSync(input, text, 'utf8');
      const { stdout } = await run(process.execPath, [program, input], { maxBuffer: 64 * 1024 * 1024 });
      return JSON.parse(stdout) as string[];
    },
    async sameAsCompat(text, options, expectEqual) {
      const withCompat: ChunkOptions = { ...options, compat };
      await loadCopyAsCode();
      expectEqual(reproducesExactly(validateOptions(withCompat), target), true);
      const ours = (await chunk(text, withCompat)).map((c) => c.content);
      expectEqual(await runner.run(text, withCompat), ours);
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
  return runner;
}
