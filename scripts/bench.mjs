#!/usr/bin/env node
// `npm run bench [file]`: the Node engine benchmark, the browser benchmarks, then the rest (structure, compat,
// evaluation, the lab, and the scale/pathological tables, whose cases each run in their own process). Each prints
// ratios measured side by side in one run; none is a timed test. (bench/cli-50mib.ts and bench/tokenizers.eval.ts
// are run by hand: see their headers.)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const steps = [
  ['bench/node.bench.ts', ['node', '--expose-gc', '--import', 'tsx', 'bench/node.bench.ts', ...args]],
  ['bench/bpe.bench.ts', ['node', '--import', 'tsx', 'bench/bpe.bench.ts']],
  ['bench/browser.bench.ts', ['npx', 'tsx', 'bench/browser.bench.ts', ...args]],
  ['bench/first-load.bench.ts', ['npx', 'tsx', 'bench/first-load.bench.ts']],
  ['bench/semantic.bench.ts', ['npx', 'tsx', 'bench/semantic.bench.ts', ...args]],
  ['bench/structure.bench.ts', ['npx', 'tsx', 'bench/structure.bench.ts', ...args]],
  ['bench/llamaindex.bench.ts', ['npx', 'tsx', 'bench/llamaindex.bench.ts', ...args]],
  ['bench/chonkie.bench.ts', ['npx', 'tsx', 'bench/chonkie.bench.ts', ...args]],
  ['bench/eval.bench.ts', ['npx', 'tsx', 'bench/eval.bench.ts']],
  ['bench/lab.bench.ts', ['npx', 'tsx', 'bench/lab.bench.ts', ...args]],
  ['bench/llm.bench.ts', ['npx', 'tsx', 'bench/llm.bench.ts']],
  ['bench/scale.bench.ts', ['node', '--expose-gc', '--import', 'tsx', 'bench/scale.bench.ts']],
];
let failed = false;
for (const [file, cmd] of steps) {
  if (!existsSync(file)) continue;
  const r = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
