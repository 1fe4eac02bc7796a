import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * The export spec compares the page's download with the CLI's output, so the CLI must be built. `npm ci`
 * builds it (prepare), but `vite build` (run by test:e2e just before Playwright) empties dist/, which holds
 * dist/lib; rebuild it here when it is missing rather than fail on a build-order accident.
 */
export default function globalSetup(): void {
  if (existsSync('dist/lib/cli.js')) return;
  console.log('dist/lib/cli.js missing (vite build empties dist/): building the CLI (scripts/build-lib.mjs)');
  execFileSync('node', ['scripts/build-lib.mjs'], { stdio: 'inherit' });
}
