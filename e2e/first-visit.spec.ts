import type { Page, Route } from '@playwright/test';
import { test, expect } from './fixtures';
import { getDocument } from './app';
import { firstPaint, recordScripts, scriptsBeforePaint } from './firstPaintScripts';
import { FIRST_SAMPLE } from '../src/ui/samples';

// The first visit (issue 28): the first chunks are painted by the read-only first view before Monaco's script is
// fetched; whatever the person does there before Monaco arrives (click, type, scroll) is taken over by Monaco.

const sample = FIRST_SAMPLE;

/** Holds Monaco's chunk until `release` is called: the first view stays as long as the test needs. */
async function holdMonaco(page: Page): Promise<{ release: () => void; requested: () => boolean }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/assets\/MonacoEditor-[^/]*\.js$/, async (route: Route) => {
    requested = true;
    await held;
    await route.continue();
  });
  return { release, requested: () => requested };
}

test('the first chunks are painted in the first view, without Monaco, and Monaco swaps in with the same chunks', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  const monaco = await holdMonaco(page);
  await page.goto('/');
  const view = page.getByTestId('first-view');
  await expect(view.locator('.cs-chunk-label').first()).toHaveText('0');
  await expect(view.locator('.cs-chunk-odd').first()).toBeAttached();
  const paintedBefore = await page.evaluate(() => performance.getEntriesByName('chunkscope:paint').length);
  expect(paintedBefore, 'the paint measure is recorded by the first view').toBeGreaterThan(0);
  const labels = await view.locator('.cs-chunk-label').allTextContents();
  expect(scripts.filter((s) => /editor\.api|MonacoEditor/.test(s) && !monaco.requested()), 'Monaco fetched before the paint').toEqual([]);
  monaco.release();
  const editor = page.getByTestId('editor').locator('.monaco-editor');
  await expect(editor).toBeVisible();
  await expect(view).toHaveCount(0);
  // The same chunks, now Monaco's decorations (the labels on screen, in order).
  const monacoLabels = await page.getByTestId('editor').locator('.view-lines .cs-chunk-label').allTextContents();
  expect(monacoLabels.length).toBeGreaterThan(0);
  expect(labels.slice(0, monacoLabels.length)).toEqual(monacoLabels.slice(0, labels.length));
});

test('keys typed in the first view before Monaco arrives are typed at the clicked caret, and typing goes on in Monaco', async ({ page }) => {
  const monaco = await holdMonaco(page);
  await page.goto('/');
  const view = page.getByTestId('first-view');
  // Click just after the first line's text ("# Northwind Labs Employee Handbook").
  const firstLine = sample.text.slice(0, sample.text.indexOf('\n'));
  const lineText = view.locator('.lv-line').first().locator('.lv-text');
  await expect(lineText).toContainText(firstLine);
  const box = (await lineText.boundingBox())!;
  const run = view.locator('.lv-line').first().locator('[data-from]').last();
  const runBox = (await run.boundingBox())!;
  await page.mouse.click(runBox.x + runBox.width - 1, box.y + box.height / 2);
  expect(monaco.requested(), 'a click asks for Monaco at once').toBe(true);
  await page.keyboard.type(' v2');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('3');
  expect(await getDocument(page), 'nothing is applied before Monaco has it').toBe(sample.text);
  monaco.release();
  await expect(page.getByTestId('editor').locator('.monaco-editor')).toBeVisible();
  await expect.poll(() => getDocument(page)).toBe(`${firstLine} v3${sample.text.slice(firstLine.length)}`);
  // The caret is Monaco's now, after what was typed.
  await page.keyboard.type('!');
  await expect.poll(() => getDocument(page)).toBe(`${firstLine} v3!${sample.text.slice(firstLine.length)}`);
});

test('Monaco takes over the first view scroll position', async ({ page }) => {
  const monaco = await holdMonaco(page);
  await page.goto('/');
  const scroller = page.getByTestId('first-view').locator('.lv-scroller');
  await expect(page.getByTestId('first-view').locator('.cs-chunk-label').first()).toBeAttached();
  await scroller.evaluate((el) => {
    el.scrollTop = 600;
    el.dispatchEvent(new Event('scroll'));
  });
  const topLine = await scroller.evaluate((el) => {
    const lines = [...el.querySelectorAll<HTMLElement>('.lv-line')];
    const first = lines.find((l) => l.offsetTop + l.offsetHeight > el.scrollTop)!;
    return Number(first.querySelector('.lv-number')!.textContent);
  });
  monaco.release();
  await expect(page.getByTestId('editor').locator('.monaco-editor')).toBeVisible();
  await expect(page.getByTestId('first-view')).toHaveCount(0);
  // Monaco's top line number on screen is the view's.
  const monacoTop = await page.getByTestId('editor').evaluate((host) => {
    const numbers = [...host.querySelectorAll<HTMLElement>('.line-numbers')].filter((n) => n.textContent!.trim() !== '');
    const hostTop = host.querySelector('.monaco-editor')!.getBoundingClientRect().top;
    const visible = numbers.filter((n) => n.getBoundingClientRect().bottom > hostTop).sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    return Number(visible[0]!.textContent);
  });
  expect(monacoTop).toBe(topLine);
});

/** Issue 28's budget for a first visit: script fetched before the first chunks are painted (raw bytes). */
const SCRIPT_BEFORE_PAINT_KIB = 400;

test('a first visit fetches at most 400 KiB of script before its first chunks are painted', async ({ page }) => {
  // A size, not a time: the same figure the first-load benchmark reports, so a static import that drags a module onto
  // the first screen fails here before it shows up in the benchmark.
  const scripts = recordScripts(page);
  await page.goto('/');
  const { paintedAt } = await firstPaint(page, 30_000);
  await expect(page.getByTestId('editor').locator('.monaco-editor')).toBeVisible();
  const before = await scriptsBeforePaint(scripts, paintedAt);
  const kib = before.reduce((sum, s) => sum + s.bytes, 0) / 1024;
  const list = before.sort((a, b) => b.bytes - a.bytes).map((s) => `${s.path} ${(s.bytes / 1024).toFixed(1)} KiB`);
  expect(kib, `script before the paint: ${kib.toFixed(1)} KiB\n${list.join('\n')}`).toBeLessThanOrEqual(SCRIPT_BEFORE_PAINT_KIB);
  expect(before.length, 'the paint needs some script').toBeGreaterThan(0);
});
