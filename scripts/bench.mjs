#!/usr/bin/env node
// `npm run bench [file]`: the Node engine benchmark, the browser benchmarks, then the rest (structure, compat,
// evaluation, the lab, and the scale/pathological tables, whose cases each run in their own process). Each prints
// ratios measured side by side in one run; none is a timed test. (bench/tokenizers.eval.ts is run by hand: see its
// header.)
//
// Each benchmark's output is shown as it runs and written to its own section, bench/results/<name>.md, with the
// date, commit, machine, load average and command; bench/RESULTS.md is assembled from the sections after each one
// (scripts/bench-results.mjs). CHUNKSCOPE_BENCH_ONLY=bpe,eval runs only the benchmarks of those names (or, for a
// word that names none, those whose names start with it) and rewrites only their sections (the others keep theirs, and the index says when each was made). A
// benchmark that fails keeps its earlier section, marked as failed. CHUNKSCOPE_BENCH_RESULTS=<folder> writes the
// sections and RESULTS.md there instead of bench/. The built app and library are rebuilt first when a chosen
// benchmark uses them (so the figures are this commit's), unless CHUNKSCOPE_BENCH_NO_BUILD=1.
// `npm run bench -- --assemble` only assembles RESULTS.md from the sections (after merging branches' sections).
// `::target <id> <value> <unit>` lines are shown as "before → now (target, met/missed)" against
// bench/baseline/issue-28.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleResults, commitSummary, describeTarget, loadSummary, machineSummary, nextSection, parseTargets, sectionName } from './bench-results.mjs';

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
].filter(([file]) => existsSync(file));
/** The benchmarks that serve the built app (dist/app) or run the built CLI and library (dist/lib). */
const NEEDS_APP = ['bench/browser.bench.ts', 'bench/first-load.bench.ts', 'bench/semantic.bench.ts', 'bench/lab.bench.ts'];
const NEEDS_LIB = ['bench/semantic.bench.ts', 'bench/corpus.bench.ts'];

const only = (process.env.CHUNKSCOPE_BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
/** A word names the benchmark of that name (`eval`: bench/eval.bench.ts), or else those whose names start with it. */
const picks = (word, file) => (steps.some(([f]) => sectionName(f) === word) ? sectionName(file) === word : sectionName(file).startsWith(word));
const chosen = steps.filter(([file]) => only.length === 0 || only.some((o) => picks(o, file)));
const outDir = process.env.CHUNKSCOPE_BENCH_RESULTS || 'bench';
const baseline = JSON.parse(readFileSync('bench/baseline/issue-28.json', 'utf8'));
const command = (args.length ? `npm run bench -- ${args.join(' ')}` : 'npm run bench') + (only.length ? ` (CHUNKSCOPE_BENCH_ONLY=${only.join(',')})` : '');

/** Output lines as the terminal shows them: `::target` lines spelled out against the baseline. */
function echoLines() {
  let pending = '';
  const show = (line) => {
    const [target] = parseTargets(line);
    process.stdout.write(target ? `→ ${describeTarget(baseline, target)}\n` : `${line}\n`);
  };
  return {
    write(text) {
      const lines = (pending + text).split('\n');
      pending = lines.pop();
      lines.forEach(show);
    },
    end: () => pending && show(pending),
  };
}

/** Runs one benchmark, its output shown as it comes and kept for its section. */
function run(cmd) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['inherit', 'pipe', 'pipe'] });
    const parts = [];
    const errors = [];
    child.stderr.on('data', (part) => {
      process.stderr.write(part);
      errors.push(part);
    });
    const echo = echoLines();
    child.stdout.on('data', (part) => {
      echo.write(part.toString('utf8'));
      parts.push(part);
    });
    const finish = (status) => {
      echo.end();
      const text = (list) => Buffer.concat(list).toString('utf8');
      done({ status, seconds: (Date.now() - started) / 1000, output: text(parts), errors: text(errors) });
    };
    child.on('error', (error) => {
      parts.push(Buffer.from(`could not start: ${error.message}\n`));
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

/** Builds what the chosen benchmarks use, so they measure this commit's code and not an older build. */
function buildFirst() {
  if (process.env.CHUNKSCOPE_BENCH_NO_BUILD === '1') return;
  const files = chosen.map(([file]) => file);
  const builds = [
    [NEEDS_APP, ['npx', 'vite', 'build']],
    [NEEDS_LIB, ['node', 'scripts/build-lib.mjs']],
  ];
  for (const [needs, cmd] of builds) {
    if (!needs.some((f) => files.includes(f))) continue;
    console.log(`\n> ${cmd.join(' ')} (for ${needs.filter((f) => files.includes(f)).join(', ')})`);
    const built = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit' });
    if (built.status !== 0) {
      console.error(`${cmd.join(' ')} failed (exit ${built.status}): no benchmark was run`);
      process.exit(1);
    }
  }
}

const sectionPath = (file) => join(outDir, 'results', `${sectionName(file)}.md`);
const readSection = (file) => (existsSync(sectionPath(file)) ? readFileSync(sectionPath(file), 'utf8') : null);

/** RESULTS.md again from every section on disk. */
function writeResults(date, ran) {
  const text = assembleResults({
    steps: steps.map(([file]) => ({ file, section: readSection(file) })),
    lastRun: { command, date, files: ran },
    baseline,
  });
  writeFileSync(join(outDir, 'RESULTS.md'), text);
}

if (args[0] === '--assemble') {
  // `npm run bench -- --assemble`: RESULTS.md again from the sections on disk (after merging branches' sections).
  writeResults(new Date(), []);
  console.log(`${join(outDir, 'RESULTS.md')} assembled from ${join(outDir, 'results')}/`);
  process.exit(0);
}
if (chosen.length === 0) {
  console.error(`no benchmark matches CHUNKSCOPE_BENCH_ONLY=${only.join(',')} (names: ${steps.map(([f]) => sectionName(f)).join(', ')})`);
  process.exit(2);
}
buildFirst();
const date = new Date();
const machine = machineSummary();
const commit = commitSummary();
const ran = [];
let failed = false;
mkdirSync(join(outDir, 'results'), { recursive: true });
for (const [file, cmd] of chosen) {
  const load = loadSummary();
  const started = new Date();
  const result = await run(cmd);
  failed ||= result.status !== 0;
  const section = nextSection(readSection(file), { file, command: `${command}: ${cmd.join(' ')}`, date: started, commit, machine, load, ...result }, baseline);
  writeFileSync(sectionPath(file), section);
  ran.push(file);
  writeResults(date, ran);
}
console.log(`\n${ran.length} section(s) written to ${join(outDir, 'results')}/, ${join(outDir, 'RESULTS.md')} assembled`);
process.exit(failed ? 1 : 0);
