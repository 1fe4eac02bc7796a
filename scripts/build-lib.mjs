#!/usr/bin/env node
// Builds the `chunkscope` library (`chunkscope` = src/node/index.ts, `chunkscope/embed`) and CLI into dist/lib (run by `npm ci` through the prepare script).
// The engine is bundled; js-tiktoken stays external so its rank files load lazily, one encoding at a time.
// @huggingface/transformers (semantic chunking in the CLI) stays external too: it loads onnxruntime-node's native
// binding and its own wasm/worker files relative to its package, which a bundle would break. src/embed finds the
// built-in model at ../../public/models/ from dist/lib, the same relative path as from src/embed.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist/lib', { recursive: true, force: true });
await build({
  entryPoints: { index: 'src/node/index.ts', embed: 'src/embed/index.ts', cli: 'src/cli/main.ts', corpusWorker: 'src/node/corpus/worker.ts', embedPoolWorker: 'src/embed/pool/worker.ts' },
  outdir: 'dist/lib',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // web-tree-sitter, pdfjs-dist and mammoth stay external as well: they load their own wasm/worker files (tree-sitter's
  // grammars are read from @repomix/tree-sitter-wasms by src/node/loadWasm.ts) and are needed only for code/PDF/DOCX.
  external: [
    'js-tiktoken',
    'js-tiktoken/*',
    '@huggingface/transformers',
    'onnxruntime-node',
    'onnxruntime-web',
    'onnxruntime-common',
    'web-tree-sitter',
    'pdfjs-dist',
    'pdfjs-dist/*',
    'mammoth',
    // LanceDB (--to / --index lancedb:DIR) loads its native binding from its own package.
    '@lancedb/lancedb',
    // piscina starts its own worker script from its package folder.
    'piscina',
    'cli-progress',
  ],
  logLevel: 'warning',
});
const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
