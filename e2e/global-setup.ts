import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * The export spec compares the page's download with the CLI's output, so the CLI must be built. `npm ci`
 * builds it (prepare) and `npm test` rebuilds it; when the specs are run on their own after a clean checkout it
 * may be missing, so build it here rather than fail.
 */
export default function globalSetup(): void {
  if (existsSync('dist/lib/cli.js')) return;
  console.log('dist/lib/cli.js missing: building the CLI (scripts/build-lib.mjs)');
  execFileSync('node', ['scripts/build-lib.mjs'], { stdio: 'inherit' });
}
