/**
 * Browser benchmark (`npm run bench [file]`, or `npx tsx bench/browser.bench.ts [file]`): the built app in a
 * real headless Chromium on this machine.
 *
 * - Slider latency: from a size-slider key press (a real input event) to that job's boundaries painted, as the
 *   app itself measures it (performance.measure 'chunkscope:paint'), p50/p95 on a 200 KB and a 1 MiB slice of
 *   the corpus. Targets: p95 <= 50 ms at 200 KB, <= 250 ms at 1 MiB.
 * - Main-thread long tasks (> 50 ms, PerformanceObserver 'longtask') while re-chunking. Target: none.
 * - A 10 MiB paste (the corpus repeated): time to painted, and whether the page stays responsive meanwhile
 *   (clicks handled, animation-frame gaps); long tasks are counted until the stats panel's per-language rows are
 *   drawn (they follow the worker's token counts, after the paint). The paste is shown in the read-only view (over
 *   4 Mi characters). Then scrolling that view, select-all in it (how a person replaces a document), scrolling the
 *   chunk list, "Edit in the editor" (Monaco takes the document in pieces: information), and in the editor
 *   select-all, the selection collapsed, and a selection to the start: long tasks of each. Target: none.
 * - Opening a 1 MiB markdown file (the corpus with headings, through the page's file input, strategy markdown):
 *   time to the first chunks painted, cold (a document the engine has not seen), three times, each on a reloaded
 *   page once its restored document is painted. Target <= 1 s in every run.
 *
 * Not a timed test: it prints figures and exits non-zero only when it cannot run.
 *
 * Arguments: `[file]` (the corpus), `--only=paste` (only the 10 MiB paste and the steps after it), `--only=slider`
 * (only the size-slider rows, printing the scripts of each frame over 50 ms during them), `--paste-runs=N`
 * (how many times the paste runs, each later run on a page of its own with the earlier pages closed; default 3), `--dist=<folder>`
 * (the built app to serve, default dist/app: a folder of its own keeps a run from emptying dist/app under a test run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/ensure-chromium.mjs';
import { freePort, startPreview, stopPreview } from './preview';
import { makeDocument } from '../e2e/documents';
import '../e2e/hook';
import { chunk } from '../src/core/index';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MOVES = 32;
/** How many times the 1 MiB markdown file is opened (each on a page of its own at rest). */
const MARKDOWN_OPENS = 3;
const KIB = 1024;

interface PaintMeasure {
  start: number;
  end: number;
  duration: number;
  jobId: number | null;
  chunks: number | null;
}

interface SliderRow {
  label: string;
  chars: number;
  chunks: number;
  firstPaintMs: number;
  p50: number;
  p95: number;
  /** p95 of (paint end - keydown timeStamp) by the bench's own listener: checks the app's measure start. */
  p95FromKey: number;
  max: number;
  painted: number;
  targetP95: number | null;
  longTasks: number;
  longestTaskMs: number;
}

/** A long animation frame (Chromium's Long Animation Frames API): when, how long, and the scripts that ran in it. */
interface LongFrame {
  start: number;
  duration: number;
  scripts: { what: string; ms: number }[];
}

declare global {
  interface Window {
    __bench?: { longTasks: { start: number; duration: number }[]; frames: LongFrame[]; keydowns: number[]; inputs: number[] };
  }
}

const args = process.argv.slice(2);
const onlyPaste = args.includes('--only=paste');
/** `--only=slider`: only the size-slider rows, with the scripts of any long frame during them. */
const onlySlider = args.includes('--only=slider');
const distArg = args.find((a) => a.startsWith('--dist='))?.slice('--dist='.length);
// The paste's long tasks vary from run to run on two cores (the main thread shares them with the chunk worker and
// V8's collector threads): the paste is repeated, each time on a page of its own, and every run is printed.
const pasteRuns = Math.max(1, Number(args.find((a) => a.startsWith('--paste-runs='))?.slice('--paste-runs='.length) ?? 3) || 1);

function loadCorpus(): { text: string; source: string } {
  const given = args.find((a) => !a.startsWith('--'));
  const path = given ? resolve(given) : resolve(root, '..', 'shared', 'corpus', 'english-1mib.txt');
  if (existsSync(path)) return { text: readFileSync(path, 'utf8'), source: path };
  if (given) throw new Error(`cannot read ${given}`);
  // A fresh clone without ../shared still benchmarks, on generated prose of the same size.
  return { text: makeDocument(MiB(1), 42), source: 'generated prose (../shared/corpus/english-1mib.txt not found)' };
}

