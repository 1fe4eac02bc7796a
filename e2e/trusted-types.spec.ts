import { test, expect } from './fixtures';
import { expectPainted, expectedChunks, openApp, optionsFromControls } from './app';
import { SAMPLE_TEXT_PROBE } from './trusted-types-probe';

/**
 * Issue 29, defence in depth: the page enforces Trusted Types (`require-trusted-types-for 'script'` in its
 * Content-Security-Policy, src/ui/trustedTypes.ts), so a DOM sink refuses a plain string even if some code forgot
 * to escape: markup, a script URL, a worker from another origin. And the whole app still runs under it: Monaco
 * draws, the chunk worker chunks and the page paints the chunks the engine makes.
 */

test('a DOM sink refuses a plain string; a script or worker from elsewhere is refused', async ({ page }) => {
  await openApp(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("require-trusted-types-for 'script'");
  const outcomes = await page.evaluate(() => {
    const attempt = (run: () => void) => {
      try {
        run();
        return 'allowed';
      } catch (err) {
        return `${(err as Error).name}: ${(err as Error).message}`;
      }
    };
    const div = document.createElement('div');
    document.body.append(div);
    const result = {
      innerHTML: attempt(() => (div.innerHTML = '<img src=x onerror="window.__ttRan=1">')),
      outerHTML: attempt(() => (div.outerHTML = '<img src=x onerror="window.__ttRan=1">')),
      insertAdjacentHTML: attempt(() => div.insertAdjacentHTML('beforeend', '<b onclick="x()">b</b>')),
      scriptSrc: attempt(() => (document.createElement('script').src = 'https://evil.example/x.js')),
      worker: attempt(() => new Worker('https://evil.example/w.js')),
      ranHandler: (window as { __ttRan?: number }).__ttRan ?? 0,
      imgInserted: div.querySelectorAll('img').length,
    };
    div.remove();
    return result;
  });
  for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'scriptSrc'] as const) expect(outcomes[sink], sink).toMatch(/^TypeError: .*Trusted/);
  expect(outcomes.worker).toMatch(/^TypeError/);
  expect(outcomes.ranHandler).toBe(0);
  expect(outcomes.imgInserted).toBe(0);
});

test('the app works under Trusted Types: Monaco draws, the worker chunks, the chunks are painted', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/trusted ?type|TrustedHTML|TrustedScript/i.test(message.text())) violations.push(message.text());
  });
  await openApp(page);
  await page.evaluate((text) => window.__chunkscope!.setDocument(text), SAMPLE_TEXT_PROBE);
  const options = await optionsFromControls(page);
  await expectPainted(page, await expectedChunks(SAMPLE_TEXT_PROBE, options));
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('Trusted');
  expect(violations).toEqual([]);
});
