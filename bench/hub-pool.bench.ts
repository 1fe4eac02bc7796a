/**
 * Hub models in Node: a pool of worker threads against one (`npx tsx bench/hub-pool.bench.ts [--chars=N]`, also run
 * by `npm run bench`). Not a timed test: it prints figures and ratios measured side by side in one run.
 *
 * Two hub-format folders made here (src/embed/pool/testModelFolder.ts; there is no network to the hub), both on the
 * ONNX path (transformers.js + onnxruntime) as a hub model is: the built-in model's files under another name (a table
 * lookup: the time goes to the JavaScript tokenizer), and the same tokenizer before four feed-forward blocks of
 * all-MiniLM-L6-v2's sizes with random weights (the time goes to matrix products, as a real hub model's does).
 *
 * - warm: each embedder loaded (and its threads started, whatever the work: minWorkMs 0) first, then the same distinct sentences embedded, one run
 *   of each embedder in turn, `ROUNDS` turns; the median of each, in sentences/s, and each pool's ratio to one.
 * - cold: the built CLI, `chunkscope chunk <file> --strategy semantic --embedder <folder> --embed-workers N`, one
 *   process each in turn, `ROUNDS` turns; the median wall clock (process start, model load, chunking, output). The
 *   CLI starts worker threads only when the work outlasts their start (minWorkMs), so a small file runs in one.
 * `--embed-workers 1` is the one embedder in this thread (the CLI's path for one worker); N counts this thread.
 *
 * Chromium (headless, the same flags as the e2e tests; `--node` skips it): the same folder and sentences embedded by
 * onnxruntime-web's WASM in Web Workers (src/embed's browser path, bundled here with esbuild and served with COOP/COEP
 * so the page is cross-origin isolated), warm, median of `ROUNDS` turns side by side: one worker with one WASM thread
 * (a page that is not isolated), one worker with 2 WASM threads (what the page does where it is isolated and has the
 * cores), and 2 workers with one thread each taking batches of 64 in turn (a pool of Web Workers).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/ensure-chromium.mjs';
import { makeDocument } from '../e2e/documents';
import { prepareSemantic } from '../src/core/semantic/index';
import { createNodeEmbedder } from '../src/embed/pool/node';
import { makeHubModelFolder, makeMatmulHubModelFolder, type TestModelFolder } from '../src/embed/pool/testModelFolder';
import { PooledEmbedder } from '../src/embed/pool/pool';
import type { Embedder } from '../src/embed/types';

const ROUNDS = 3;
const charsArg = process.argv.find((a) => a.startsWith('--chars='));
const CHARS = charsArg ? Number(charsArg.slice('--chars='.length)) : 256 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function printTable(title: string, headers: string[], lines: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  console.log(`\n${title}`);
  console.log(row(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(row(l));
}

/** The page's embedding runtime in a Web Worker: src/embed on onnxruntime-web's WASM, `threads` threads. */
const WORKER_SOURCE = `
import { env } from '@huggingface/transformers';
import { createEmbedder } from './src/embed/index';
let embedder;
self.onmessage = async ({ data }) => {
  try {
    if (data.load) {
      env.allowLocalModels = true;
      env.allowRemoteModels = false;
      env.useWasmCache = false;
      env.backends.onnx.wasm.wasmPaths = { wasm: self.location.origin + '/ort.wasm', mjs: self.location.origin + '/ort.mjs' };
      env.backends.onnx.wasm.numThreads = data.threads;
      embedder = await createEmbedder({ model: data.model, localModelPath: '/models/', device: 'wasm' });
      postMessage({ loaded: true });
    } else {
      const vectors = await embedder.embed(data.texts);
      postMessage({ done: vectors.length });
    }
  } catch (error) {
    postMessage({ error: String(error && error.message || error) });
  }
};
`;

