import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { LIB_BUILD_OPTIONS } from '../scripts/lib-build.mjs';

/**
 * The CLI bundled from the current source as scripts/build-lib.mjs bundles it, into node_modules/.cache/<name> (so its
 * externals resolve), with a run.mjs that calls main() with the output discarded: a benchmark times fresh processes
 * of the code it sits beside, not whatever dist/lib was last built from. Returns run.mjs's path.
 */
export async function bundleCli(root: string, name: string, options: { stderr?: boolean } = {}): Promise<string> {
  const lib = join(root, 'node_modules', '.cache', name);
  await build({
    entryPoints: { cli: join(root, 'src/cli/main.ts') },
    outdir: lib,
    ...LIB_BUILD_OPTIONS,
    logLevel: 'error',
  });
  const stderr = options.stderr ? '(s) => process.stderr.write(s)' : '() => {}';
  writeFileSync(join(lib, 'run.mjs'), `import { main } from './cli.js';\nprocess.exitCode = await main(process.argv.slice(2), { stdout: () => {}, stderr: ${stderr}, readStdin: async () => new Uint8Array() });\n`);
  return join(lib, 'run.mjs');
}
