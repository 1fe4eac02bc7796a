/**
 * Hub models in Node: a pool of worker threads against one (`npx tsx bench/hub-pool.bench.ts [--chars=N]`, also run
 * by `npm run bench`). Not a timed test: it prints figures and ratios measured side by side in one run.
 *
 * The model is a hub-format folder made here from the built-in model's files under another name
 * (src/embed/pool/testModelFolder.ts), so it runs on the ONNX path (transformers.js + onnxruntime-node) as a hub
 * model does; there is no network to the hub here. A real hub model (MiniLM, BGE) spends more of its time in
 * onnxruntime and less in the tokenizer, so its speedup can differ.
 *
 * - warm: each embedder loaded (and its threads started, whatever the work: minWorkMs 0) first, then the same distinct sentences embedded, one run
 *   of each embedder in turn, `ROUNDS` turns; the median of each, in sentences/s, and each pool's ratio to one.
 * - cold: the built CLI, `chunkscope chunk <file> --strategy semantic --embedder <folder> --embed-workers N`, one
 *   process each in turn, `ROUNDS` turns; the median wall clock (process start, model load, chunking, output). The
 *   CLI starts worker threads only when the work outlasts their start (minWorkMs), so a small file runs in one.
 * `--embed-workers 1` is the one embedder in this thread (the CLI's path for one worker); N counts this thread.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { makeDocument } from '../e2e/documents';
import { prepareSemantic } from '../src/core/semantic/index';
import { createNodeEmbedder } from '../src/embed/pool/node';
import { makeHubModelFolder } from '../src/embed/pool/testModelFolder';
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

async function main(): Promise<void> {
  const folder = makeHubModelFolder('bench-hub');
  const document = makeDocument(CHARS, 7);
  const sentences = [...new Set(prepareSemantic(document, { bufferSize: 0 }).inputs.texts)];
  const cores = availableParallelism();
  const sizes = [...new Set([1, 2, Math.min(4, cores)])];
  console.log(`hub-format model (ONNX path), ${fmt(sentences.length)} distinct sentences from ${fmt(CHARS / 1024)} KiB; ${cores} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  try {
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
      `Node, hub models: --embed-workers N against one (median of ${ROUNDS} turns, side by side; higher speedup is better)`,
      ['--embed-workers', 'warm sentences/s', 'warm speedup', 'batches per thread', 'cold CLI ms', 'cold speedup'],
      sizes.map((n, i) => {
        const w = median(warm[n]!);
        const c = median(cold[n]!);
        return [n === 1 ? '1 (this thread)' : `${n} threads`, fmt(w), `${fmt(w / one.warm, 2)} x`, shares[i]!, fmt(c), `${fmt(one.cold / c, 2)} x`];
      }),
    );
  } finally {
    folder.remove();
  }
}

await main();