/**
 * Runs in the page: `workers` Web Workers of `threads` WASM threads each, taking batches of 64 in turn. A string of
 * plain JavaScript: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const PAGE_RUN = `async (input) => {
  const ask = (w, message) => new Promise((ok, fail) => {
    w.onmessage = ({ data }) => (data.error ? fail(new Error(data.error)) : ok(data));
    w.postMessage(message);
  });
  const pool = Array.from({ length: input.workers }, () => new Worker('/worker.js', { type: 'module' }));
  await Promise.all(pool.map((w) => ask(w, { load: true, threads: input.threads, model: input.model })));
  await Promise.all(pool.map((w) => ask(w, { texts: input.texts.slice(0, 64) })));
  const sorted = [...input.texts].sort((a, b) => a.length - b.length);
  let next = 0;
  const t = performance.now();
  await Promise.all(pool.map(async (w) => {
    while (next < sorted.length) {
      const batch = sorted.slice(next, next + 64);
      next += batch.length;
      await ask(w, { texts: batch });
    }
  }));
  const ms = performance.now() - t;
  pool.forEach((w) => w.terminate());
  return { isolated: self.crossOriginIsolated, ms };
}`;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

async function browserBench(folder: TestModelFolder, what: string, sentences: string[]): Promise<void> {
  const site = join(folder.root, 'site');
  mkdirSync(join(site, 'models'), { recursive: true });
  cpSync(folder.path, join(site, 'models', folder.name), { recursive: true });
  const ort = resolve('node_modules/onnxruntime-web/dist');
  copyFileSync(join(ort, 'ort-wasm-simd-threaded.asyncify.wasm'), join(site, 'ort.wasm'));
  copyFileSync(join(ort, 'ort-wasm-simd-threaded.asyncify.mjs'), join(site, 'ort.mjs'));
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>hub pool bench</title>');
  await build({ stdin: { contents: WORKER_SOURCE, resolveDir: resolve('.'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'browser', outfile: join(site, 'worker.js'), logLevel: 'error' });
  const server = createServer((req, res) => {
    const path = join(site, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html');
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    if (!path.startsWith(site) || !existsSync(path)) return res.writeHead(404, headers).end();
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const configs = [
      { label: '1 worker, 1 WASM thread', workers: 1, threads: 1 },
      { label: '1 worker, 2 WASM threads', workers: 1, threads: 2 },
      { label: '2 workers, 1 WASM thread each', workers: 2, threads: 1 },
    ];
    // Side by side: one turn of each configuration, then the next turn.
    const times: number[][] = configs.map(() => []);
    let isolated = false;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of configs.entries()) {
        const input = { workers: c.workers, threads: c.threads, model: folder.name, texts: sentences };
        const r = (await page.evaluate(`(${PAGE_RUN})(${JSON.stringify(input)})`)) as { isolated: boolean; ms: number };
        isolated = r.isolated;
        times[i]!.push(r.ms);
      }
    }
    const one = sentences.length / (median(times[0]!) / 1000);
    printTable(
      `Chromium, ${what}: Web Workers and WASM threads (warm, median of ${ROUNDS} turns, side by side; cross-origin isolated: ${isolated})`,
      ['configuration', 'sentences/s', 'speedup'],
      configs.map((c, i) => {
        const rate = sentences.length / (median(times[i]!) / 1000);
        return [c.label, fmt(rate), `${fmt(rate / one, 2)} x`];
      }),
    );
  } finally {
    await browser.close();
    server.close();
  }
}

/** The two test-built folders: where the time goes decides what parallelism buys. */
const MODELS = [
  { label: 'static-table graph (tokenizer-bound)', make: () => makeHubModelFolder('bench-hub'), sentences: Infinity },
  // ~140 sentences/s per thread on the machine this was written on: a subset keeps the run to a minute or two.
  { label: "feed-forward graph like MiniLM's (matrix-bound)", make: () => makeMatmulHubModelFolder('bench-matmul-hub'), sentences: 512 },
];

async function main(): Promise<void> {
  const document = makeDocument(CHARS, 7);
  const all = [...new Set(prepareSemantic(document, { bufferSize: 0 }).inputs.texts)];
  const cores = availableParallelism();
  const sizes = [...new Set([1, 2, Math.min(4, cores)])];
  console.log(`hub-format models (ONNX path) built here; ${cores} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const model of MODELS) {
    const folder = model.make();
    const sentences = all.slice(0, model.sentences);
    // The CLI's file: the whole document, or the sentences of the subset (about as many sentences again).
    const text = sentences.length === all.length ? document : sentences.join(' ');
    const what = `${model.label}, ${fmt(sentences.length)} distinct sentences`;
    try {
      if (!process.argv.includes('--browser')) await nodeBench(folder, what, text, sentences, sizes);
      if (!process.argv.includes('--node')) await browserBench(folder, what, sentences);
    } finally {
      folder.remove();
    }
  }
}

/** Node: the embedder in this thread against pools of `sizes` threads, warm, then the built CLI cold. */
async function nodeBench(folder: TestModelFolder, what: string, document: string, sentences: string[], sizes: number[]): Promise<void> {
  const warm: Record<number, number[]> = {};
  const cold: Record<number, number[]> = {};
  const embedders: Record<number, Embedder> = {};
  for (const n of sizes) {
    embedders[n] = await createNodeEmbedder(folder.path, { workers: n, minWorkMs: 0 }); // threads start at once
    await embedders[n].embed(sentences.slice(0, 64 * n)); // starts the pool's threads
    if (embedders[n] instanceof PooledEmbedder) await embedders[n].whenLoaded();
    await embedders[n].embed(sentences.slice(0, 64 * n)); // warms every thread's session
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of sizes) {
      const t = performance.now();
      await embedders[n]!.embed(sentences);
      (warm[n] ??= []).push(sentences.length / ((performance.now() - t) / 1000));
    }
  }
  const shares = sizes.map((n) => (embedders[n] instanceof PooledEmbedder ? embedders[n].lastShare.join(' + ') : 'all'));
  await Promise.all(Object.values(embedders).map((e) => e.dispose()));
  if (!existsSync('dist/lib/cli.js')) spawnSync('node', ['scripts/build-lib.mjs'], { stdio: 'inherit' });
  const file = join(folder.root, 'document.txt');
  writeFileSync(file, document);
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of sizes) {
      const t = performance.now();
      const run = spawnSync('node', ['bin/chunkscope.js', 'chunk', file, '--strategy', 'semantic', '--embedder', folder.path, '--embed-workers', String(n), '--format', 'jsonl'], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (run.status !== 0) throw new Error(`the CLI failed: ${run.stderr.trim()}`);
      (cold[n] ??= []).push(performance.now() - t);
    }
  }
  const one = { warm: median(warm[1]!), cold: median(cold[1]!) };
  printTable(
    `Node, ${what}: --embed-workers N against one (median of ${ROUNDS} turns, side by side; higher speedup is better)`,
    ['--embed-workers', 'warm sentences/s', 'warm speedup', 'batches per thread', 'cold CLI ms', 'cold speedup'],
    sizes.map((n, i) => {
      const w = median(warm[n]!);
      const c = median(cold[n]!);
      return [n === 1 ? '1 (this thread)' : `${n} threads`, fmt(w), `${fmt(w / one.warm, 2)} x`, shares[i]!, fmt(c), `${fmt(one.cold / c, 2)} x`];
    }),
  );
}

await main();
