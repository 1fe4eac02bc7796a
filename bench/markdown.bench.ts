/**
 * Markdown cold, side by side with LlamaIndex's MarkdownNodeParser (`npm run bench`; issue 28 point 4: within 2x),
 * on two ~1 MiB documents (bench/markdown-docs.ts): the corpus as markdown, and README-like markdown (tables, code
 * fences, inline code and links in headings). Prints figures and ratios; not a timed test.
 *
 * - First run in a fresh process: what `chunkscope chunk` pays. Each side runs in child processes of its own that
 *   import only that side's library (so neither pays for the other's heap or JIT), run it once on a tiny document,
 *   then time its first run on the 1 MiB document; the children alternate between the sides (ours, LlamaIndex,
 *   ours, ...) and the ratio is taken per pair of neighbouring children, then the median over the pairs. Each child
 *   also reports how long its library took to import (module loading: ours through tsx, theirs as published), and
 *   the process figure (import + tiny run + first run) is printed beside the first-run one.
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
import type { Chunk } from '../src/core/types';
import { corpusMarkdown, readmeMarkdown } from './markdown-docs';

type DocName = 'corpus' | 'readme';
type Side = 'ours' | 'llama';
const docs: Record<DocName, () => string> = { corpus: () => corpusMarkdown(), readme: () => readmeMarkdown().text };
const arg = (name: string, fallback: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

/** One side, imported on demand: a child process loads only its own side's library. */
async function load(side: Side): Promise<(text: string) => Promise<unknown>> {
  if (side === 'llama') {
    const [{ MarkdownNodeParser }, { Document }] = await Promise.all([import('@llamaindex/core/node-parser'), import('@llamaindex/core/schema')]);
    return async (text) => new MarkdownNodeParser().getNodesFromDocuments([new Document({ text })]).length;
  }
  const { chunk } = await import('../src/node/index');
  return (text) => chunk(text, { strategy: 'markdown', size: 1000, overlap: 0 });
}
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

interface ChildResult {
  /** The first run on the 1 MiB document. */
  ms: number;
  cpuMs: number;
  /** Importing the side's library, then the run on a tiny document, then the first run: the whole process's work. */
  processMs: number;
  importMs: number;
}

const child = process.argv.indexOf('--child');
if (child >= 0) {
  const name = process.argv[child + 1] as DocName;
  const side = process.argv[child + 2] as Side;
  const text = docs[name]();
  const t0 = performance.now();
  const run = await load(side);
  const importMs = performance.now() - t0;
  await run('# Warm\n\nup.');
  const first = await timedCpu(() => run(text));
  const result: ChildResult = { ...first, processMs: performance.now() - t0, importMs };
  console.log(JSON.stringify(result));
  process.exit(0);
}

function runChild(name: DocName, side: Side): ChildResult {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name, side], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as ChildResult;
}

const children = arg('children', 6);
const rounds = arg('rounds', 7);
const fmt = (ms: number): string => `${ms.toFixed(0).padStart(5)} ms`;
const ratio = (x: number): string => `${x.toFixed(2)}x`;
const [llama, { chunk }, { documentCache }] = await Promise.all([load('llama'), import('../src/node/index'), import('../src/core/documentCache')]);
const ours = (text: string): Promise<Chunk[]> => chunk(text, { strategy: 'markdown', size: 1000, overlap: 0 });
const summary: string[] = [];
console.log('Markdown cold vs LlamaIndex MarkdownNodeParser (@llamaindex/core 0.6.23), markdown strategy at size 1000');
for (const name of ['corpus', 'readme'] as const) {
  const text = docs[name]();
  const label = name === 'corpus' ? 'corpus as markdown' : `README-like (${readmeMarkdown().packages.length} package READMEs)`;
  console.log(`  ${label}, ${(text.length / 1024).toFixed(0)} KiB: ${fingerprint(await ours(text))}; LlamaIndex ${String(await llama(text))} nodes`);
  // Children alternate between the sides (which one starts a pair alternates too); each pair gives one ratio.
  const pairs: { ours: ChildResult; llama: ChildResult }[] = [];
  for (let i = 0; i < children; i++) {
    const order: Side[] = i % 2 === 0 ? ['ours', 'llama'] : ['llama', 'ours'];
    const [a, b] = order.map((side) => runChild(name, side)) as [ChildResult, ChildResult];
    pairs.push(order[0] === 'ours' ? { ours: a, llama: b } : { ours: b, llama: a });
  }
  const med = (f: (p: { ours: ChildResult; llama: ChildResult }) => number): number => median(pairs.map(f));
  const firstWall = med((p) => p.ours.ms / p.llama.ms);
  const firstCpu = med((p) => p.ours.cpuMs / p.llama.cpuMs);
  console.log(
    `    first run in a fresh process (median of ${children} pairs): LlamaIndex ${fmt(med((p) => p.llama.ms))}, Chunkscope ${fmt(med((p) => p.ours.ms))} -> ${ratio(firstWall)} wall, ${ratio(firstCpu)} CPU (target <= 2x)`,
  );
  console.log(
    `      the whole process (import + tiny run + first run): LlamaIndex ${fmt(med((p) => p.llama.processMs))} (import ${fmt(med((p) => p.llama.importMs))}), Chunkscope ${fmt(med((p) => p.ours.processMs))} (import ${fmt(med((p) => p.ours.importMs))}, through tsx) -> ${ratio(med((p) => p.ours.processMs / p.llama.processMs))}`,
  );
  console.log(`::target markdown.first.${name} ${firstWall} x`);
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
    `    new document in a warm process (median of ${rounds}):   LlamaIndex ${fmt(wall(warmL))}, Chunkscope ${fmt(wall(warmO))} -> ${ratio(wall(warmO) / wall(warmL))} wall, ${ratio(cpu(warmO) / cpu(warmL))} CPU (target <= 2x)`,
  );
  summary.push(`${name} ${ratio(firstWall)} wall / ${ratio(firstCpu)} CPU`);
  console.log(`::target markdown.warm.${name} ${wall(warmO) / wall(warmL)} x`);
}
console.log(`  Markdown first run in a fresh process, Chunkscope / LlamaIndex: ${summary.join('; ')} (target <= 2x on both)`);