function MiB(n: number): number {
  return n * 1024 * 1024;
}

/** `length` characters of `text`, repeating it when it is shorter. */
function sliceOf(text: string, length: number): string {
  let out = text;
  while (out.length < length) out += '\n' + text;
  return out.slice(0, length);
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function paintMeasures(page: Page): Promise<PaintMeasure[]> {
  return page.evaluate(() =>
    performance.getEntriesByName('chunkscope:paint').map((entry) => {
      const detail = (entry as PerformanceMeasure).detail as { jobId?: number; chunks?: number } | null;
      return {
        start: entry.startTime,
        end: entry.startTime + entry.duration,
        duration: entry.duration,
        jobId: detail?.jobId ?? null,
        chunks: detail?.chunks ?? null,
      };
    }),
  );
}

/** Waits until a paint measure newer than `count` exists and returns it (null after `timeoutMs`). */
async function nextPaint(page: Page, count: number, timeoutMs: number): Promise<PaintMeasure | null> {
  try {
    await page.waitForFunction((n) => performance.getEntriesByName('chunkscope:paint').length > n, count, {
      polling: 10,
      timeout: timeoutMs,
    });
  } catch {
    return null;
  }
  const all = await paintMeasures(page);
  return all[all.length - 1] ?? null;
}

/** Waits until no new paint has arrived for `quietMs` (the app has settled). */
async function settle(page: Page, quietMs = 400, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let count = (await paintMeasures(page)).length;
  while (Date.now() < deadline) {
    await page.waitForTimeout(quietMs);
    const now = (await paintMeasures(page)).length;
    if (now === count) return;
    count = now;
  }
}

/** The corpus as a markdown document: a `#` part every 64 paragraphs, a `##` section every 8, `###` every 2. */
function asMarkdown(text: string): string {
  const paragraphs = text.split(/\n\s*\n/);
  const out: string[] = [];
  paragraphs.forEach((p, i) => {
    if (i % 64 === 0) out.push(`# Part ${i / 64 + 1}`);
    else if (i % 8 === 0) out.push(`## Section ${i / 8 + 1}`);
    else if (i % 2 === 0) out.push(`### Passage ${i / 2 + 1}`);
    out.push(p.trim());
  });
  return out.join('\n\n');
}

/**
 * A markdown file opened the way a person opens one (the page's file input; the File is built in the page so the
 * protocol's transfer is not timed): from the change event to the first chunks painted, as the app measures its
 * paint, counting only a job requested after the change (the engine has not seen the document before).
 */
async function openMarkdownRun(page: Page, text: string): Promise<{ chars: number; chunks: number | null; paintedMs: number | null; longTasks: number; longestTaskMs: number }> {
  const before = (await paintMeasures(page)).length;
  const start = await page.evaluate((content) => {
    window.__bench!.longTasks.length = 0;
    // The document panel's own input, behind its "Open file…" button.
    const input = document.querySelector<HTMLInputElement>('[data-testid="open-files"]');
    if (!input) throw new Error('no file input [data-testid="open-files"]');
    const files = new DataTransfer();
    files.items.add(new File([content], 'corpus-1mib.md', { type: 'text/markdown' }));
    input.files = files.files;
    const at = performance.now();
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return at;
  }, text);
  let painted: PaintMeasure | null = null;
  const deadline = Date.now() + 60_000;
  while (!painted && Date.now() < deadline) {
    await page.waitForTimeout(20);
    // A job requested after the file was chosen (the stored document's first paint may still land meanwhile).
    painted = (await paintMeasures(page)).slice(before).find((m) => m.start >= start && (m.chunks ?? 0) > 1) ?? null;
  }
  const tasks = await page.evaluate((from) => window.__bench!.longTasks.filter((t) => t.start >= from), start);
  return {
    chars: text.length,
    chunks: painted?.chunks ?? null,
    paintedMs: painted ? painted.end - start : null,
    longTasks: tasks.length,
    longestTaskMs: Math.max(0, ...tasks.map((t) => t.duration)),
  };
}

async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__chunkscope?.setDocument === 'function', null, { timeout: 60_000 });
  await page.locator('[data-testid="editor"] .monaco-editor').waitFor({ timeout: 60_000 });
}

