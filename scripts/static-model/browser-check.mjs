#!/usr/bin/env node
// Loads the built-in static model in a module Web Worker of headless Chromium through transformers.js'
// web build (onnxruntime-web, wasm), from a cross-origin-isolated local server, and reports load time,
// speed, whether an empty text gives NaN, and every request that leaves the origin (there must be none).
//
// Needs @huggingface/transformers installed outside the repo (see evaluate.mjs) and /usr/bin/chromium:
//   node scripts/static-model/browser-check.mjs --transformers /tmp/tjs [--corpus <text>]

import http from 'node:http';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const { values: args } = parseArgs({
  options: {
    transformers: { type: 'string' },
    corpus: { type: 'string', default: resolve(repoRoot, '..', 'shared', 'corpus', 'english-1mib.txt') },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
if (!args.transformers) throw new Error('--transformers <folder where @huggingface/transformers is installed> is required');
const prefixModules = join(resolve(args.transformers), 'node_modules');

// The worker, bundled with transformers.js' browser build resolved from the outside install.
const work = mkdtempSync(join(tmpdir(), 'chunkscope-static-check-'));
await build({
  entryPoints: [join(here, 'browser-check', 'worker.js')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  nodePaths: [prefixModules],
  outfile: join(work, 'worker.js'),
  logLevel: 'warning',
});
const sentences = readFileSync(args.corpus, 'utf8')
  .split(/\n\s*\n/)
  .flatMap((block) => block.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/).map((s) => s.trim()))
  .filter((s) => (s.match(/\p{L}+/gu) ?? []).length >= 5)
  .slice(0, 9000);
writeFileSync(join(work, 'sentences.json'), JSON.stringify(sentences));

const roots = [
  ['/models/', join(repoRoot, 'public', 'models')],
  ['/ort/', join(prefixModules, 'onnxruntime-web', 'dist')],
  ['/worker.js', join(work, 'worker.js')],
  ['/sentences.json', join(work, 'sentences.json')],
  ['/', join(here, 'browser-check', 'index.html')],
];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };
const served = [];
const server = http
  .createServer(async (req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    const [prefix, target] = roots.find(([p]) => path.startsWith(p));
    const file = prefix.endsWith('/') && prefix !== '/' ? join(target, path.slice(prefix.length)) : target;
    try {
      const body = await readFileAsync(file);
      served.push(`200 ${path}`);
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        // Cross-origin isolation, as the app's servers send it (enables wasm threads).
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      });
      res.end(body);
    } catch {
      served.push(`404 ${path}`);
      res.writeHead(404);
      res.end();
    }
  })
  .listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext();
  const outside = [];
  context.on('request', (r) => {
    if (!r.url().startsWith(origin + '/')) outside.push(r.url());
  });
  const page = await context.newPage();
  await page.goto(origin + '/');
  const result = await page.evaluate(() => window.result);
  console.log(JSON.stringify(result, null, 1));
  console.log('served:', served.join(', '));
  console.log('requests leaving the origin:', outside.length ? outside.join(', ') : 'none');
  if (result.error || outside.length) process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
