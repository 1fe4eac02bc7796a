import { test, expect } from './fixtures';
import {
  controls,
  expectEngineChunks,
  expectPainted,
  expectedChunks,
  getDocument,
  openApp,
  optionsFromControls,
  pasteDocument,
  typeNumber,
} from './app';
import { makeDocument } from './documents';

const text = makeDocument(8_000, 3);

test('an invalid setting shows one message and keeps the last chunks on screen', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 50);
  const lastGood = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, lastGood);
  await expect(c.alert).toHaveCount(0);

  // Overlap >= size cannot be chunked: the page says why, in one line, and keeps the last good result.
  await typeNumber(c.overlapBox, 300);
  await expect(c.alert).toBeVisible();
  await expect(c.alert).toContainText(/overlap/i);
  const message = (await c.alert.textContent()) ?? '';
  expect(message.trim().split('\n')).toHaveLength(1);
  await expectPainted(page, lastGood);

  // Fixing it clears the message and chunks again.
  await typeNumber(c.overlapBox, 20);
  await expect(c.alert).toHaveCount(0);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));
});

const SAMPLES = ['Sample: Policy handbook', 'Sample: Source file', 'Sample: Meeting transcript', 'Sample: Multilingual'];

test('each sample button loads its document and chunks it', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  const loaded = new Set<string>();
  for (const name of SAMPLES) {
    await page.getByRole('button', { name, exact: true }).click();
    // Loading a sample replaces whatever was there.
    await expect.poll(async () => loaded.has(await getDocument(page)), { message: `${name} loads a new document` }).toBe(false);
    const sample = await getDocument(page);
    expect(sample.trim().length, `${name} is not empty`).toBeGreaterThan(200);
    loaded.add(sample);

    // The editor shows its first line, and the chunks drawn are the engine's.
    const firstLine = sample.split('\n').find((line) => line.trim().length > 0)!.trim().slice(0, 20);
    await expect(c.editor.locator('.view-lines')).toContainText(firstLine.replace(/\s+/g, ' ').split(' ')[0]!);
    // Each sample brings the strategy of its kind (the source file: code, with its name as the path): the options
    // the page sent, run by the engine in Node.
    await expect(c.strategy).toHaveValue(name === 'Sample: Policy handbook' ? 'markdown' : name === 'Sample: Source file' ? 'code' : 'recursive');
    await expectEngineChunks(page);
  }
  expect(loaded.size).toBe(SAMPLES.length);
});

test('the worker loads token ranks from the page origin only', async ({ page, guards }) => {
  // Switching to a token unit makes the chunk worker load the tokenizer ranks lazily; those requests come
  // from the worker, and the automatic guard fails the test if any leaves the origin.
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  const seenBefore = guards.requests.length;
  await c.unit.selectOption('o200k_base');
  await typeNumber(c.sizeBox, 100);
  await typeNumber(c.overlapBox, 10);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));
  const ranks = guards.requests.slice(seenBefore).filter((url) => url.includes('o200k_base'));
  expect(ranks, 'the o200k_base ranks were loaded (lazily) after choosing the unit').not.toEqual([]);
});