async function sliderRun(page: Page, label: string, text: string, targetP95: number | null): Promise<SliderRow> {
  // Load the document through the test hook and wait for its first paint.
  const before = (await paintMeasures(page)).length;
  const loadStart = await page.evaluate((t) => {
    const start = performance.now();
    window.__chunkscope!.setDocument(t);
    return start;
  }, text);
  const first = await nextPaint(page, before, 120_000);
  if (!first) throw new Error(`${label}: the document was never painted`);
  await settle(page);
  const firstPaintMs = (await paintMeasures(page)).at(-1)!.end - loadStart;

  // Move the size slider with the keyboard, one step at a time, each step painted before the next.
  const slider = page.getByRole('slider', { name: 'Chunk size', exact: true });
  await slider.focus();
  await page.evaluate(() => {
    window.__bench!.longTasks.length = 0;
    window.__bench!.frames.length = 0;
  });
  const durations: number[] = [];
  const fromKey: number[] = [];
  let chunks = first.chunks ?? 0;
  for (let move = 0; move < MOVES; move++) {
    const count = (await paintMeasures(page)).length;
    await page.keyboard.press('ArrowRight');
    const paint = await nextPaint(page, count, 10_000);
    if (paint) {
      durations.push(paint.duration);
      const keyAt = await page.evaluate(() => window.__bench!.keydowns.at(-1) ?? NaN);
      fromKey.push(paint.end - keyAt);
      chunks = paint.chunks ?? chunks;
    }
    await page.waitForTimeout(30); // a person's key repeat is ~30/s
  }
  await settle(page, 300, 30_000);
  const longTasks = await page.evaluate(() => window.__bench!.longTasks);
  if (onlySlider) {
    for (const frame of await page.evaluate(() => window.__bench!.frames.filter((f) => f.duration > 50))) {
      console.log(`  ${label}: long frame ${fmt(frame.duration, 0)} ms: ${JSON.stringify(frame.scripts)}`);
    }
  }
  return {
    label,
    chars: text.length,
    chunks,
    firstPaintMs,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    p95FromKey: percentile(fromKey, 95),
    max: Math.max(...durations),
    painted: durations.length,
    targetP95,
    longTasks: longTasks.length,
    longestTaskMs: longTasks.reduce((m, t) => Math.max(m, t.duration), 0),
  };
}

interface DragResult {
  inputs: number;
  paints: number;
  finalSize: number;
  lastInputToPaintMs: number | null;
  /** The last painted job is the newest one: its chunk count is the engine's for the final slider value. */
  newestPainted: boolean;
  longTasks: number;
  longestTaskMs: number;
}

