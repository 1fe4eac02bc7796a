/**
 * First load of the page: what a person waits for when opening Chunkscope (a new browser context each time, so
 * nothing is cached). For each load: the first contentful paint, the first chunks painted (the app's own
 * 'chunkscope:paint' measure, from navigation start), and the JavaScript the page fetched before that paint.
 *
 *   npx tsx bench/first-load.bench.ts                      the built app in dist/app
 *   npx tsx bench/first-load.bench.ts --baseline <outDir>  and another build, loads interleaved, ratios printed
 *
 * Also prints the entry chunk's size (raw and gzip). Not a timed test: figures vary with the machine's load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/ensure-chromium.mjs';
import { freePort, startPreview, stopPreview } from './preview';

const LOADS = 7;

interface Load {
  fcpMs: number;
  chunksPaintedMs: number;
  scriptKb: number;
}

function entryChunk(outDir: string): { name: string; raw: number; gzip: number } {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const src = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1];
  const name = src ?? readdirSync(join(outDir, 'assets')).find((f) => /^index-.*\.js$/.test(f))!;
  const bytes = readFileSync(join(outDir, src ?? join('assets', name)));
  return { name, raw: bytes.length, gzip: gzipSync(bytes).length };
}

async function load(browser: Browser, url: string): Promise<Load> {
  // The service worker's precache (after load) would compete with the page; the baseline may have none.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  let scriptBytes = 0;
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scriptBytes += Number(response.headers()['content-length'] ?? 0) || (await response.body().catch(() => Buffer.alloc(0))).length;
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('chunkscope:paint').length > 0, null, { timeout: 120_000 });
  const times = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    painted: (performance.getEntriesByName('chunkscope:paint')[0] as PerformanceMeasure).startTime + (performance.getEntriesByName('chunkscope:paint')[0] as PerformanceMeasure).duration,
  }));
  const scriptKb = scriptBytes / 1024;
  await context.close();
  return { fcpMs: times.fcp, chunksPaintedMs: times.painted, scriptKb };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const baselineAt = process.argv.indexOf('--baseline');
  const builds = [{ label: 'this build', outDir: 'dist/app' }];
  if (baselineAt > 0) builds.push({ label: 'baseline', outDir: process.argv[baselineAt + 1]! });
  const servers = await Promise.all(
    builds.map(async (b) => {
      const port = await freePort();
      return { ...b, port, server: await startPreview(port, b.outDir), loads: [] as Load[] };
    }),
  );
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    for (const s of servers) await load(browser, `http://127.0.0.1:${s.port}/`); // warm the servers and the disk
    for (let i = 0; i < LOADS; i++) for (const s of servers) s.loads.push(await load(browser, `http://127.0.0.1:${s.port}/`));
  } finally {
    await browser.close();
    for (const s of servers) stopPreview(s.server);
  }
  console.log(`First load (${LOADS} cold loads each, interleaved; medians)`);
  console.log('build        entry chunk (raw / gzip)   scripts before paint   first contentful paint   first chunks painted');
  const rows = servers.map((s) => {
    const entry = entryChunk(s.outDir);
    const row = {
      fcp: median(s.loads.map((l) => l.fcpMs)),
      painted: median(s.loads.map((l) => l.chunksPaintedMs)),
      kb: median(s.loads.map((l) => l.scriptKb)),
    };
    console.log(
      `${s.label.padEnd(12)} ${`${(entry.raw / 1024).toFixed(0)} KiB / ${(entry.gzip / 1024).toFixed(0)} KiB`.padEnd(26)} ${`${row.kb.toFixed(0)} KiB`.padEnd(22)} ${`${row.fcp.toFixed(0)} ms`.padEnd(24)} ${row.painted.toFixed(0)} ms`,
    );
    return { ...row, entry };
  });
  if (rows.length === 2) {
    const [now, base] = rows as [(typeof rows)[0], (typeof rows)[0]];
    console.log(
      `ratio (this / baseline): entry ${(now.entry.raw / base.entry.raw).toFixed(2)} raw, ${(now.entry.gzip / base.entry.gzip).toFixed(2)} gzip; ` +
        `first contentful paint ${(now.fcp / base.fcp).toFixed(2)}; first chunks painted ${(now.painted / base.painted).toFixed(2)}`,
    );
  }
}

await main();
