import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls } from './app';
import { chunk } from '../src/core/index';
import type { ChunkOptions } from '../src/core/types';
import { FIRST_SAMPLE } from '../src/ui/samples';
import './hook';

// A first visit (issue 28) paints the first sample's chunks built at build time (vite.config.ts, firstChunks()),
// before the chunk worker's script is fetched; the worker starts after that paint and its answer, the same chunks,
// replaces them. Any other visit (stored settings, a link) runs its first job in the worker, started early.

const WORKER_SCRIPT = /\/assets\/chunk\.worker-[^/]*\.js$/;

/** When (epoch ms) the chunk worker's script was requested, each time. */
function workerRequests(page: Page): number[] {
  const at: number[] = [];
  page.on('request', (r) => WORKER_SCRIPT.test(new URL(r.url()).pathname) && at.push(Date.now()));
  return at;
}

/** The first paint measure (its end, epoch ms, and the job it painted) and the result's boundaries then. */
async function firstPaint(page: Page) {
  await page.waitForFunction(() => performance.getEntriesByName('chunkscope:paint').length > 0, null, { timeout: 30_000 });
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('chunkscope:paint')[0] as PerformanceMeasure;
    return {
      paintedAt: performance.timeOrigin + paint.startTime + paint.duration,
      jobId: (paint.detail as { jobId: number }).jobId,
      boundaries: window.__chunkscope!.boundaries()!,
    };
  });
}

const expectedStarts = async (options: Record<string, unknown>) =>
  (await chunk(FIRST_SAMPLE.text, options as ChunkOptions)).map((c) => c.start);

test("a first visit paints the built chunks before the worker is fetched; the worker's answer is the same chunks", async ({ page }) => {
  const requested = workerRequests(page);
  await page.goto('/');
  const first = await firstPaint(page);
  expect(first.boundaries.jobId).toBe(first.jobId);
  const options = await page.evaluate(() => window.__chunkscope!.getConfig());
  expect(first.boundaries.starts).toEqual(await expectedStarts(options));
  // The worker, started after the paint, answers the same job: its result replaces the built one.
  await expect.poll(() => page.evaluate(() => window.__chunkscope!.boundaries()!.jobId), { timeout: 15_000 }).toBeGreaterThan(first.jobId);
  const later = (await page.evaluate(() => window.__chunkscope!.boundaries()))!;
  expect(later.starts).toEqual(first.boundaries.starts);
  expect(later.ends).toEqual(first.boundaries.ends);
  expect(requested, 'the chunk worker is fetched once, after the first paint').toHaveLength(1);
  expect(requested[0]!).toBeGreaterThanOrEqual(Math.floor(first.paintedAt));
  await expect(controls(page).chunkCount).toContainText(String(later.starts.length));
});

test('a slider move right after the first paint chunks in the worker; the next visit starts the worker early', async ({ page }) => {
  await page.goto('/');
  const first = await firstPaint(page);
  const { sizeSlider } = controls(page);
  await sizeSlider.focus();
  await page.keyboard.press('ArrowRight');
  const moved = await page.evaluate(() => window.__chunkscope!.getConfig());
  expect(moved.size).not.toBe(512);
  await expect
    .poll(async () => (await page.evaluate(() => window.__chunkscope!.boundaries()))!.starts, { timeout: 15_000 })
    .toEqual(await expectedStarts(moved));
  expect((await page.evaluate(() => window.__chunkscope!.boundaries()))!.jobId).toBeGreaterThan(first.jobId);

  // The settings are stored: the reload is no first visit, and its chunks come from the worker, fetched before them.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('chunkscope.settings.v1'))).not.toBeNull();
  const requested = workerRequests(page);
  await page.reload();
  const again = await firstPaint(page);
  expect(again.boundaries.starts).toEqual(await expectedStarts(moved));
  expect(requested.length).toBe(1);
  expect(requested[0]!).toBeLessThan(again.paintedAt);
});