/** Drags the size slider with the mouse (a burst of input events, ~60 per second) over a loaded document. */
async function dragRun(page: Page, text: string, overlap: number): Promise<DragResult> {
  const before = (await paintMeasures(page)).length;
  await page.evaluate((t) => window.__chunkscope!.setDocument(t), text);
  if (!(await nextPaint(page, before, 120_000))) throw new Error('drag: the document was never painted');
  await settle(page);

  const slider = page.getByRole('slider', { name: 'Chunk size', exact: true });
  const box = await slider.boundingBox();
  if (!box) throw new Error('drag: the "Chunk size" slider is not visible');
  const y = box.y + box.height / 2;
  const from = box.x + box.width * 0.3;
  const to = box.x + box.width * 0.6;
  await page.evaluate(() => {
    window.__bench!.longTasks.length = 0;
    window.__bench!.inputs.length = 0;
  });
  const paintsBefore = (await paintMeasures(page)).length;
  await page.mouse.move(from, y);
  await page.mouse.down();
  for (let step = 1; step <= 40; step++) {
    await page.mouse.move(from + ((to - from) * step) / 40, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await settle(page, 500, 60_000);

  const paints = (await paintMeasures(page)).slice(paintsBefore);
  const inputs = await page.evaluate(() => window.__bench!.inputs);
  const longTasks = await page.evaluate(() => window.__bench!.longTasks);
  const finalSize = Number(await slider.inputValue());
  const expected = await chunk(text, { strategy: 'recursive', unit: 'chars', size: finalSize, overlap });
  const last = paints.at(-1);
  return {
    inputs: inputs.length,
    paints: paints.length,
    finalSize,
    lastInputToPaintMs: last && inputs.length ? last.end - inputs.at(-1)! : null,
    newestPainted: last?.chunks === expected.length,
    longTasks: longTasks.length,
    longestTaskMs: longTasks.reduce((m, t) => Math.max(m, t.duration), 0),
  };
}

interface PasteResult {
  chars: number;
  paintedMs: number | null;
  chunks: number | null;
  clicks: number[];
  longestFrameGapMs: number;
  longTasks: number;
  longestTaskMs: number;
  /** Paste to the stats panel's per-language rows drawn (after the worker's token counts), null if never. */
  languageRowsMs: number | null;
  /** Each long task as [ms after the paste started, duration ms], to tell the paste itself from painting. */
  taskTimeline: [number, number][];
  /** For each long task, the scripts of the long animation frame that holds it ("-" when none names one). */
  taskScripts: string[];
}

/** The editor's load pieces ('chunkscope:load-piece') since `from`: how many, their times, characters per ms over all. */
async function pieceStats(page: Page, from: number): Promise<{ count: number; p50: number; p90: number; max: number; charsPerMs: number }> {
  const pieceTimes = await page.evaluate(
    (since) =>
      performance
        .getEntriesByName('chunkscope:load-piece')
        .filter((entry) => entry.startTime >= since)
        .map((entry) => [entry.duration, ((entry as PerformanceMeasure).detail as { chars: number }).chars] as [number, number]),
    from,
  );
  const pieceMs = pieceTimes.map(([ms]) => ms);
  const pieceTotalMs = pieceMs.reduce((a, b) => a + b, 0);
  return {
    count: pieceTimes.length,
    p50: percentile(pieceMs, 50),
    p90: percentile(pieceMs, 90),
    max: Math.max(0, ...pieceMs),
    charsPerMs: pieceTotalMs > 0 ? pieceTimes.reduce((n, [, chars]) => n + chars, 0) / pieceTotalMs : NaN,
  };
}

/** "Edit in the editor" on the document shown read-only: click to chunks painted in Monaco, and its long tasks. */
async function editRun(page: Page): Promise<{ paintedMs: number | null; longTasks: number[]; pieces: Awaited<ReturnType<typeof pieceStats>> }> {
  await settle(page, 500);
  const before = (await paintMeasures(page)).length;
  await page.evaluate(() => (window.__bench!.longTasks.length = 0));
  const start = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Edit in the editor' }).click();
  const painted = await nextPaint(page, before, 120_000);
  await settle(page, 500);
  const longTasks = await page.evaluate((from) => window.__bench!.longTasks.filter((t) => t.start >= from).map((t) => t.duration), start);
  return { paintedMs: painted ? painted.end - start : null, longTasks, pieces: await pieceStats(page, start) };
}

/** A paste's long tasks as "+start: ms" (ms after the paste), or "-". */
function timelineText(r: PasteResult): string {
  return r.taskTimeline.map(([at, ms]) => `+${fmt(at, 0)}: ${fmt(ms, 0)}`).join(', ') || '-';
}

/** Pastes `text` into Monaco as a real paste event and watches responsiveness until it is painted. */
async function pasteRun(page: Page, text: string): Promise<PasteResult> {
  // A document the page restored on opening (a large one loads in pieces) is painted first: its paint is not the paste's.
  await settle(page, 500);
  await page.locator('[data-testid="editor"] .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  let before = (await paintMeasures(page)).length;
  await page.evaluate(() => {
    window.__bench!.longTasks.length = 0;
    window.__bench!.frames.length = 0;
    // Frame gaps: a frozen page shows no frames.
    const state = { last: performance.now(), longest: 0, running: true };
    (window as unknown as { __frames: typeof state }).__frames = state;
    const tick = (now: number) => {
      state.longest = Math.max(state.longest, now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // The clipboard payload is built in the page (sending 10 MiB over the protocol would measure the protocol).
  const pasteStart = await page.evaluate(
    ({ unit, length }) => {
      let content = unit;
      while (content.length < length) content += '\n' + unit;
      content = content.slice(0, length);
      const data = new DataTransfer();
      data.setData('text/plain', content);
      const target = document.activeElement!;
      const start = performance.now();
      setTimeout(() => target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })));
      return start;
    },
    { unit: text.slice(0, MiB(1)), length: text.length },
  );

  // While it is chunked and painted, click a harmless element every 250 ms: how long each click takes to
  // be handled by the page is what a person feels.
  const clicks: number[] = [];
  const countLabel = page.getByTestId('chunk-count');
  let painted: PaintMeasure | null = null;
  const deadline = Date.now() + 180_000;
  while (!painted && Date.now() < deadline) {
    const t0 = performance.now();
    await countLabel.click({ timeout: 60_000, force: true }).catch(() => undefined);
    clicks.push(performance.now() - t0);
    painted = await nextPaint(page, before, 250);
    // Only a paint that ends after the paste is the paste's: wait for the next one.
    if (painted && painted.end <= pasteStart) {
      before = (await paintMeasures(page)).length;
      painted = null;
    }
  }
  await settle(page, 500, 120_000);
  const last = (await paintMeasures(page)).at(-1) ?? null;
  // The stats rows come after the paint (the token counts follow it): the window ends when they are drawn and one
  // more frame passed, so a long task computing them is counted.
  const languageRowsAt = await page
    .waitForFunction(
      () => {
        // The rows of the pasted document, not the previous one's: its chunks (each row's title starts with its
        // count) are most of the painted chunks.
        const leadingNumber = (s: string | null | undefined) => Number(s?.replace(/[,\s]/g, '').match(/^\d+/)?.[0] ?? 0);
        const rows = [...document.querySelectorAll('[data-testid="language-stats"] tbody tr')];
        const inRows = rows.reduce((n, row) => n + leadingNumber(row.getAttribute('title')), 0);
        return inRows > 0 && inRows >= 0.5 * leadingNumber(document.querySelector('[data-testid="chunk-count"]')?.textContent);
      },
      null,
      { polling: 10, timeout: 120_000 },
    )
    .then(() => page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))))))
    .catch(() => null);
  // Long task entries are delivered after the task: give the observer a moment.
  await page.waitForTimeout(100);
  const frames = await page.evaluate(() => {
    const state = (window as unknown as { __frames: { longest: number; running: boolean } }).__frames;
    state.running = false;
    return state.longest;
  });
  // From the paste on: the task that built the clipboard payload (the bench's own) came before it.
  const longTasks = await page.evaluate((from) => window.__bench!.longTasks.filter((t) => t.start >= from), pasteStart);
  const longFrames = await page.evaluate(() => window.__bench!.frames);
  const taskScripts = longTasks.map((t) => {
    const frame = longFrames.find((f) => f.start <= t.start + 1 && t.start < f.start + f.duration);
    return frame?.scripts.map((x) => `${x.what} ${fmt(x.ms, 0)} ms`).join(' + ') || '-';
  });
  const length = await page.evaluate(() => window.__chunkscope!.getDocument().length);
  if (length !== text.length) console.warn(`warning: the editor holds ${length} characters after pasting ${text.length}`);
  return {
    chars: length,
    paintedMs: painted && last ? last.end - pasteStart : null,
    chunks: last?.chunks ?? null,
    clicks,
    longestFrameGapMs: frames,
    longTasks: longTasks.length,
    longestTaskMs: longTasks.reduce((m, t) => Math.max(m, t.duration), 0),
    languageRowsMs: languageRowsAt === null ? null : languageRowsAt - pasteStart,
    taskTimeline: longTasks.map((t) => [t.start - pasteStart, t.duration]),
    taskScripts,
  };
}

