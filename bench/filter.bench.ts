/**
 * The JSONL filter mode's throughput (`npx tsx bench/filter.bench.ts`, also run by `npm run bench`): does
 * `cat docs.jsonl | chunkscope chunk - --input jsonl --format jsonl` keep up with `cat` (issue 27: within 2× on
 * recursive characters)? Not a timed test: it prints figures and ratios measured side by side in one run.
 *
 *   input    ../shared/corpus/english-1mib.txt cut at paragraphs into ~10 KB documents, repeated under new ids to
 *            16 MiB of JSON lines (skipped, with the reason, where ../shared is absent).
 *   rows     each a shell pipeline from the input file to /dev/null, median of 3 runs, process start included:
 *            `cat | cat` (the baseline: bytes through a pipe), `cat | node` passing each JSON line through parse and
 *            stringify (the floor of any JSONL filter in Node), the filter (recursive, characters, the default
 *            size 1000 / overlap 0 — the CLI bundled as scripts/build-lib.mjs bundles it), and the same text as one file
 *            through the plain CLI (`chunk file --format jsonl`: the engine without the filter's per-line work).
 *   figures  wall time, and CPU time (user + system of every process of the pipeline, from bash's `time`), which the
 *            shared machine's load disturbs less; ratios of CPU time to `cat | cat`'s and to the JSON pass-through's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = resolve(root, '..', 'shared', 'corpus', 'english-1mib.txt');
/** CHUNKSCOPE_FILTER_BENCH_MIB=1 for a quick check of the pipelines. */
const TARGET_BYTES = Number(process.env.CHUNKSCOPE_FILTER_BENCH_MIB ?? 16) * 1024 * 1024;
const RUNS = 3;

async function main(): Promise<void> {
  if (!existsSync(corpusPath)) {
    console.log('filter benchmark: skipped (needs ../shared/corpus/english-1mib.txt: absent in a fresh clone)');
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'chunkscope-filter-bench-'));
  const { input, text } = writeInput(work);
  const mib = statSync(input).size / 1024 / 1024;
  const cli = await bundleCli();
  const single = join(work, 'all.txt');
  writeFileSync(single, text);
  const passThrough = join(work, 'pass.mjs');
  writeFileSync(
    passThrough,
    "import { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) if (!process.stdout.write(JSON.stringify(JSON.parse(line)) + '\\n')) await new Promise((r) => process.stdout.once('drain', r));\n",
  );
  const node = JSON.stringify(process.execPath);
  const rows: [string, string][] = [
    ['cat | cat', `cat ${input} | cat > /dev/null`],
    ['cat | node (JSON line parse + stringify)', `cat ${input} | ${node} ${passThrough} > /dev/null`],
    ['cat | chunkscope chunk - --input jsonl', `cat ${input} | ${node} ${cli} chunk - --input jsonl --format jsonl > /dev/null`],
    ['chunkscope chunk file --format jsonl (one file)', `${node} ${cli} chunk ${single} --format jsonl --max-bytes 256MiB > /dev/null`],
  ];
  const load = loadavg()[0]!.toFixed(1);
  console.log(`filter benchmark: ${mib.toFixed(1)} MiB of JSON lines (${documentsIn(input).toLocaleString('en-US')} documents), recursive / characters 1000 / 0; ${cpus().length} cores, load ${load}; median of ${RUNS}`);
  const times = rows.map(([, command]) => medianOf(Array.from({ length: RUNS }, () => timed(command))));
  console.log('');
  console.log('| pipeline | wall | CPU (user + sys) | input MiB/s of CPU | CPU × cat | CPU × JSON pass-through | wall × JSON pass-through |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  rows.forEach(([label], i) => {
    const t = times[i]!;
    const cells = [
      `${(t.wall / 1000).toFixed(2)} s`,
      `${(t.cpu / 1000).toFixed(2)} s`,
      (mib / Math.max(t.cpu / 1000, 0.001)).toFixed(0),
      `${(t.cpu / Math.max(times[0]!.cpu, 1)).toFixed(0)}×`,
      `${(t.cpu / times[1]!.cpu).toFixed(2)}×`,
      `${(t.wall / times[1]!.wall).toFixed(2)}×`,
    ];
    console.log(`| ${label.replace(/\|/g, '\\|')} | ${cells.join(' | ')} |`);
  });
  const vsPass = times[2]!.cpu / times[1]!.cpu;
  console.log('');
  console.log(
    `the filter costs ${vsPass.toFixed(2)}× the JSON pass-through's CPU (target ≤ 2×: ${vsPass <= 2 ? 'met' : 'not met'}), ` +
      `${(times[2]!.cpu / Math.max(times[0]!.cpu, 1)).toFixed(0)}× cat's, and ${(times[2]!.cpu / times[3]!.cpu).toFixed(2)}× the one-file CLI's on the same text`,
  );
}

/** ~10 KB documents of whole paragraphs, repeated under new ids up to TARGET_BYTES of JSON lines. */
function writeInput(work: string): { input: string; text: string } {
  const paragraphs = readFileSync(corpusPath, 'utf8').split(/\n\s*\n/);
  const documents: string[] = [];
  let current = '';
  for (const p of paragraphs) {
    current += (current ? '\n\n' : '') + p;
    if (current.length >= 10_000) {
      documents.push(current);
      current = '';
    }
  }
  if (current) documents.push(current);
  const lines: string[] = [];
  const texts: string[] = [];
  let bytes = 0;
  for (let round = 0; bytes < TARGET_BYTES; round++) {
    for (let i = 0; i < documents.length && bytes < TARGET_BYTES; i++) {
      const line = JSON.stringify({ id: `round-${round}/doc-${i}.txt`, text: documents[i] }) + '\n';
      lines.push(line);
      texts.push(documents[i]!);
      bytes += Buffer.byteLength(line);
    }
  }
  const input = join(work, 'docs.jsonl');
  writeFileSync(input, lines.join(''));
  return { input, text: texts.join('\n\n') };
}

const documentsIn = (path: string): number => readFileSync(path, 'utf8').split('\n').length - 1;

/** The CLI bundled as scripts/build-lib.mjs bundles it (into .bench/, so its externals resolve from node_modules). */
async function bundleCli(): Promise<string> {
  const out = join(root, '.bench', 'filter-cli');
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { cli: join(root, 'src/cli/main.ts') },
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['js-tiktoken', 'js-tiktoken/*', '@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web', 'onnxruntime-common', 'web-tree-sitter', 'pdfjs-dist', 'pdfjs-dist/*', 'mammoth', '@lancedb/lancedb'],
    logLevel: 'error',
  });
  const run = join(out, 'run.mjs');
  writeFileSync(run, "import { main } from './cli.js';\nprocess.exitCode = await main(process.argv.slice(2));\n");
  return run;
}

/** Wall and CPU (user + system, every process of the pipeline) milliseconds, from bash's `time`. */
function timed(command: string): { wall: number; cpu: number } {
  const r = spawnSync('bash', ['-c', `set -o pipefail; TIMEFORMAT='%R %U %S'; time (${command})`], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24 });
  const last = r.stderr.toString().trim().split('\n').pop() ?? '';
  const m = /^([\d.]+) ([\d.]+) ([\d.]+)$/.exec(last);
  if (r.status !== 0 || !m) throw new Error(`${command} failed (${r.status}): ${r.stderr.toString().slice(0, 300)}`);
  return { wall: Number(m[1]) * 1000, cpu: (Number(m[2]) + Number(m[3])) * 1000 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const medianOf = (runs: { wall: number; cpu: number }[]) => ({ wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) });

await main();
