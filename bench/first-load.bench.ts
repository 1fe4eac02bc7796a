/**
 * First load of the page: what a person waits for when opening Chunkscope (a new browser context each time, so
 * nothing is cached), in two profiles measured side by side in one run:
 * - unthrottled: this machine as it is;
 * - workshop: a laptop on battery on conference Wi-Fi, Chromium's CPU throttling 4x (Emulation.setCPUThrottlingRate)
 *   and DevTools' "Slow 4G" (Network.emulateNetworkConditions: 150 ms latency, 1.4 Mbit/s down, 675 kbit/s up).
 * For each load: the first contentful paint, the first chunks painted (the end of the app's own 'chunkscope:paint'
 * measure, from navigation start), the JavaScript fetched before that paint (raw bytes of every .js/.mjs response,
 * workers included, finished before the paint; raw and as sent gzipped by vite preview), and, once the page has settled (the editor loaded, no request
 * in flight for 1 s), a size-slider
 * move: key press to that job's chunks painted (median of SLIDER_MOVES moves).
 *
 *   npx tsx bench/first-load.bench.ts                      the built app in dist/app
 *   npx tsx bench/first-load.bench.ts --baseline <outDir>  and another build, loads interleaved, ratios printed
 *   --dist <outDir>  the build measured (default dist/app); --loads N (default 7; the workshop profile gets half)
 *   --list           also print each script fetched before the paint (first unthrottled load), largest first
 *
 * Also prints the entry chunk's size (raw and gzip; with the chunks index.html modulepreloads, see entryChunk), and, for
 * information, the same figures for a first visit that opens a share link of the first sample (#doc=…): that visit
 * runs its first job in the chunk worker (no chunks built ahead), so its script before the paint includes the
 * worker's first chunk and the share-link codec. Not a timed test: figures vary with the machine's load.
 * Targets (issue 28): first chunks painted <= 800 ms unthrottled and <= 3 s in the workshop profile; <= 400 KiB of
 * script before that paint; entry chunk <= 150 KiB gzip.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/ensure-chromium.mjs';
import { firstPaint, recordScripts, scriptsBeforePaint } from '../e2e/firstPaintScripts';
import { freePort, startPreview, stopPreview } from './preview';
import { encodeShareFragment } from '../src/state/shareLink';
import { FIRST_SAMPLE } from '../src/ui/samples';

const argValue = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const LOADS = Number(argValue('--loads') ?? 7);
/** --list: print each script fetched before the paint in the first measured load of each build, largest first. */
const LIST = process.argv.includes('--list');
const SLIDER_MOVES = 3;
/** Cold loads of the share-link first visit (unthrottled, information only). */
const SHARE_LOADS = Math.max(3, Math.ceil(LOADS / 2));
/** A link carrying the first sample (the document a plain first visit shows), so only the path differs. */
const SHARE_FRAGMENT = encodeShareFragment({ text: FIRST_SAMPLE.text, name: FIRST_SAMPLE.name });
const KIB = 1024;

interface Profile {
  label: string;
  loads: number;
  cpuRate: number;
  /** Network.emulateNetworkConditions, or null for none. */
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
}

const PROFILES: Profile[] = [
  { label: 'unthrottled', loads: LOADS, cpuRate: 1, network: null },
  {
    label: 'workshop (CPU 4x, Slow 4G)',
    loads: Math.max(3, Math.ceil(LOADS / 2)),
    cpuRate: 4,
    network: { latency: 150, downloadThroughput: (1.4 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 },
  },
];

interface Load {
  fcpMs: number;
  chunksPaintedMs: number;
  scriptKb: number;
  /** The same scripts as they came over the network (vite preview gzips them, as a static host does). */
  scriptWireKb: number;
  sliderMs: number;
  /** Each script fetched before the paint (path, raw and wire bytes), for --list. */
  scripts: { path: string; bytes: number; wire: number }[];
}

/**
 * The entry chunk and the chunks index.html modulepreloads with it (the app the entry imports: src/startApp.tsx and
 * its static imports, one chunk or several): the main-thread code the first paint runs, which is what "the entry"
 * meant before the entry was split from the app.
 */
function entryChunk(outDir: string): { name: string; raw: number; gzip: number } {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const src = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1];
  const name = src ?? readdirSync(join(outDir, 'assets')).find((f) => /^index-.*\.js$/.test(f))!;
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]+href="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
  const files = [src ?? join('assets', name), ...preloaded].map((f) => readFileSync(join(outDir, f)));
  return { name, raw: files.reduce((n, b) => n + b.length, 0), gzip: files.reduce((n, b) => n + gzipSync(b).length, 0) };
}

