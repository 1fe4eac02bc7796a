#!/usr/bin/env node
// `npm run bench [file]`: the Node engine benchmark, the browser benchmarks, then the rest (structure, compat,
// evaluation, the lab, and the scale/pathological tables, whose cases each run in their own process). Each prints
// ratios measured side by side in one run; none is a timed test. (bench/tokenizers.eval.ts is run by hand: see its
// header.)
//
// What each benchmark prints is shown as it runs and written to bench/RESULTS.md at the end, with the date, the
// machine and the commit (scripts/bench-results.mjs). CHUNKSCOPE_BENCH_ONLY=bpe,eval runs only the benchmarks whose
// file names start with those words and writes .bench/RESULTS.md instead (a partial run never replaces the results);
// CHUNKSCOPE_BENCH_RESULTS=<path> writes elsewhere.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { commitSummary, machineSummary, renderResults } from './bench-results.mjs';

const args = process.argv.slice(2);
const steps = [
  ['bench/node.bench.ts', ['node', '--expose-gc', '--import', 'tsx', 'bench/node.bench.ts', ...args]],
  ['bench/bpe.bench.ts', ['node', '--import', 'tsx', 'bench/bpe.bench.ts']],
  ['bench/browser.bench.ts', ['npx', 'tsx', 'bench/browser.bench.ts', ...args]],
  ['bench/first-load.bench.ts', ['npx', 'tsx', 'bench/first-load.bench.ts']],
  ['bench/semantic.bench.ts', ['npx', 'tsx', 'bench/semantic.bench.ts', ...args]],
  ['bench/hub-pool.bench.ts', ['npx', 'tsx', 'bench/hub-pool.bench.ts']],
  ['bench/structure.bench.ts', ['npx', 'tsx', 'bench/structure.bench.ts', ...args]],
  ['bench/markdown.bench.ts', ['npx', 'tsx', 'bench/markdown.bench.ts']],
  ['bench/llamaindex.bench.ts', ['npx', 'tsx', 'bench/llamaindex.bench.ts', ...args]],
  ['bench/chonkie.bench.ts', ['npx', 'tsx', 'bench/chonkie.bench.ts', ...args]],
  ['bench/eval.bench.ts', ['npx', 'tsx', 'bench/eval.bench.ts']],
  ['bench/eval-corpus.bench.ts', ['npx', 'tsx', 'bench/eval-corpus.bench.ts']],
  ['bench/lab.bench.ts', ['npx', 'tsx', 'bench/lab.bench.ts', ...args]],
  ['bench/llm.bench.ts', ['npx', 'tsx', 'bench/llm.bench.ts']],
  ['bench/filter.bench.ts', ['npx', 'tsx', 'bench/filter.bench.ts']],
  ['bench/corpus.bench.ts', ['npx', 'tsx', 'bench/corpus.bench.ts']],
  ['bench/scale.bench.ts', ['node', '--expose-gc', '--import', 'tsx', 'bench/scale.bench.ts']],
  ['bench/cli-50mib.ts', ['node', '--import', 'tsx', 'bench/cli-50mib.ts', '--table']],
];
const only = (process.env.CHUNKSCOPE_BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const chosen = steps.filter(([file]) => existsSync(file) && (only.length === 0 || only.some((o) => file.startsWith(`bench/${o}`))));
const resultsPath = process.env.CHUNKSCOPE_BENCH_RESULTS || (only.length ? '.bench/RESULTS.md' : 'bench/RESULTS.md');

/** Runs one benchmark, its output shown as it comes and kept for the results file. */
function run(cmd) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['inherit', 'pipe', 'inherit'] });
    const parts = [];
    child.stdout.on('data', (part) => {
      process.stdout.write(part);
      parts.push(part);
    });
    const finish = (status) => done({ status, seconds: (Date.now() - started) / 1000, output: Buffer.concat(parts).toString('utf8') });
    child.on('error', (error) => {
      parts.push(Buffer.from(`could not start: ${error.message}\n`));
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

const date = new Date();
const machine = machineSummary();
const commit = commitSummary();
const results = [];
for (const [file, cmd] of chosen) results.push({ file, ...(await run(cmd)) });

const command = ['npm run bench', ...args].join(' ') + (only.length ? ` (CHUNKSCOPE_BENCH_ONLY=${only.join(',')})` : '');
mkdirSync(dirname(resultsPath), { recursive: true });
writeFileSync(resultsPath, renderResults({ date, machine, commit, command, steps: results }));
console.log(`\nresults written to ${resultsPath}`);
process.exit(results.some((r) => r.status !== 0) ? 1 : 0);
