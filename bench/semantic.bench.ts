/**
 * Semantic chunking benchmark (`npx tsx bench/semantic.bench.ts [file] [--node | --browser]`, also run by
 * `npm run bench`).
 *
 * Node, the built-in model on its direct path (src/embed/static: tokenizer rules + table lookup) beside the old ONNX
 * path (transformers.js + onnxruntime-node, `runtime: 'onnx'`), in the same run:
 *   - model load, and embedding throughput in distinct sentences/s (target >= 100,000/s) on each path;
 *   - chunk(1 MiB, strategy semantic) with the model loaded, on each path, then the direct run in its stages;
 *   - cold processes taken in turns: the built CLI with --strategy sentence and --strategy semantic, 9 rounds
 *     (target: semantic <= 1.5 x sentence on the same file, the median of each round's ratio), and the built library
 *     chunking semantically with the built-in model on either path, 3 rounds;
 *   - a threshold change on a cached analysis: splitSemantic + buildChunks (target <= 16 ms);
 *   - hub models: sentences/s through a pool of worker threads sized to the cores against one worker, on a
 *     hub-format folder made from the built-in model's files (ONNX path).
 * Chromium (headless, the built app under `vite preview`, the same flags as the e2e tests and bench/browser.bench.ts):
 *   - sentences embedded per second by the page's embedding worker (>= 100,000/s): buffer 0, model loaded, 1 MiB
 *     that nothing has embedded, the median of three fresh contexts; and the same timed end to end;
 *   - semantic chunking of 1 MiB cold (<= 1.5 s): a fresh browser context (nothing in IndexedDB), from choosing
 *     "semantic" over the loaded document to the painted result, model load included;
 *   - a threshold change warm (<= 16 ms for 10,000 sentences): core's re-split (splitSemantic + buildChunks) run in
 *     Chromium on 10,000 sentences and on the whole 1 MiB;
 *   - arrow keys on the app's threshold line to the painted result (<= 33 ms p95, two frames; the app's
 *     'chunkscope:paint' measure: re-split, transfer, editor paint), each key held as a person holds it; beside it,
 *     as information, the same keys with the keyup sent at once, and the key held down (auto-repeat).
 * A table per side with the ratio figure / target (<= 1 is met for times, >= 1 for rates). Not a timed test.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/ensure-chromium.mjs';
import { freePort, startPreview, stopPreview } from './preview';
import { makeDocument } from '../e2e/documents';
import { buildChunks, chunk, getUnit, validateOptions } from '../src/core/index';
import { analyseSemantic, prepareSemantic, splitSemantic } from '../src/core/semantic/index';
import { createEmbedder, defaultModelPath, type Embedder } from '../src/embed/index';
import { createEmbedderPool } from '../src/embed/pool/pool';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIB = 1024 * 1024;
const TARGET = { sentencesPerSecond: 100_000, coldMs: 1_500, thresholdMs: 16, keyToPaintedMs: 33, cliSemanticOverSentence: 1.5 };
const THRESHOLD_STEPS = 24;
/** Arrow keys on the app's threshold line: held and instant presses in turns, half each. */
const KEY_STEPS = 96;
/** Fresh contexts the page's embedding rate is measured in (its median is the figure). */
const WORKER_RATE_RUNS = 3;

interface Row {
  measure: string;
  value: number;
  /** 'x': a ratio (lower is better, like a time). */
  unit: 'ms' | '/s' | 'x';
  /** The target for this figure, or null (information only). */
  target: number | null;
  note?: string;
}

// `--node` / `--browser`: only that side; `--dist=<folder>`: the built app to serve (default dist/app; a folder of its
// own keeps a benchmark from emptying dist/ under someone else's test run); `--only=threshold`: in the browser, only the
// cold run and the threshold keys after it (no sentences/s run, no re-split rows). Any other argument: the corpus file.
const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const fileArg = args.find((a) => !a.startsWith('--'));
const onlyThreshold = args.includes('--only=threshold');
const distDir = resolve(root, args.find((a) => a.startsWith('--dist='))?.slice('--dist='.length) ?? 'dist/app');