interface ScrollResult {
  chunks: number;
  wheelEvents: number;
  /** Distinct rows (or, in the view, chunk labels) seen during the scroll: it really moved through the chunks. */
  rowsSeen: number;
  longestFrameGapMs: number;
  longTasks: number;
}

/**
 * Select-all over the pasted document (how a person replaces a document: select all, then paste or type): in the
 * read-only view, or in the editor with the selection then collapsed and extended back to the start. The
 * main-thread tasks over 50 ms of each step.
 */
async function selectAllRun(page: Page, where: 'view' | 'editor'): Promise<{ step: string; longTasks: number[] }[]> {
  await page.locator(where === 'view' ? '[data-testid="large-view"] .lv-scroller' : '[data-testid="editor"] .view-lines').click();
  await settle(page, 500);
  const steps: { step: string; longTasks: number[] }[] = [];
  const editorKeys = [['select all (Ctrl+A)', 'ControlOrMeta+A'], ['collapse it (→)', 'ArrowRight'], ['select to the start (Shift+Ctrl+Home)', 'Shift+ControlOrMeta+Home']] as const;
  // The view has no caret to move: select-all only.
  for (const [step, key] of where === 'view' ? editorKeys.slice(0, 1) : editorKeys) {
    await page.evaluate(() => (window.__bench!.longTasks.length = 0));
    await page.keyboard.press(key);
    await settle(page, 300);
    steps.push({ step, longTasks: await page.evaluate(() => window.__bench!.longTasks.map((t) => Math.round(t.duration))) });
  }
  await page.keyboard.press('ArrowLeft');
  return steps;
}

/** Wheels through the chunk list (virtualized) or the read-only view the way a person flicks through it, watching
 * frame gaps. */
