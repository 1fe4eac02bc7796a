import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, getDocument, openApp, optionsFromControls, pasteDocument, typeNumber } from './app';
import { makeDocument } from './documents';

// Getting a document in from disk, picking one chunk (in the editor or the list), and copying it out.

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

test('dropping a source file onto the editor loads it and chunks it', async ({ page }) => {
  await openApp(page);
  const source = 'import os\n\n\ndef walk(root):\n    for name in os.listdir(root):\n        yield name\n'.repeat(40);
  // A real drag and drop of a file: the DataTransfer carries a File, as when dropped from the desktop.
  const dataTransfer = await page.evaluateHandle((content) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([content], 'walk.py', { type: 'text/x-python' }));
    return transfer;
  }, source);
  const target = controls(page).editor.locator('.view-lines');
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await expect.poll(() => getDocument(page), { message: 'the editor holds the dropped file' }).toBe(source);
  // A .py file switches the page to the code strategy; the file name is the path the options carry.
  await expectPainted(page, await expectedChunks(source, { ...(await optionsFromControls(page)), path: 'walk.py' }));
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

test('selecting a chunk in the editor or in the list reveals it in the other', async ({ page }) => {
  await openApp(page);
  const text = makeDocument(30_000, 41);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 0);
  const expected = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, expected);
  const last = expected.length - 1;

  // Editor -> list: put the cursor in the last sentence; the list scrolls to the last chunk and selects it.
  await c.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  const offset = text.length - 4;
  const owner = expected.filter((k) => k.start <= offset && offset < k.end).at(-1);
  expect(owner?.index).toBe(last);
  const lastOption = c.chunkList.locator(`[role="option"][data-index="${last}"]`);
  await expect(lastOption).toBeVisible();
  await expect(lastOption).toHaveAttribute('aria-selected', 'true');

  // List -> editor: Home in the list selects chunk 0, and the editor scrolls back up to show it.
  await c.chunkList.focus();
  await page.keyboard.press('Home');
  await expect(c.chunkList.locator('[role="option"][data-index="0"]')).toHaveAttribute('aria-selected', 'true');
  await expect(c.editor.locator('.cs-chunk-selected').first()).toBeVisible();
  await expect(c.editor.locator('.view-lines')).toContainText('Chunkscope e2e document 41');
});
