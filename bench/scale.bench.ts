/**
 * Scale and pathological inputs (issue 10 items 4 and 5): `node --import tsx bench/scale.bench.ts [--sizes 1,4,16]
 * [--only pathological|scale] [--timeout 120] [--runs 3]`. Every case runs in its own process (bench/scale-case.ts) after its
 * modules, text and ranks are loaded: time of one chunk() on a new document, and peak memory over the process's
 * memory before the run. Not a timed test; a case that passes the timeout is reported as such.
 *
 * pathological: english vs a line of letters without spaces, a line of one emoji, blank lines and one repeated
 *   word, in every strategy x unit that applies; each figure the median of --runs runs (each in its own process),
 *   with its ratio to english of the same size (target: at most 5x).
 * scale: recursive (chars, cl100k), token, sentence, markdown and semantic (built-in model), Chunkscope beside
 *   LangChain and Chonkie where they have the splitter; each case once (LangChain's cl100k case alone takes over a
 *   minute at 16 MiB).
 */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Case, InputName } from './scale-case';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const sizes = flag('sizes', '1,4,16').split(',').map(Number);
const only = flag('only', 'all');
const timeoutS = Number(flag('timeout', '120'));
// The pathological ratios compare two single runs of a few hundred ms at 16 MiB, where one collection more or less
// moved a row by a whole 1x between runs: each of those cases runs this many times, and the medians are compared.
const runs = Math.max(1, Number(flag('runs', '3')));

interface Result {
  ms: number;
  chunks: number;
  peakMiB: number;
  heapMiB: number;
  peakIsBound: boolean;
}

function runCase(c: Case): Result | string {
  const r = spawnSync('node', ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', resolve(here, 'scale-case.ts'), JSON.stringify(c)], {
    encoding: 'utf8',
    timeout: timeoutS * 1000,
  });
  if (r.error || r.status !== 0) {
    if (r.signal === 'SIGTERM' || (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') return `> ${timeoutS} s`;
    return `failed: ${(r.stderr || String(r.error)).trim().split('\n').filter((l) => !l.startsWith('npm warn')).slice(-1)[0] ?? ''}`;
  }
  const line = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as Result;
}

/** `c` run `times` times, each in its own process: the run of median time, with the largest peak of them all. */
function runMedian(c: Case, times: number): Result | string {
  const results: Result[] = [];
  for (let i = 0; i < times; i++) {
    const r = runCase(c);
    if (typeof r === 'string') return r;
    results.push(r);
  }
  results.sort((a, b) => a.ms - b.ms);
  const median = results[(results.length - 1) >> 1]!;
  const peak = results.reduce((a, b) => (b.peakMiB > a.peakMiB ? b : a));
  return { ...median, peakMiB: peak.peakMiB, peakIsBound: results.every((r) => r.peakIsBound) };
}

const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const fmtMiB = (r: Result) => `${r.peakIsBound ? '<=' : ''}${Math.max(0, r.peakMiB).toFixed(0)}`;

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? (c ?? '').padEnd(widths[i]!) : (c ?? '').padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log('');
}

type Combo = [Case['strategy'], Case['unit'], number, number];
const COMBOS: Combo[] = [
  ['recursive', 'chars', 1000, 100],
  ['recursive', 'words', 200, 20],
  ['recursive', 'cl100k_base', 512, 64],
  ['character', 'chars', 1000, 100],
  ['sentence', 'chars', 1000, 100],
  ['sentence', 'cl100k_base', 512, 64],
  ['paragraph', 'chars', 1000, 100],
  ['fixed', 'chars', 1000, 100],
  ['fixed', 'words', 200, 20],
  ['fixed', 'cl100k_base', 512, 64],
  ['token', 'cl100k_base', 512, 64],
  ['markdown', 'chars', 1000, 0],
  ['html', 'chars', 1000, 0],
];
/** --combos recursive/chars,token/cl100k_base: a subset of COMBOS. */
const combosFlag = flag('combos', '');
const combos = combosFlag ? COMBOS.filter(([s, u]) => combosFlag.split(',').includes(`${s}/${u}`)) : COMBOS;
const PATHOLOGICAL: InputName[] = ['nospace', 'emoji', 'blank-lines', 'one-word'];