async function scrollRun(page: Page, where: 'list' | 'view'): Promise<ScrollResult> {
  const target = where === 'list' ? page.getByRole('listbox', { name: 'Chunks', exact: true }) : page.getByTestId('large-view').locator('.lv-scroller');
  const box = await target.boundingBox();
  if (!box) throw new Error(`scroll: the ${where} is not visible`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate((counted) => {
    window.__bench!.longTasks.length = 0;
    const state = { last: performance.now(), longest: 0, running: true, rows: new Set<string>() };
    (window as unknown as { __scroll: typeof state }).__scroll = state;
    const tick = (now: number) => {
      state.longest = Math.max(state.longest, now - state.last);
      state.last = now;
      // Only what scrolls is counted: the list's rows, or the view's chunk numbers.
      if (counted === 'list') for (const row of document.querySelectorAll('[role="listbox"] [role="option"]')) state.rows.add(row.getAttribute('data-index') ?? '');
      else for (const label of document.querySelectorAll('.large-view .cs-chunk-label')) state.rows.add(label.textContent ?? '');
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, where);
  const wheelEvents = 60;
  for (let i = 0; i < wheelEvents; i++) {
    await page.mouse.wheel(0, 2_000);
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(300);
  const { longest, rows } = await page.evaluate(() => {
    const state = (window as unknown as { __scroll: { longest: number; running: boolean; rows: Set<string> } }).__scroll;
    state.running = false;
    return { longest: state.longest, rows: state.rows.size };
  });
  const longTasks = await page.evaluate(() => window.__bench!.longTasks.length);
  const chunks = Number(await page.getByTestId('chunk-count').textContent());
  return { chunks, wheelEvents, rowsSeen: rows, longestFrameGapMs: longest, longTasks };
}

function fmt(n: number | null, digits = 1): string {
  return n === null || Number.isNaN(n) ? '-' : n.toFixed(digits);
}

function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** The slider, drag and markdown-open sections (all but the paste). */
async function sliderDragAndOpen(page: Page, base: string, charsConfig: string, tokensConfig: string, corpus: string): Promise<void> {
  const rows: SliderRow[] = [];
  await openApp(page, base + charsConfig);
  rows.push(await sliderRun(page, '200 KB, recursive, chars', sliceOf(corpus, 200 * KIB), 50));
  rows.push(await sliderRun(page, '1 MiB, recursive, chars', sliceOf(corpus, MiB(1)), 250));
  await openApp(page, base + tokensConfig);
  rows.push(await sliderRun(page, '1 MiB, recursive, cl100k_base', sliceOf(corpus, MiB(1)), null));

  printTable(
    ['document', 'chars', 'chunks', 'load→paint ms', 'paints', 'p50 ms', 'p95 ms', 'max ms', 'p95 key→paint', 'p95 target', 'long tasks >50ms', 'longest ms'],
    rows.map((r) => [
      r.label,
      String(r.chars),
      String(r.chunks),
      fmt(r.firstPaintMs, 0),
      `${r.painted}/${MOVES}`,
      fmt(r.p50),
      fmt(r.p95),
      fmt(r.max),
      fmt(r.p95FromKey),
      r.targetP95 === null ? '(info)' : `<= ${r.targetP95} ${r.p95 <= r.targetP95 ? 'met' : 'MISSED'}`,
      `${r.longTasks} ${r.longTasks === 0 ? '(none: met)' : '(target none: MISSED)'}`,
      fmt(r.longestTaskMs, 0),
    ]),
  );
  if (onlySlider) return;

  await openApp(page, base + charsConfig);
  const drag = await dragRun(page, sliceOf(corpus, MiB(1)), 64);
  console.log('\nDragging the size slider with the mouse over 1 MiB (recursive, chars, overlap 64): 40 moves, 16 ms apart');
  printTable(
    ['measure', 'value'],
    [
      ['input events / paints', `${drag.inputs} / ${drag.paints}`],
      ['last input → painted ms', fmt(drag.lastInputToPaintMs, 0)],
      [`final size ${drag.finalSize}: newest job painted`, drag.newestPainted ? 'yes (engine agrees)' : 'NO (a stale result is on screen)'],
      ['main-thread long tasks >50ms', `${drag.longTasks} (longest ${fmt(drag.longestTaskMs, 0)} ms)`],
    ],
  );

  // Three opens, each on a reloaded page at rest (the restored document painted: a person opens a file on a page
  // that has settled) and each of a document the engine has not seen (a line of its own in front).
  const markdown = asMarkdown(sliceOf(corpus, MiB(1)));
  const opens: Awaited<ReturnType<typeof openMarkdownRun>>[] = [];
  for (let run = 1; run <= MARKDOWN_OPENS; run++) {
    await openApp(page, base + '?strategy=markdown&unit=chars&size=1000&overlap=0');
    await settle(page);
    opens.push(await openMarkdownRun(page, `Opened for run ${run} of the benchmark.\n\n${markdown}`));
  }
  const painted = opens.map((o) => o.paintedMs).filter((ms): ms is number => ms !== null);
  const allMet = painted.length === opens.length && painted.every((ms) => ms <= 1000);
  console.log(`\nOpening a 1 MiB markdown file (strategy markdown, chars 1000/0; cold: a document the engine has not seen), ${MARKDOWN_OPENS} runs`);
  printTable(
    ['run', 'characters', 'chunks painted', 'file chosen → first chunks painted ms', 'long tasks >50ms (longest ms)'],
    opens.map((o, i) => [
      String(i + 1),
      String(o.chars),
      o.chunks === null ? '-' : String(o.chunks),
      o.paintedMs === null ? 'NOT painted within 60 s' : fmt(o.paintedMs, 0),
      `${o.longTasks} (${fmt(o.longestTaskMs, 0)})`,
    ]),
  );
  console.log(
    `1 MiB markdown open, first chunks painted: median ${painted.length ? fmt(percentile(painted, 50), 0) : '-'} ms, slowest ${painted.length ? fmt(Math.max(...painted), 0) : '-'} ms (target <= 1000 in every run: ${allMet ? 'met' : 'MISSED'})`,
  );
}

/** A page in a context of its own (no stored document), with the bench's long-task observer and key clocks. */
async function benchPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // tsx (esbuild keepNames) wraps named functions inside page.evaluate callbacks in __name(); give the page one.
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  await context.addInitScript(() => {
    window.__bench = { longTasks: [], frames: [], keydowns: [], inputs: [] };
    // The bench's own clock for "key pressed", to check the app's measure starts at the input event.
    document.addEventListener('keydown', (event) => window.__bench!.keydowns.push(event.timeStamp), true);
    document.addEventListener('input', (event) => window.__bench!.inputs.push(event.timeStamp), true);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench!.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    // What ran in a long task: the scripts of the long animation frame around it (kind, bundle and character
    // position: the bundle is minified, so the position is what finds the code).
    type FrameEntry = PerformanceEntry & {
      scripts?: { invokerType: string; sourceURL: string; sourceCharPosition: number; duration: number }[];
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as FrameEntry[]) {
        const scripts = (entry.scripts ?? [])
          .filter((x) => x.duration >= 5)
          .map((x) => ({ what: `${x.invokerType} ${x.sourceURL.split('/').pop() || '(no file)'}:${x.sourceCharPosition}`, ms: x.duration }));
        window.__bench!.frames.push({ start: entry.startTime, duration: entry.duration, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
  return context.newPage();
}

async function main(): Promise<void> {
  const { text: corpus, source } = loadCorpus();
  const distDir = resolve(root, distArg ?? 'dist/app');
  if (!existsSync(resolve(distDir, 'index.html'))) {
    console.log(`${distDir} missing: building the app (vite build)…`);
    const build = spawnSync('npx', ['vite', 'build', ...(distArg ? ['--outDir', distDir, '--emptyOutDir'] : [])], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const executablePath = ensureChromium();
  const port = await freePort();
  const server = await startPreview(port, distArg ? distDir : undefined);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await benchPage(browser);
    const base = `http://127.0.0.1:${port}/`;
    const charsConfig = '?strategy=recursive&unit=chars&size=512&overlap=64';
    const tokensConfig = '?strategy=recursive&unit=cl100k_base&size=512&overlap=64';

    console.log(
      `Chunkscope browser benchmark: Chromium ${browser.version()} headless, ${cpus().length} CPU cores, ` +
        `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start`,
    );
    console.log(`corpus: ${source}`);
    console.log(`slider: ${MOVES} size-slider key presses per document, each painted before the next;`);
    console.log(`p50/p95/max are the app's 'chunkscope:paint' measures; "p95 key→paint" is the bench's own keydown clock\n`);

    if (!onlyPaste) await sliderDragAndOpen(page, base, charsConfig, tokensConfig, corpus);
    if (onlySlider) return;

    await openApp(page, base + charsConfig);
    const paste = await pasteRun(page, sliceOf(corpus, MiB(10)));
    console.log('\n10 MiB paste (recursive, chars, size 512, overlap 64)');
    printTable(
      ['measure', 'value'],
      [
        ['characters in the document', String(paste.chars)],
        ['chunks painted', paste.chunks === null ? '-' : String(paste.chunks)],
        ['paste → painted ms', fmt(paste.paintedMs, 0)],
        ['paste → stats language rows ms', fmt(paste.languageRowsMs, 0)],
        ['clicks while working', String(paste.clicks.length)],
        ['click handled p50 / max ms', `${fmt(percentile(paste.clicks, 50), 0)} / ${fmt(Math.max(...paste.clicks), 0)}`],
        ['longest gap between frames ms', fmt(paste.longestFrameGapMs, 0)],
        ['main-thread long tasks >50ms', `${paste.longTasks} (longest ${fmt(paste.longestTaskMs, 0)} ms)`],
        ['long tasks (+start ms: ms)', timelineText(paste)],
      ],
    );
    const responsive = paste.paintedMs !== null && Math.max(...paste.clicks) < 1000;
    console.log(
      paste.paintedMs === null
        ? '10 MiB: NOT painted within 180 s'
        : `10 MiB: rendered; ${responsive ? 'page stayed responsive (every click handled within 1 s)' : 'page was NOT responsive (a click waited 1 s or more)'}`,
    );

    const printSelecting = (where: string, steps: { step: string; longTasks: number[] }[]) => {
      console.log(`\nSelecting in the ${where} over the 10 MiB document (${paste.chars} characters)`);
      printTable(
        ['step', 'main-thread long tasks >50ms'],
        steps.map((r) => [r.step, r.longTasks.length === 0 ? '0' : `${r.longTasks.length} (${r.longTasks.join(', ')} ms)`]),
      );
    };
    const printScroll = (what: string, scroll: ScrollResult) => {
      console.log(`\nScrolling ${what} of the 10 MiB document (${scroll.chunks} chunks): ${scroll.wheelEvents} wheel events, 16 ms apart`);
      printTable(
        ['measure', 'value'],
        [
          ['chunks seen along the way', String(scroll.rowsSeen)],
          ['longest gap between frames ms', fmt(scroll.longestFrameGapMs, 0)],
          ['main-thread long tasks >50ms', String(scroll.longTasks)],
        ],
      );
    };
    printScroll('the read-only view', await scrollRun(page, 'view'));
    printSelecting('read-only view', await selectAllRun(page, 'view'));
    printScroll('the chunk list', await scrollRun(page, 'list'));

    // "Edit in the editor": the same document into Monaco, piece by piece (information: what the view spares).
    const edit = await editRun(page);
    console.log('\n"Edit in the editor" on the 10 MiB document (Monaco takes it in pieces; information)');
    printTable(
      ['measure', 'value'],
      [
        ['click → chunks painted in the editor ms', fmt(edit.paintedMs, 0)],
        ['main-thread long tasks >50ms', edit.longTasks.length === 0 ? '0' : `${edit.longTasks.length} (${edit.longTasks.map((t) => fmt(t, 0)).join(', ')} ms)`],
        ['editor load pieces', String(edit.pieces.count)],
        ['piece p50 / p90 / max ms', `${fmt(edit.pieces.p50)} / ${fmt(edit.pieces.p90)} / ${fmt(edit.pieces.max)}`],
        ['editor load characters per ms', fmt(edit.pieces.charsPerMs, 0)],
      ],
    );
    printSelecting('editor', await selectAllRun(page, 'editor'));

    const runs = [paste];
    // Each later run has the browser to itself: the first page (its 10 MiB document, its worker) is closed.
    if (pasteRuns > 1) await page.context().close();
    for (let run = 2; run <= pasteRuns; run++) {
      const fresh = await benchPage(browser);
      await openApp(fresh, base + charsConfig);
      runs.push(await pasteRun(fresh, sliceOf(corpus, MiB(10))));
      await fresh.context().close();
    }
    console.log(`\n10 MiB paste, ${runs.length} runs (the first is the one above; each later one on a page of its own over the sample, the earlier pages closed; load average ${loadavg()[0]!.toFixed(1)} now)`);
    printTable(
      ['run', 'painted ms', 'language rows ms', 'long tasks >50ms', 'long tasks (+start ms: ms)'],
      runs.map((r, i) => [String(i + 1), fmt(r.paintedMs, 0), fmt(r.languageRowsMs, 0), String(r.longTasks), timelineText(r)]),
    );
    // A frame may hold several tasks: its scripts say what ran around the long one, not only in it.
    runs.forEach((r, i) =>
      r.taskTimeline.forEach(([at, ms], k) => console.log(`  run ${i + 1}, task at +${fmt(at, 0)} ms (${fmt(ms, 0)} ms), its frame's scripts: ${r.taskScripts[k]}`)),
    );
    const clean = runs.filter((r) => r.paintedMs !== null && r.longTasks === 0).length;
    console.log(`10 MiB paste with no main-thread task over 50 ms (target: every run): ${clean} of ${runs.length} runs`);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}

main().catch((error) => {
  console.error(`browser benchmark could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
