import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, getDocument, openApp, optionsFromControls, pasteDocument, typeNumber } from './app';
import { makeDocument } from './documents';

// Getting a document in from disk, and one chunk out to the clipboard.

test('"Open file…" loads a local markdown file and chunks it', async ({ page }) => {
  await openApp(page);
  const content = makeDocument(6_000, 31);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Open file…', exact: true }).click(),
  ]);
  await chooser.setFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(content, 'utf8') });
  await expect.poll(() => getDocument(page), { message: 'the editor holds the file' }).toBe(content);
  await expectPainted(page, await expectedChunks(content, await optionsFromControls(page)));
});

test('"Copy chunk" copies the selected chunk\'s exact text', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await openApp(page);
  const text = makeDocument(6_000, 37);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 250);
  await typeNumber(c.overlapBox, 25);
  const expected = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, expected);

  const option = c.chunkList.locator('[role="option"][data-index="2"]');
  await option.click();
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Copy chunk', exact: true }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expected[2]!.text);
});