function loadCorpus(): { text: string; source: string } {
  const given = fileArg;
  const path = given ? resolve(given) : resolve(root, '..', 'shared', 'corpus', 'english-1mib.txt');
  if (existsSync(path)) return { text: readFileSync(path, 'utf8').slice(0, MIB), source: path };
  if (given) throw new Error(`cannot read ${given}`);
  return { text: makeDocument(MIB, 42), source: 'generated prose (../shared/corpus/english-1mib.txt not found)' };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** "p50 … ms, max … ms" of a set of times, for a row's note. */
function spread(ms: number[]): string {
  return `p50 ${fmt(percentile(ms, 50))} ms, max ${fmt(Math.max(...ms))} ms`;
}

function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-';
}

function printTable(title: string, rows: Row[]): void {
  const lines = rows.map((r) => {
    const value = r.unit === 'x' ? `${fmt(r.value, 2)} x` : `${fmt(r.value, r.unit === '/s' ? 0 : 1)} ${r.unit}`;
    if (r.target === null) return [r.measure, value, '(info)', '', r.note ?? ''];
    const ratio = r.value / r.target;
    const met = r.unit === '/s' ? ratio >= 1 : ratio <= 1;
    const target = r.unit === '/s' ? `>= ${fmt(r.target, 0)} /s` : r.unit === 'x' ? `<= ${fmt(r.target, 2)} x` : `<= ${fmt(r.target, 0)} ms`;
    return [r.measure, value, target, `${fmt(ratio, 2)} ${Number.isFinite(ratio) ? (met ? 'met' : 'MISSED') : 'not measured'}`, r.note ?? ''];
  });
  const headers = ['measure', 'value', 'target', 'ratio', 'note'];
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  console.log(`\n${title}`);
  console.log(row(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(row(l));
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

// --- Node ---------------------------------------------------------------------------------------------------------

/** Cold processes of the built CLI / library on `file`: median wall clock of `rounds` runs, taken in turns. */
function coldProcesses(file: string, rounds: number): Row[] {
  const cli = join(root, 'bin', 'chunkscope.js');
  if (!existsSync(join(root, 'dist', 'lib', 'cli.js'))) {
    const built = spawnSync('node', ['scripts/build-lib.mjs'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('scripts/build-lib.mjs failed');
  }
  // The library in a cold process, with the built-in model on either path: the old (ONNX) path beside the new one.
  const library = (runtime: 'direct' | 'onnx') => [
    '--input-type=module',
    '-e',
    `import { readFileSync } from 'node:fs';
     const { chunk } = await import(${JSON.stringify(join(root, 'dist', 'lib', 'index.js'))});
     const { createEmbedder } = await import(${JSON.stringify(join(root, 'dist', 'lib', 'embed.js'))});
     const e = await createEmbedder({ runtime: '${runtime}' });
     const chunks = await chunk(readFileSync(${JSON.stringify(file)}, 'utf8'), { strategy: 'semantic' }, { embed: (t) => e.embed(t) });
     process.stdout.write(JSON.stringify(chunks));`,
  ];
  // The CLI pair runs `rounds` times (it is the target's ratio, and each run takes well under a second); the library
  // rows, the ONNX one about 1.6 s a run, three times.
  const cases: [string, string[], number][] = [
    ['CLI chunk --strategy sentence', [cli, 'chunk', file, '--strategy', 'sentence'], rounds],
    ['CLI chunk --strategy semantic (direct path)', [cli, 'chunk', file, '--strategy', 'semantic'], rounds],
    ['library, semantic, built-in model on the direct path', library('direct'), 3],
    ['library, semantic, built-in model on ONNX (the old path)', library('onnx'), 3],
  ];
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    cases.forEach(([name, args, most], i) => {
      if (round >= most) return;
      const t = performance.now();
      const run = spawnSync('node', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * MIB });
      if (run.status !== 0) throw new Error(`${name}: exit ${run.status}: ${run.stderr.toString().split('\n')[0]}`);
      times[i]!.push(performance.now() - t);
    });
  }
  const median = (i: number) => percentile(times[i]!, 50);
  const rows: Row[] = cases.map(([name], i) => ({
    measure: `cold process: ${name}`,
    value: median(i),
    unit: 'ms' as const,
    target: null,
    note: `median of ${times[i]!.length}, runs ${times[i]!.map((ms) => fmt(ms, 0)).join(', ')} ms`,
  }));
  // Each round's semantic run over the sentence run just before it, then the median: the machine's load drifts less
  // between two neighbouring runs than across the whole series.
  const pairRatios = times[1]!.map((ms, round) => ms / times[0]![round]!);
  const ratio = percentile(pairRatios, 50);
  rows.push({
    measure: 'CLI semantic / CLI sentence, cold, same file',
    value: ratio,
    unit: 'x',
    target: TARGET.cliSemanticOverSentence,
    note: `median of ${pairRatios.length} neighbouring pairs (${pairRatios.map((r) => r.toFixed(2)).join(', ')}); medians' ratio ${(median(1) / median(0)).toFixed(2)}`,
  });
  console.log(`::target semantic.cli-over-sentence ${ratio} x`);
  rows.push({ measure: 'library semantic cold: ONNX path / direct path', value: median(3) / median(2), unit: 'x', target: null, note: 'how much slower the old path is' });
  return rows;
}

/**
 * A hub model in Node: one worker thread against a pool sized to the cores (src/embed/pool), on a hub-format folder
 * made here from the built-in model's files under another name (so it runs on the ONNX path; no network to a hub).
 */
async function poolBench(corpus: string): Promise<Row[]> {
  const folder = mkdtempSync(join(tmpdir(), 'chunkscope-hub-'));
  cpSync(join(defaultModelPath(), 'chunkscope-static-en'), join(folder, 'tiny-hub'), { recursive: true });
  const sentences = [...new Set(prepareSemantic(corpus, { bufferSize: 0 }).inputs.texts)];
  const size = Math.max(2, availableParallelism());
  const rates: number[] = [];
  const rows: Row[] = [];
  try {
    for (const workers of [1, size]) {
      const pool = await createEmbedderPool({ model: 'tiny-hub', localModelPath: `${folder}/`, workers });
      await pool.embed(sentences.slice(0, 200)); // warm-up
      const t = performance.now();
      await pool.embed(sentences);
      const perSecond = sentences.length / ((performance.now() - t) / 1000);
      rates.push(perSecond);
      rows.push({ measure: `hub-format model, ${sentences.length.toLocaleString('en-US')} sentences, pool of ${workers}`, value: perSecond, unit: '/s', target: null });
      await pool.dispose();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  rows.push({ measure: `hub-format model: pool of ${size} / one worker`, value: rates[1]! / rates[0]!, unit: 'x', target: null, note: `speedup (higher is better) on ${cpus().length} cores` });
  return rows;
}

async function nodeBench(corpus: string, corpusFile: string): Promise<Row[]> {
  const rows: Row[] = [];
  const loads: Record<'direct' | 'onnx', Embedder> = {} as never;
  for (const runtime of ['direct', 'onnx'] as const) {
    const t = performance.now();
    loads[runtime] = await createEmbedder({ model: 'builtin', runtime });
    rows.push({ measure: `model load (built-in, ${runtime === 'direct' ? 'direct path' : 'ONNX path'})`, value: performance.now() - t, unit: 'ms', target: null });
  }
  const embedder = loads.direct;

  // Sentences as the native mode finds them (no neighbours joined): what "sentences/s" counts.
  // Distinct sentences: the embedder embeds each distinct text once, and this corpus repeats many lines.
  const sentences = [...new Set(prepareSemantic(corpus, { bufferSize: 0 }).inputs.texts)];
  const rates: Record<string, number> = {};
  for (const runtime of ['direct', 'onnx'] as const) {
    await loads[runtime].embed(sentences.slice(0, 500)); // warm-up (first session run, JIT)
    const t = performance.now();
    const cpu = process.cpuUsage();
    await loads[runtime].embed(sentences);
    const seconds = (performance.now() - t) / 1000;
    rates[runtime] = sentences.length / seconds;
    rows.push({
      measure: `embed ${sentences.length.toLocaleString('en-US')} distinct sentences, ${runtime === 'direct' ? 'direct path' : 'ONNX path (old)'}`,
      value: sentences.length / seconds,
      unit: '/s',
      target: runtime === 'direct' ? TARGET.sentencesPerSecond : null,
      note: `${fmt(sentences.length / cpuSeconds(cpu), 0)} per CPU second`,
    });
  }
  rows.push({ measure: 'embedding rate: direct / ONNX', value: rates.direct! / rates.onnx!, unit: 'x', target: null, note: 'times faster' });

  for (const runtime of ['onnx', 'direct'] as const) {
    const t = performance.now();
    const chunks = await chunk(corpus, { strategy: 'semantic' }, { embed: (texts) => loads[runtime].embed(texts) });
    rows.push({
      measure: `1 MiB chunk(strategy semantic), model loaded, ${runtime === 'direct' ? 'direct path' : 'ONNX path (old)'}`,
      value: performance.now() - t,
      unit: 'ms',
      target: null,
      note: `${chunks.length} chunks`,
    });
  }
  await loads.onnx.dispose();
  rows.push(...coldProcesses(corpusFile, 9));


  // The direct path's run in its stages, to see where the time goes.
  let t = performance.now();
  const resolved = validateOptions({ strategy: 'semantic' });
  const unit = await getUnit(resolved.unit);
  t = performance.now();
  const prep = prepareSemantic(corpus, { bufferSize: resolved.buffer ?? 1, compat: 'none' });
  const prepareMs = performance.now() - t;
  t = performance.now();
  const embedCpu = process.cpuUsage();
  const windowVectors = await embedder.embed(prep.inputs.texts);
  const embedMs = performance.now() - t;
  const embedCpuSeconds = cpuSeconds(embedCpu);
  t = performance.now();
  const analysis = analyseSemantic(prep, windowVectors);
  const analyseMs = performance.now() - t;
  rows.push({ measure: '  of which: sentences (prepareSemantic)', value: prepareMs, unit: 'ms', target: null, note: `${prep.sentences.length} sentences` });
  rows.push({ measure: '  of which: embedding the windows', value: embedMs, unit: 'ms', target: null, note: `${prep.inputs.texts.length} windows (buffer 1); ${fmt(prep.inputs.texts.length / embedCpuSeconds, 0)} per CPU second` });
  rows.push({ measure: '  of which: distances (analyseSemantic)', value: analyseMs, unit: 'ms', target: null });

  // Threshold changes on a cached analysis, as the worker does on a drag: split, then build the chunk objects. First
  // the job that showed the chunks (the default threshold, not timed): a drag comes after it, as in the page.
  buildChunks(corpus, splitSemantic(analysis, { breakpoint: 'percentile', unit }).spans, resolved, unit);
  const finite = Array.from(analysis.distances).filter(Number.isFinite).sort((a, b) => a - b);
  const splitTimes: number[] = [];
  const buildTimes: number[] = [];
  for (let step = 0; step < THRESHOLD_STEPS; step++) {
    const threshold = finite[Math.floor(((step + 0.5) / THRESHOLD_STEPS) * (finite.length - 1))]!;
    const start = performance.now();
    const result = splitSemantic(analysis, { breakpoint: 'percentile', threshold, unit });
    const split = performance.now();
    buildChunks(corpus, result.spans, resolved, unit);
    buildTimes.push(performance.now() - split);
    splitTimes.push(split - start);
  }
  const total = splitTimes.map((ms, i) => ms + buildTimes[i]!);
  rows.push({
    measure: `threshold change, ${prep.sentences.length.toLocaleString('en-US')} sentences (p95 of ${THRESHOLD_STEPS})`,
    value: percentile(total, 95),
    unit: 'ms',
    target: TARGET.thresholdMs,
    note: `p50 ${fmt(percentile(total, 50), 2)} ms = split p50 ${fmt(percentile(splitTimes, 50), 2)} + buildChunks p50 ${fmt(percentile(buildTimes, 50), 2)}`,
  });
  await embedder.dispose();
  return rows;
}

// --- browser ------------------------------------------------------------------------------------------------------

interface PaintMeasure {
  end: number;
  duration: number;
  jobId: number | null;
  chunks: number | null;
}

async function paintMeasures(page: Page): Promise<PaintMeasure[]> {
  return page.evaluate(() =>
    performance.getEntriesByName('chunkscope:paint').map((entry) => {
      const detail = (entry as PerformanceMeasure).detail as { jobId?: number; chunks?: number } | null;
      return { end: entry.startTime + entry.duration, duration: entry.duration, jobId: detail?.jobId ?? null, chunks: detail?.chunks ?? null };
    }),
  );
}

/** The page's semantic result through the test hook (null until a semantic result is on the page). */
interface SemanticState {
  distances: number[];
  threshold: number;
  breakpoints: number[];
  /** The worker's own timings of the painted result (absent on pages without them). */
  embedMs?: number;
  splitMs?: number;
  sentencesEmbedded?: number;
}

function semanticState(page: Page): Promise<SemanticState | null> {
  return page.evaluate(() => {
    const hook = window.__chunkscope as unknown as { semantic?: () => SemanticState | null };
    return hook?.semantic?.() ?? null;
  });
}

async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__chunkscope?.setDocument === 'function', null, { timeout: 60_000 });
  await page.locator('[data-testid="editor"] .monaco-editor').waitFor({ timeout: 60_000 });
}

/** Waits for a painted semantic result with `distances` gaps for the document now in the page; returns its paint. */
async function waitForSemanticPaint(page: Page, paintsBefore: number, gaps: number, timeoutMs: number): Promise<PaintMeasure> {
  await page.waitForFunction(
    ([n, g]) => {
      const hook = window.__chunkscope as unknown as { semantic?: () => { distances: number[] } | null };
      return performance.getEntriesByName('chunkscope:paint').length > n && hook.semantic?.()?.distances.length === g;
    },
    [paintsBefore, gaps] as const,
    { polling: 20, timeout: timeoutMs },
  );
  return (await paintMeasures(page)).at(-1)!;
}

async function chooseSemantic(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Strategy', exact: true }).selectOption('semantic');
}

/**
 * The re-split figure ("a threshold change within 16 ms for 10,000 sentences") measured in Chromium itself:
 * core's splitSemantic + buildChunks, bundled with esbuild, run on a page with the distances Node computed with the
 * same model. This is the work the embedding worker does per threshold change, without the app around it.
 */
async function resplitInBrowser(browser: Browser, corpus: string, sentenceCounts: number[]): Promise<Row[]> {
  const bundle = await build({
    stdin: {
      contents: [
        "export { prepareSemantic, splitSemantic } from './src/core/semantic/index';",
        "export { ValueStats } from './src/core/semantic/breakpoints';",
        "export { npGradient } from './src/core/semantic/numpy';",
        "export { buildChunks, validateOptions } from './src/core/index';",
        "export { charsUnit } from './src/core/units/chars';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: '__core',
    platform: 'browser',
    write: false,
    external: ['js-tiktoken/ranks/*'], // token units are not used here
  });
  const embedder = await createEmbedder({ model: 'builtin' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const rows: Row[] = [];
  try {
    for (const count of sentenceCounts) {
      const all = prepareSemantic(corpus);
      const text = corpus.slice(0, all.sentences[Math.min(count, all.sentences.length) - 1]!.end);
      const prep = prepareSemantic(text);
      const distances = Array.from(analyseSemantic(prep, await embedder.embed(prep.inputs.texts)).distances);
      const times = await page.evaluate(
        ([text, distances, steps]) => {
          const core = (globalThis as unknown as { __core: Record<string, any> }).__core; // eslint-disable-line @typescript-eslint/no-explicit-any
          const prep = core.prepareSemantic(text);
          const d = Float64Array.from(distances, (x) => (x === null ? NaN : x));
          const gradient = core.npGradient(d);
          const analysis = { preparation: prep, distances: d, gradient, distanceStats: new core.ValueStats(d), gradientStats: new core.ValueStats(gradient) };
          analysis.distanceStats.prime();
          analysis.gradientStats.prime();
          const resolved = core.validateOptions({ strategy: 'semantic' });
          const finite = Array.from(d).filter(Number.isFinite).sort((a, b) => a - b);
          const out: { split: number; build: number }[] = [];
          for (let step = 0; step < steps; step++) {
            const threshold = finite[Math.floor(((step + 0.5) / steps) * (finite.length - 1))];
            const t0 = performance.now();
            const result = core.splitSemantic(analysis, { breakpoint: 'absolute', threshold, unit: core.charsUnit });
            const t1 = performance.now();
            core.buildChunks(text, result.spans, resolved, core.charsUnit);
            out.push({ split: t1 - t0, build: performance.now() - t1 });
          }
          return out;
        },
        [text, distances, THRESHOLD_STEPS] as const,
      );
      const total = times.map((t) => t.split + t.build);
      if (count === 10_000) console.log(`::target semantic.resplit-10k-p95 ${percentile(total, 95)} ms`);
      rows.push({
        measure: `re-split in Chromium, ${prep.sentences.length.toLocaleString('en-US')} sentences (p95 of ${THRESHOLD_STEPS})`,
        value: percentile(total, 95),
        unit: 'ms',
        target: TARGET.thresholdMs,
        note: `p50 ${fmt(percentile(total, 50), 2)} ms = splitSemantic ${fmt(percentile(times.map((t) => t.split), 50), 2)} + buildChunks ${fmt(percentile(times.map((t) => t.build), 50), 2)}`,
      });
    }
  } finally {
    await context.close();
    await embedder.dispose();
  }
  return rows;
}

/**
 * How long a person holds a key for one step (keydown to keyup): typed keys are held about 80-120 ms. Playwright's
 * plain `press` sends the keyup at once, which no person does, and earlier runs timed that press. Chromium defers
 * tasks after each discrete input event (keydown and keyup alike) until the next frame, the worker's reply included,
 * so a keyup that lands while the reply is on its way can cost it one more frame.
 */
const KEY_HOLD_MS = 80;
/** A held arrow key: a keydown repeated every 33 ms (about 30/s, the usual auto-repeat rate) for this many keys. */
const HELD_KEY_REPEATS = 30;

interface KeySteps {
  durations: number[];
  splits: number[];
  moved: number;
}

/**
 * Keyboard steps on the curve's threshold line, each painted before the next.
 * Presses alternate between a held key (KEY_HOLD_MS) and an instant keyup, so both meet the same moment of the page
 * (the first keys after a cold run find the worker's code not yet optimized and the page still settling).
 */
async function thresholdSteps(page: Page): Promise<{ pressed: KeySteps; instant: KeySteps }> {
  const slider = page.getByRole('slider', { name: 'Threshold', exact: true });
  const pressed: KeySteps = { durations: [], splits: [], moved: 0 };
  const instant: KeySteps = { durations: [], splits: [], moved: 0 };
  for (let step = 0; step < KEY_STEPS; step++) {
    const into = step % 2 === 0 ? pressed : instant;
    const count = (await paintMeasures(page)).length;
    const thresholdBefore = (await semanticState(page))?.threshold;
    await slider.focus(); // the line may have been redrawn since the last key (a new element, not focused)
    // Twelve keys down, twelve back up, four times: the thresholds near the default, as a person tunes it.
    await page.keyboard.press(step % 24 < 12 ? 'ArrowDown' : 'ArrowUp', { delay: into === pressed ? KEY_HOLD_MS : 0 });
    try {
      await page.waitForFunction((n) => performance.getEntriesByName('chunkscope:paint').length > n, count, { polling: 10, timeout: 10_000 });
      into.durations.push((await paintMeasures(page)).at(-1)!.duration);
      const after = await semanticState(page);
      if (after?.threshold !== thresholdBefore) into.moved++;
      if (after?.splitMs !== undefined) into.splits.push(after.splitMs);
    } catch {
      // no repaint for this key: nothing to time
    }
    await page.waitForTimeout(30);
  }
  return { pressed, instant };
}

/**
 * The arrow key held down: keydowns every 33 ms (repeat set, as the keyboard's auto-repeat sends them), one keyup at
 * the end. Each painted result's measure runs from its own key; a key whose job a newer key replaced paints nothing.
 */
async function autoRepeat(page: Page): Promise<{ durations: number[]; keys: number }> {
  const slider = page.getByRole('slider', { name: 'Threshold', exact: true });
  await slider.focus();
  const before = (await paintMeasures(page)).length;
  for (let key = 0; key < HELD_KEY_REPEATS; key++) {
    await page.keyboard.down('ArrowUp');
    await page.waitForTimeout(33);
  }
  await page.keyboard.up('ArrowUp');
  await page.waitForTimeout(300);
  return { durations: (await paintMeasures(page)).slice(before).map((m) => m.duration), keys: HELD_KEY_REPEATS };
}

async function browserBench(browser: Browser, base: string, corpus: string): Promise<Row[]> {
  const rows: Row[] = [];
  const gaps = Math.max(0, prepareSemantic(corpus).sentences.length - 1);
  const fresh = async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript('globalThis.__name = (fn) => fn;'); // tsx's keepNames helper inside evaluate()
    return { context, page: await context.newPage() };
  };

  // 1. Cold: a fresh context (empty IndexedDB, no model), 1 MiB painted under another strategy, then "semantic"
  //    chosen: model load + embedding + analysis + paint. Then threshold steps on the same page (warm).
  {
    const { context, page } = await fresh();
    await openApp(page, `${base}?strategy=recursive&unit=chars&size=512&overlap=0`);
    const loaded = (await paintMeasures(page)).length;
    await page.evaluate((t) => window.__chunkscope!.setDocument(t), corpus);
    await page.waitForFunction((n) => performance.getEntriesByName('chunkscope:paint').length > n, loaded, { timeout: 120_000 });
    await page.waitForTimeout(500);
    const before = (await paintMeasures(page)).length;
    const start = await page.evaluate(() => performance.now());
    await chooseSemantic(page);
    const paint = await waitForSemanticPaint(page, before, gaps, 180_000);
    rows.push({
      measure: '1 MiB semantic, cold (model load + embedding)',
      value: paint.end - start,
      unit: 'ms',
      target: TARGET.coldMs,
      note: `${paint.chunks} chunks; choosing "semantic" to painted; buffer 1`,
    });
    console.log(`::target semantic.cold-page ${paint.end - start} ms`);
    await page.waitForTimeout(500);
    const { pressed, instant } = await thresholdSteps(page);
    const { durations, moved } = pressed;
    const splits = [...pressed.splits, ...instant.splits];
    console.log(`::target semantic.threshold-key-p95 ${percentile(durations, 95)} ms`);
    if (splits.length > 0) {
      rows.push({
        measure: `threshold change warm in the app's worker, 1 MiB (p95 of ${splits.length})`,
        value: percentile(splits, 95),
        unit: 'ms',
        target: TARGET.thresholdMs,
        note: `p50 ${fmt(percentile(splits, 50))} ms; the worker's re-split (splitSemantic + buildChunks) as it reports it`,
      });
    }
    rows.push({
      measure: `threshold key to painted, 1 MiB (p95 of ${durations.length} key presses)`,
      value: percentile(durations, 95),
      unit: 'ms',
      target: TARGET.keyToPaintedMs,
      note: `${spread(durations)}; keys held ${KEY_HOLD_MS} ms; the app's paint measure: re-split, transfer, editor paint; moved on ${moved} of ${durations.length} keys`,
    });
    rows.push({
      measure: `the same, keyup sent at once (p95 of ${instant.durations.length}, in turns with the above)`,
      value: percentile(instant.durations, 95),
      unit: 'ms',
      target: null,
      note: `${spread(instant.durations)}; how earlier runs pressed`,
    });
    const repeat = await autoRepeat(page);
    rows.push({
      measure: `arrow key held, auto-repeat 30/s: key to painted (p95 of ${repeat.durations.length} painted of ${repeat.keys} keys)`,
      value: percentile(repeat.durations, 95),
      unit: 'ms',
      target: null,
      note: `${spread(repeat.durations)}; a key whose job a newer key replaced paints nothing`,
    });
    await context.close();
  }

  if (onlyThreshold) return rows;

  // 2. Sentences per second in the worker: buffer 0 (each sentence embedded alone), the model loaded by a small
  //    document first, then 1 MiB that nothing has embedded yet, timed from setDocument to painted (so it also
  //    counts segmentation, analysis and paint: a lower bound for the embedding itself). Three runs, each in a fresh
  //    context (empty caches), and their medians: one run moves with the shared machine's load by a factor of two.
  const texts = prepareSemantic(corpus, { bufferSize: 0 }).inputs.texts;
  const sentences = texts.length;
  const distinct = new Set(texts).size; // the embedder embeds each distinct text once
  const runs: { embedMs: number; embedded: number; ms: number }[] = [];
  for (let run = 0; run < WORKER_RATE_RUNS; run++) {
    const { context, page } = await fresh();
    await openApp(page, `${base}?strategy=semantic&buffer=0`);
    const small = 'Rivers carry water to the sea. Mountains rise above the plain. Markets sell bread and cheese.';
    const smallBefore = (await paintMeasures(page)).length;
    await page.evaluate((t) => window.__chunkscope!.setDocument(t), small);
    await waitForSemanticPaint(page, smallBefore, prepareSemantic(small).sentences.length - 1, 120_000);
    await page.waitForTimeout(500);
    const before = (await paintMeasures(page)).length;
    const start = await page.evaluate((t) => {
      const at = performance.now();
      window.__chunkscope!.setDocument(t);
      return at;
    }, corpus);
    const paint = await waitForSemanticPaint(page, before, gaps, 180_000);
    const worker = await semanticState(page);
    await context.close();
    if (!worker?.embedMs || !worker.sentencesEmbedded) throw new Error('the page reported no embedding stage');
    runs.push({ embedMs: worker.embedMs, embedded: worker.sentencesEmbedded, ms: paint.end - start });
  }
  const workerRates = runs.map((r) => r.embedded / (r.embedMs / 1000));
  const workerRate = percentile(workerRates, 50);
  const embedMs = percentile(runs.map((r) => r.embedMs), 50);
  console.log(`::target semantic.worker-rate ${workerRate} /s`);
  rows.push({
    measure: `sentences embedded per second in the worker (${runs[0]!.embedded.toLocaleString('en-US')}, buffer 0)`,
    value: workerRate,
    unit: '/s',
    target: TARGET.sentencesPerSecond,
    note: `median of ${runs.length} fresh contexts (${workerRates.map((r) => fmt(r, 0)).join(', ')} /s); the worker's embedding stage: ${fmt(embedMs, 0)} ms; ${distinct.toLocaleString('en-US')} distinct texts: ${fmt(distinct / (embedMs / 1000), 0)} distinct/s`,
  });
  const ms = percentile(runs.map((r) => r.ms), 50);
  rows.push({
    measure: `sentences per second end to end (${sentences.toLocaleString('en-US')} sentences, buffer 0)`,
    value: sentences / (ms / 1000),
    unit: '/s',
    target: TARGET.sentencesPerSecond,
    note: `median of ${runs.length}: 1 MiB in ${fmt(ms, 0)} ms, setDocument to painted, model loaded, nothing cached; ${distinct.toLocaleString('en-US')} distinct: ${fmt(distinct / (ms / 1000), 0)} distinct/s`,
  });
  return rows;
}

async function main(): Promise<void> {
  const { text: corpus, source } = loadCorpus();
  console.log(
    `Chunkscope semantic benchmark: ${cpus().length} CPU cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start`,
  );
  console.log(`corpus: ${source} (${corpus.length.toLocaleString('en-US')} characters), built-in model, native mode, defaults`);

  if (!flags.has('--browser')) {
    // The CLI reads a file: the same 1 MiB the in-process rows use.
    const corpusFile = join(mkdtempSync(join(tmpdir(), 'chunkscope-semantic-')), 'corpus-1mib.txt');
    writeFileSync(corpusFile, corpus);
    printTable('Node (built-in model: the direct path beside the ONNX path, same run)', await nodeBench(corpus, corpusFile));
    printTable('Node, hub models: a pool of worker threads against one', await poolBench(corpus));
  }
  if (flags.has('--node')) return;

  if (!existsSync(join(distDir, 'index.html'))) {
    console.log(`\n${distDir} has no built app: building it (vite build)…`);
    const build = spawnSync('npx', ['vite', 'build', '--outDir', distDir, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const port = await freePort();
  const server = await startPreview(port, distDir);
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    console.log(`\nChromium ${browser.version()} headless; the app's embedding worker (built-in model: direct path)`);
    const rows = await browserBench(browser, `http://127.0.0.1:${port}/`, corpus);
    if (!onlyThreshold) rows.push(...(await resplitInBrowser(browser, corpus, [10_000, Infinity])));
    printTable('Browser (built app, vite preview; re-split rows: core bundled into a page)', rows);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}

main().catch((error) => {
  console.error(`semantic benchmark could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
