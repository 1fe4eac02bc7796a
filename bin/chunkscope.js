#!/usr/bin/env node
// Thin launcher: the CLI is built to dist/lib/cli.js by `npm ci` (the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/lib/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('chunkscope: the CLI is not built; run `npm ci` (or `npm run prepare`) in the package folder\n');
  process.exit(1);
}
const { main } = await import(built);
process.exitCode = await main(process.argv.slice(2));
