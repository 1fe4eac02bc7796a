/**
 * Markdown cold, side by side with LlamaIndex's MarkdownNodeParser (`npm run bench`; issue 28 point 4: within 2x),
 * on two ~1 MiB documents (bench/markdown-docs.ts): the corpus as markdown, and README-like markdown (tables, code
 * fences, inline code and links in headings). Prints figures and ratios; not a timed test.
 *
 * - First run in a fresh process: what `chunkscope chunk` pays. Each child process loads both libraries, runs
 *   each once on a tiny document, then times each side's first run on the 1 MiB document (the order alternates
 *   between children); the ratio is taken inside each child, then the median over the children.
 * - New document in a warm process (the page opening another file): interleaved rounds, the document cache
 *   cleared before each Chunkscope run; medians.
 * Both wall time and CPU time (process.cpuUsage: user + system, all threads) are given; on a machine shared with
 * other work, the CPU ratio is the steadier one.
 * Chunkscope = the markdown strategy at size 1000 (outline + split + chunks). The chunk fingerprint (a hash of
 * every chunk's offsets) is printed so that runs before and after a change can be compared.
 *
 *   npx tsx bench/markdown.bench.ts [--children=6] [--rounds=7]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MarkdownNodeParser } from '@llamaindex/core/node-parser';
import { Document } from '@llamaindex/core/schema';
import { chunk } from '../src/node/index';
import { documentCache } from '../src/core/documentCache';
import type { Chunk } from '../src/core/types';
import { corpusMarkdown, readmeMarkdown } from './markdown-docs';

type DocName = 'corpus' | 'readme';
const docs: Record<DocName, () => string> = { corpus: () => corpusMarkdown(), readme: () => readmeMarkdown().text };
const arg = (name: string, fallback: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

const llama = (text: string): number => new MarkdownNodeParser().getNodesFromDocuments([new Document({ text })]).length;
const ours = async (text: string): Promise<Chunk[]> => chunk(text, { strategy: 'markdown', size: 1000, overlap: 0 });
const timed = async (f: () => unknown): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
/** Wall time and CPU time (user + system, every thread of the process) of one call: on a shared machine the CPU
 * time is what to read (it does not count the time other processes had the cores). */
const timedCpu = async (f: () => unknown): Promise<{ ms: number; cpuMs: number }> => {
  const c = process.cpuUsage();
  const ms = await timed(f);
  const used = process.cpuUsage(c);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** FNV-1a over every chunk's start and end: equal before and after a speed change. */
function fingerprint(chunks: readonly Chunk[]): string {
  let h = 0x811c9dc5;
  for (const c of chunks) for (const v of [c.start, c.end]) h = Math.imul(h ^ v, 0x01000193) >>> 0;
  return `${chunks.length} chunks, ${h.toString(16).padStart(8, '0')}`;
}

const child = process.argv.indexOf('--child');
if (child >= 0) {
  const name = process.argv[child + 1] as DocName;
  const llamaFirst = process.argv[child + 2] === 'llama-first';
  const text = docs[name]();
  llama('# Warm\n\nup.');
  await ours('# Warm\n\nup.');
  let theirs = { ms: 0, cpuMs: 0 };
  if (llamaFirst) theirs = await timedCpu(() => llama(text));
  const mine = await timedCpu(() => ours(text));
  if (!llamaFirst) theirs = await timedCpu(() => llama(text));
  console.log(JSON.stringify({ llamaMs: theirs.ms, oursMs: mine.ms, llamaCpu: theirs.cpuMs, oursCpu: mine.cpuMs }));
  process.exit(0);
}

const children = arg('children', 6);
const rounds = arg('rounds', 7);
const fmt = (ms: number): string => `${ms.toFixed(0).padStart(5)} ms`;
console.log('Markdown cold vs LlamaIndex MarkdownNodeParser (@llamaindex/core 0.6.23), markdown strategy at size 1000');
for (const name of ['corpus', 'readme'] as const) {
  const text = docs[name]();
  const label = name === 'corpus' ? 'corpus as markdown' : `README-like (${readmeMarkdown().packages.length} package READMEs)`;
  console.log(`  ${label}, ${(text.length / 1024).toFixed(0)} KiB: ${fingerprint(await ours(text))}; LlamaIndex ${llama(text)} nodes`);
  const first: { llamaMs: number; oursMs: number; llamaCpu: number; oursCpu: number }[] = [];
  for (let i = 0; i < children; i++) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name, i % 2 ? 'ours-first' : 'llama-first'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    first.push(JSON.parse(run.stdout.trim().split('\n').pop()!));
  }
  const firstRatio = median(first.map((r) => r.oursMs / r.llamaMs));
  const firstCpuRatio = median(first.map((r) => r.oursCpu / r.llamaCpu));
  console.log(
    `    first run in a fresh process (median of ${children}): LlamaIndex ${fmt(median(first.map((r) => r.llamaMs)))}, Chunkscope ${fmt(median(first.map((r) => r.oursMs)))} -> ${firstRatio.toFixed(2)}x wall, ${firstCpuRatio.toFixed(2)}x CPU (target <= 2x)`,
  );
  console.log(`::target markdown.first.${name} ${firstRatio} x`);
  const warmL: { ms: number; cpuMs: number }[] = [];
  const warmO: { ms: number; cpuMs: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    warmL.push(await timedCpu(() => llama(text)));
    documentCache.clear();
    warmO.push(await timedCpu(() => ours(text)));
  }
  const wall = (xs: { ms: number }[]): number => median(xs.map((x) => x.ms));
  const cpu = (xs: { cpuMs: number }[]): number => median(xs.map((x) => x.cpuMs));
  console.log(
    `    new document in a warm process (median of ${rounds}):   LlamaIndex ${fmt(wall(warmL))}, Chunkscope ${fmt(wall(warmO))} -> ${(wall(warmO) / wall(warmL)).toFixed(2)}x wall, ${(cpu(warmO) / cpu(warmL)).toFixed(2)}x CPU (target <= 2x)`,
  );
  console.log(`::target markdown.warm.${name} ${wall(warmO) / wall(warmL)} x`);
}
