import { test, expect } from './fixtures';
import {
  controls,
  expectPainted,
  expectedChunks,
  getDocument,
  openApp,
  optionsFromControls,
  pasteDocument,
  typeNumber,
} from './app';
import { makeDocument } from './documents';
import { orphanBits } from '../src/core/describe';

// A person pastes a document, sees where the chunks are, and moves the size control to see them move.
// What "right" means comes from the engine itself, run in Node on the same text and options.

const text = makeDocument(12_000, 7);

test('pasting a document draws and counts its chunk boundaries', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);

  const options = await optionsFromControls(page);
  const expected = await expectedChunks(text, options);
  expect(expected.length, 'the test document needs several chunks at the default size').toBeGreaterThan(5);
  await expectPainted(page, expected);

  // Alternating backgrounds: both classes drawn, and the overlap regions where chunks share text.
  const c = controls(page);
  await expect(c.editor.locator('.cs-chunk-even').first()).toBeVisible();
  await expect(c.editor.locator('.cs-chunk-odd').first()).toBeVisible();
  const overlapping = expected.slice(1).some((next, i) => expected[i]!.end > next.start);
  if (overlapping) await expect(c.editor.locator('.cs-overlap').first()).toBeAttached();

  // The paint is timed for the benchmark: the last 'chunkscope:paint' measure is this job's.
  const lastPaint = await page.evaluate(() => {
    const entry = performance.getEntriesByName('chunkscope:paint').at(-1) as PerformanceMeasure | undefined;
    return entry ? { duration: entry.duration, detail: entry.detail as { jobId?: number; chunks?: number } } : null;
  });
  expect(lastPaint?.detail.chunks).toBe(expected.length);
  expect(lastPaint?.detail.jobId).toBe(await page.evaluate(() => window.__chunkscope!.paintedJobId()));
});

test('typing in the editor re-chunks the document as it is typed', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  await c.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  const typed = '\nA closing paragraph typed by hand, one key at a time, to see the last boundary move.\n';
  await page.keyboard.type(typed);
  const edited = text + typed;
  await expect.poll(() => getDocument(page)).toBe(edited);
  await expectPainted(page, await expectedChunks(edited, await optionsFromControls(page)));
});

test('moving the size slider moves the boundaries to where the engine puts them', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  const initial = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, initial);

  // Arrow keys on the slider: real key events, whatever step the slider has.
  const before = Number(await c.sizeSlider.inputValue());
  const beforeCount = Number(await c.chunkCount.textContent());
  await c.sizeSlider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  const smaller = Number(await c.sizeSlider.inputValue());
  expect(smaller).toBeLessThan(before);
  await expect(c.sizeBox).toHaveValue(String(smaller));
  const afterArrows = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, afterArrows);
  const spans = (chunks: { start: number; end: number }[]) => chunks.map((k) => `${k.start}-${k.end}`).join(',');
  expect(spans(afterArrows), 'a smaller size moves the boundaries').not.toBe(spans(initial));

  // The number box: a much smaller size gives more, shorter chunks.
  await typeNumber(c.sizeBox, 200);
  await expect(c.sizeSlider).toHaveValue('200');
  const small = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, small);
  expect(small.length).toBeGreaterThan(beforeCount);

  // And back up: fewer chunks, boundaries where the engine puts them.
  await typeNumber(c.sizeBox, 900);
  const large = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, large);
  expect(large.length).toBeLessThan(small.length);
});

test('keyboard only: tab to the size control and change it', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  // Start from the top of the page with nothing focused, then only the keyboard.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const sizeSliderFocused = () => c.sizeSlider.evaluate((el) => el === document.activeElement);
  let reached = false;
  for (let presses = 0; presses < 60 && !reached; presses++) {
    await page.keyboard.press('Tab');
    reached = await sizeSliderFocused();
  }
  expect(reached, 'Tab reaches the "Chunk size" slider').toBe(true);

  const before = Number(await c.sizeSlider.inputValue());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const after = Number(await c.sizeSlider.inputValue());
  expect(after).toBeGreaterThan(before);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  // The next stop is the number box; typing there works too.
  await page.keyboard.press('Tab');
  await expect(c.sizeBox).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('300');
  await page.keyboard.press('Tab');
  await expect(c.sizeSlider).toHaveValue('300');
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));
});

test('every control has its accessible name', async ({ page }) => {
  await openApp(page, '/?strategy=recursive');
  const c = controls(page);
  for (const [name, locator] of Object.entries(c)) {
    if (name === 'alert') continue; // only there while a setting is invalid
    await expect(locator, `${name} is on the page under its accessible name`).toHaveCount(1);
  }
  for (const button of ['Export JSON', 'Export JSONL', 'Copy chunk', 'Open file…']) {
    await expect(page.getByRole('button', { name: button, exact: true })).toHaveCount(1);
  }
});

test('the stats count the orphan chunks of a new document (its flags come after the paint) and of each slider move', async ({ page }) => {
  await openApp(page);
  // A document the worker has not segmented into sentences: its first job's flags come with the token counts.
  const fresh = makeDocument(9_000, 31);
  await pasteDocument(page, fresh);
  const c = controls(page);
  for (const size of [null, 333]) {
    if (size !== null) await typeNumber(c.sizeBox, size);
    const expected = await expectedChunks(fresh, await optionsFromControls(page));
    await expectPainted(page, expected);
    const orphans = orphanBits(fresh, expected).filter((bits) => bits !== 0).length;
    expect(orphans, 'chunks at this size cut sentences').toBeGreaterThan(0);
    await expect(page.getByTestId('orphan-count')).toContainText(`${orphans.toLocaleString('en-US')} orphan chunk`);
  }
  await expect(page.getByTestId('orphan-badge').first()).toBeVisible();
});