if (only === 'all' || only === 'pathological') {
  console.log(
    `Pathological inputs (ms for one chunk() on a new document, the median of ${runs} runs each in its own process; x = ratio of the medians to english of the same size; sizes ${sizes.join(', ')} MiB)`,
  );
  const header = ['strategy / unit', ...sizes.flatMap((s) => [`english ${s}`, ...PATHOLOGICAL.map((p) => `${p} ${s}`)])];
  const rows: string[][] = [];
  for (const [strategy, unit, size, overlap] of combos) {
    const row = [`${strategy} / ${unit}`];
    for (const mib of sizes) {
      const base = runMedian({ input: 'english', mib, strategy, unit, size, overlap, side: 'chunkscope' }, runs);
      row.push(typeof base === 'string' ? base : fmtMs(base.ms));
      for (const input of PATHOLOGICAL) {
        const r = runMedian({ input, mib, strategy, unit, size, overlap, side: 'chunkscope' }, runs);
        row.push(typeof r === 'string' ? r : `${fmtMs(r.ms)} (${typeof base === 'string' ? '?' : (r.ms / base.ms).toFixed(1)}x)`);
      }
      console.error(`  done ${strategy}/${unit} at ${mib} MiB`);
    }
    rows.push(row);
  }
  printTable(header, rows);
}

if (only === 'all' || only === 'scale') {
  console.log(`Scale (english; time ms / peak MiB over the process before the run; <= : the run did not raise the process's peak)`);
  const cases: [string, Omit<Case, 'mib'>][] = [
    ['Chunkscope recursive chars 1000/100', { input: 'english', strategy: 'recursive', unit: 'chars', size: 1000, overlap: 100, side: 'chunkscope' }],
    ['LangChain recursive chars 1000/100', { input: 'english', strategy: 'recursive', unit: 'chars', size: 1000, overlap: 100, side: 'langchain' }],
    ['Chonkie recursive chars 1000', { input: 'english', strategy: 'recursive', unit: 'chars', size: 1000, overlap: 0, side: 'chonkie' }],
    ['Chunkscope recursive cl100k 512/64', { input: 'english', strategy: 'recursive', unit: 'cl100k_base', size: 512, overlap: 64, side: 'chunkscope' }],
    ['LangChain recursive cl100k 512/64', { input: 'english', strategy: 'recursive', unit: 'cl100k_base', size: 512, overlap: 64, side: 'langchain' }],
    ['Chunkscope token cl100k 512/64', { input: 'english', strategy: 'token', unit: 'cl100k_base', size: 512, overlap: 64, side: 'chunkscope' }],
    ['LangChain TokenTextSplitter 512/64', { input: 'english', strategy: 'token', unit: 'cl100k_base', size: 512, overlap: 64, side: 'langchain' }],
    ['Chunkscope sentence chars 1000/100', { input: 'english', strategy: 'sentence', unit: 'chars', size: 1000, overlap: 100, side: 'chunkscope' }],
    ['Chonkie SentenceChunker chars 1000/100', { input: 'english', strategy: 'sentence', unit: 'chars', size: 1000, overlap: 100, side: 'chonkie' }],
    ['Chunkscope markdown chars 1000', { input: 'markdown', strategy: 'markdown', unit: 'chars', size: 1000, overlap: 0, side: 'chunkscope' }],
    ['Chunkscope semantic (built-in model)', { input: 'english', strategy: 'semantic', unit: 'chars', size: 1000, overlap: 0, side: 'chunkscope' }],
    ['Chunkscope recursive words 200/20', { input: 'english', strategy: 'recursive', unit: 'words', size: 200, overlap: 20, side: 'chunkscope' }],
  ];
  const header = ['case', ...sizes.map((s) => `${s} MiB`)];
  const rows: string[][] = [];
  for (const [name, c] of cases) {
    const row = [name];
    for (const mib of sizes) {
      const r = runCase({ ...c, mib });
      row.push(typeof r === 'string' ? r : `${fmtMs(r.ms)} ms / ${fmtMiB(r)} MiB`);
    }
    console.error(`  done ${name}`);
    rows.push(row);
  }
  printTable(header, rows);
}
