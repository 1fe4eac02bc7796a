import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';

/** A script response: its path, when it finished (epoch ms), its raw bytes and its bytes on the wire. */
export interface ScriptResponse {
  path: string;
  at: number;
  bytes: number;
  wire: number;
}

/**
 * Records every script response of `page` (its own and its workers'), for scriptsBeforePaint. Shared by the first-load
 * benchmark and the first-visit test, so that the budget the test guards is the figure the benchmark reports.
 */
export function recordScripts(page: Page): Promise<ScriptResponse>[] {
  const scripts: Promise<ScriptResponse>[] = [];
  page.on('requestfinished', (request) => {
    if (!/\.m?js(\?|$)/.test(new URL(request.url()).pathname)) return;
    scripts.push(
      (async () => {
        const response = await request.response();
        const body = await response?.body().catch(() => Buffer.alloc(0));
        const sizes = await request.sizes().catch(() => ({ responseBodySize: 0 }));
        const t = request.timing();
        // A worker's requests come without sizes (0): its script as vite preview sends it, gzipped.
        const wire = sizes.responseBodySize > 0 || !body?.length ? sizes.responseBodySize : gzipSync(body).length;
        return { path: new URL(request.url()).pathname, at: t.startTime + t.responseEnd, bytes: body?.length ?? 0, wire };
      })(),
    );
  });
  return scripts;
}

/** When the first chunks were painted: the end of the app's `chunkscope:paint` measure, from navigation and as epoch ms. */
export async function firstPaint(page: Page, timeout = 120_000): Promise<{ painted: number; paintedAt: number }> {
  await page.waitForFunction(() => performance.getEntriesByName('chunkscope:paint').length > 0, null, { timeout });
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('chunkscope:paint')[0] as PerformanceMeasure;
    const painted = paint.startTime + paint.duration;
    return { painted, paintedAt: performance.timeOrigin + painted };
  });
}

/** The recorded scripts that finished by `paintedAt`. */
export async function scriptsBeforePaint(scripts: Promise<ScriptResponse>[], paintedAt: number): Promise<ScriptResponse[]> {
  return (await Promise.all(scripts)).filter((s) => s.at <= paintedAt);
}
