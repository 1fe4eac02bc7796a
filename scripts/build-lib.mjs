#!/usr/bin/env node
// Builds the `chunkscope` library (`chunkscope` = src/node/index.ts, `chunkscope/embed`) and CLI into dist/lib (run by `npm ci` through the prepare script).
// The engine is bundled; js-tiktoken stays external so its rank files load lazily, one encoding at a time.
// @huggingface/transformers (semantic chunking in the CLI) stays external too: it loads onnxruntime-node's native
// binding and its own wasm/worker files relative to its package, which a bundle would break. src/embed finds the
// built-in model at ../../public/models/ from dist/lib, the same relative path as from src/embed.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { LIB_BUILD_OPTIONS } from './lib-build.mjs';

rmSync('dist/lib', { recursive: true, force: true });
await build({
  entryPoints: { index: 'src/node/index.ts', embed: 'src/embed/index.ts', cli: 'src/cli/main.ts', corpusWorker: 'src/node/corpus/worker.ts', embedPoolWorker: 'src/embed/pool/worker.ts' },
  outdir: 'dist/lib',
  ...LIB_BUILD_OPTIONS,
  logLevel: 'warning',
});
const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