/** A size-slider key press to that job's chunks painted (the app's measure), in ms. */
async function sliderMove(page: Page, key: 'ArrowRight' | 'ArrowLeft'): Promise<number> {
  const before = await page.evaluate(() => performance.getEntriesByName('chunkscope:paint').length);
  await page.evaluate(() => {
    (window as unknown as { __keyAt: number }).__keyAt = NaN;
    window.addEventListener('keydown', (e) => ((window as unknown as { __keyAt: number }).__keyAt = e.timeStamp), { capture: true, once: true });
  });
  await page.keyboard.press(key);
  await page.waitForFunction((n) => performance.getEntriesByName('chunkscope:paint').length > n, before, { timeout: 60_000 });
  return page.evaluate(() => {
    const all = performance.getEntriesByName('chunkscope:paint');
    const last = all[all.length - 1] as PerformanceMeasure;
    return last.startTime + last.duration - (window as unknown as { __keyAt: number }).__keyAt;
  });
}

async function load(browser: Browser, url: string, profile: Profile): Promise<Load> {
  // The service worker's precache (after load) would compete with the page; the baseline may have none.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (profile.cpuRate !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuRate });
  if (profile.network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  }
  // Every script response (the page's, its workers'): when it finished and its size.
  const scripts = recordScripts(page);
  // Requests in flight (the page's and its workers'): the slider is measured once the network is quiet.
  let inFlight = 0;
  let lastSettled = Date.now();
  page.on('request', () => inFlight++);
  const settle = () => {
    inFlight--;
    lastSettled = Date.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  await page.goto(url);
  const times = await firstPaint(page);
  // Settled: the editor is in (loaded on idle after the paint, or at once by a build without the early view).
  await page.locator('[data-testid="editor"] .monaco-editor').waitFor({ timeout: 120_000 });
  await page.waitForTimeout(500);
  // Read once settled: the paint entry is queued after the frame is presented, which can be after the chunks' measure.
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
  const before = await scriptsBeforePaint(scripts, times.paintedAt);
  const scriptKb = before.reduce((sum, s) => sum + s.bytes, 0) / KIB;
  const scriptWireKb = before.reduce((sum, s) => sum + s.wire, 0) / KIB;
  // Settled for the slider too: what loads after the paint (the lab, the charts, token ranks) has come in, so a slow
  // network's late downloads do not land in one build's slider moves and not the other's.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && (inFlight > 0 || Date.now() - lastSettled < 1000); ) await page.waitForTimeout(100);
  await page.getByRole('slider', { name: 'Chunk size', exact: true }).focus();
  const moves: number[] = [];
  for (let i = 0; i < SLIDER_MOVES; i++) moves.push(await sliderMove(page, i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'));
  await context.close();
  const listed = before.map(({ path, bytes, wire }) => ({ path, bytes, wire }));
  return { fcpMs: fcp, chunksPaintedMs: times.painted, scriptKb, scriptWireKb, sliderMs: median(moves), scripts: listed };
}

/** The median of the values measured (a load without a first-contentful-paint entry has NaN there). */
const median = (values: number[]): number => {
  const measured = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return measured.length ? measured[Math.floor(measured.length / 2)]! : NaN;
};

async function main(): Promise<void> {
  const baseline = argValue('--baseline');
  const builds = [{ label: 'this build', outDir: argValue('--dist') ?? 'dist/app' }];
  if (baseline) builds.push({ label: 'baseline', outDir: baseline });
  const servers = await Promise.all(
    builds.map(async (b) => {
      const port = await freePort();
      return { ...b, port, server: await startPreview(port, b.outDir), loads: new Map<string, Load[]>(), shared: [] as Load[] };
    }),
  );
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    for (const s of servers) await load(browser, `http://127.0.0.1:${s.port}/`, PROFILES[0]!); // warm the servers and the disk
    for (const profile of PROFILES) {
      for (let i = 0; i < profile.loads; i++) {
        for (const s of servers) {
          const list = s.loads.get(profile.label) ?? [];
          list.push(await load(browser, `http://127.0.0.1:${s.port}/`, profile));
          s.loads.set(profile.label, list);
        }
      }
    }
    for (let i = 0; i < SHARE_LOADS; i++) for (const s of servers) s.shared.push(await load(browser, `http://127.0.0.1:${s.port}/#${SHARE_FRAGMENT}`, PROFILES[0]!));
  } finally {
    await browser.close();
    for (const s of servers) stopPreview(s.server);
  }
  console.log(`First load (cold loads in new browser contexts, interleaved; medians): ${PROFILES.map((p) => `${p.label} ${p.loads} loads`).join(', ')}`);
  console.log('build        profile                       entry (raw / gzip)   script before paint (raw / on the wire)   first contentful paint   first chunks painted   slider move');
  const rows = new Map<string, { painted: number; fcp: number; slider: number; kb: number; wireKb: number; gzip: number }>();
  for (const s of servers) {
    const entry = entryChunk(s.outDir);
    for (const profile of PROFILES) {
      const loads = s.loads.get(profile.label)!;
      const row = {
        fcp: median(loads.map((l) => l.fcpMs)),
        painted: median(loads.map((l) => l.chunksPaintedMs)),
        kb: median(loads.map((l) => l.scriptKb)),
        wireKb: median(loads.map((l) => l.scriptWireKb)),
        slider: median(loads.map((l) => l.sliderMs)),
        gzip: entry.gzip,
      };
      rows.set(`${s.label}|${profile.label}`, row);
      console.log(
        `${s.label.padEnd(12)} ${profile.label.padEnd(29)} ${`${(entry.raw / KIB).toFixed(0)} / ${(entry.gzip / KIB).toFixed(0)} KiB`.padEnd(20)} ${`${row.kb.toFixed(0)} / ${row.wireKb.toFixed(0)} KiB`.padEnd(41)} ${`${row.fcp.toFixed(0)} ms`.padEnd(24)} ${`${row.painted.toFixed(0)} ms`.padEnd(22)} ${row.slider.toFixed(0)} ms`,
      );
    }
  }
  for (const s of servers) {
    const kb = median(s.shared.map((l) => l.scriptKb));
    const wire = median(s.shared.map((l) => l.scriptWireKb));
    const painted = median(s.shared.map((l) => l.chunksPaintedMs));
    console.log(
      `${s.label}: a first visit opening a share link (#doc=, the first sample; the worker path), unthrottled, ${SHARE_LOADS} loads: script before paint ${kb.toFixed(0)} / ${wire.toFixed(0)} KiB (raw / on the wire), first chunks painted ${painted.toFixed(0)} ms (information: the 400 KiB target is the first visit without a link)`,
    );
  }
  // Issue 28's figures for the results page's before/after table (scripts/bench-results.mjs).
  for (const [key, row] of rows) {
    const p = key.includes('workshop') ? 'workshop' : 'unthrottled';
    if (key.startsWith('this build|')) console.log(`::target first-load.paint.${p} ${row.painted} ms\n::target first-load.slider.${p} ${row.slider} ms\n::target first-load.script-before-paint ${row.kb} KiB\n::target first-load.script-before-paint-wire ${row.wireKb} KiB\n::target first-load.entry-gzip ${row.gzip / KIB} KiB`);
  }
  if (LIST) {
    for (const s of servers) {
      const first = s.loads.get(PROFILES[0]!.label)![0]!;
      console.log(`Scripts fetched before the paint, ${s.label} (first unthrottled load; raw / on the wire):`);
      for (const f of [...first.scripts].sort((a, b) => b.bytes - a.bytes)) {
        console.log(`  ${`${(f.bytes / KIB).toFixed(1)} / ${(f.wire / KIB).toFixed(1)} KiB`.padEnd(22)} ${f.path}`);
      }
    }
  }
  if (servers.length === 2) {
    for (const profile of PROFILES) {
      const now = rows.get(`this build|${profile.label}`)!;
      const base = rows.get(`baseline|${profile.label}`)!;
      console.log(
        `ratio (this / baseline), ${profile.label}: entry gzip ${(now.gzip / base.gzip).toFixed(2)}; script before paint ${(now.kb / base.kb).toFixed(2)} raw, ${(now.wireKb / base.wireKb).toFixed(2)} on the wire; ` +
          `first contentful paint ${(now.fcp / base.fcp).toFixed(2)}; first chunks painted ${(now.painted / base.painted).toFixed(2)}; slider move ${(now.slider / base.slider).toFixed(2)}`,
      );
    }
  }
}

await main();
