import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures';
import { controls, downloadFrom, expectEngineChunks, getDocument, openApp, pageOptions, pasteDocument, structureControls, typeNumber, urlParams } from './app';
import { codeFor, loadCopyAsCode } from '../src/core/export/index';
import { validateOptions } from '../src/core/options';
import { policyHandbook } from '../src/ui/samples/policyHandbook';

// Every export format downloads from the page with the CLI's bytes for the same text, options and file name;
// "Copy as code" shows core's program for the configuration; a JSON export opened again rebuilds the document.

const CLI = fileURLToPath(new URL('../bin/chunkscope.js', import.meta.url));

const FORMATS = [
  { button: 'Export JSON', file: 'chunks.json', format: 'json' },
  { button: 'Export JSONL', file: 'chunks.jsonl', format: 'jsonl' },
  { button: 'Export CSV', file: 'chunks.csv', format: 'csv' },
  { button: 'Export LangChain JSON', file: 'chunks.langchain.json', format: 'langchain' },
  { button: 'Export LlamaIndex JSON', file: 'chunks.llamaindex.json', format: 'llamaindex' },
] as const;

/** Opens `name` through the page's "Open file…" input, as a person picking a file does. */
async function openFile(page: import('@playwright/test').Page, name: string, text: string, mimeType = 'text/plain'): Promise<void> {
  await page.locator('input[type=file]').first().setInputFiles({ name, mimeType, buffer: Buffer.from(text, 'utf8') });
}

test.describe.configure({ timeout: 120_000 });

test('every export format equals the CLI output for the same file and configuration', async ({ page }, testInfo) => {
  await openApp(page);
  await openFile(page, 'handbook.md', policyHandbook, 'text/markdown');
  await expect.poll(() => getDocument(page)).toBe(policyHandbook);
  const c = controls(page);
  const s = structureControls(page);
  await c.strategy.selectOption('markdown');
  await typeNumber(c.sizeBox, 400);
  await typeNumber(c.overlapBox, 40);
  await s.headingDepth.selectOption('2');
  await s.header.selectOption('path');
  await urlParams(page, 'headers', '1');
  const options = await pageOptions(page);
  expect(options).toMatchObject({ strategy: 'markdown', size: 400, overlap: 40, headingDepth: 2, headers: true, path: 'handbook.md' });
  const chunks = await expectEngineChunks(page);
  expect(chunks.some((x) => x.metadata.prefix)).toBe(true);

  // The CLI gets the same file under the same name (its path is the file it reads, as the page's is the file opened).
  const dir = testInfo.outputPath('cli');
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/handbook.md`, policyHandbook, 'utf8');
  for (const { button, file, format } of FORMATS) {
    const exported = await downloadFrom(page, button);
    expect(exported.name).toBe(file);
    const args = [CLI, 'chunk', 'handbook.md', '--strategy', 'markdown', '--size', '400', '--overlap', '40', '--unit', 'chars', '--heading-depth', '2', '--headers', '--format', format];
    const cli = execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(exported.body === cli, `${file} is byte-identical to chunkscope --format ${format}`).toBe(true);
  }
});

test('Copy as code shows the program core writes for the configuration; Esc closes and focus returns', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, 'One paragraph here.\n\nAnother "quoted" one, with a back\\slash.\n\nThe end.');
  const c = controls(page);
  await c.strategy.selectOption('recursive');
  await c.compat.check();
  await typeNumber(c.sizeBox, 40);
  await typeNumber(c.overlapBox, 5);
  await expectEngineChunks(page);

  const open = page.getByRole('button', { name: 'Copy as code', exact: true });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Copy as code' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Target' }).selectOption({ label: 'LangChain JS' });
  await loadCopyAsCode(); // the programs load on first use, in this test's process too
  const expected = codeFor(validateOptions(await pageOptions(page)), 'langchain-js');
  await expect(dialog.getByTestId('generated-code')).toHaveText(expected, { useInnerText: false });
  expect(await dialog.getByTestId('generated-code').textContent()).toBe(expected);
  await expect(dialog.getByTestId('code-exactness')).toContainText('exactly');
  await expect(dialog.getByRole('button', { name: 'Copy', exact: true })).toBeEnabled();

  // An approximation says so, with the program's own notes.
  await dialog.getByRole('combobox', { name: 'Target' }).selectOption({ label: 'Chonkie' });
  await expect(dialog.getByTestId('code-exactness')).toContainText('approximation');
  await expect(dialog.getByRole('list', { name: 'Notes' })).toBeVisible();

  // Keyboard: Tab stays inside the modal dialog; Esc closes it and gives focus back to the button.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test('export → re-import: a JSON export opened again rebuilds the document and the same chunks', async ({ page }) => {
  await openApp(page);
  const sample = page.getByRole('button', { name: 'Sample: Policy handbook', exact: true });
  await sample.click();
  // The sample's text loads on its first click and brings its kind's strategy: the controls are set once it is open.
  await expect(sample).toHaveAttribute('aria-pressed', 'true');
  const c = controls(page);
  await c.strategy.selectOption('fixed');
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 30);
  const before = await expectEngineChunks(page);
  const original = await getDocument(page);
  const exported = await downloadFrom(page, 'Export JSON');

  // Something else in the editor first, so that the re-import has to bring the document back.
  await pasteDocument(page, 'placeholder text');
  await openFile(page, 'chunks.json', exported.body, 'application/json');
  await expect.poll(() => getDocument(page), { message: 'the rebuilt document' }).toBe(original);
  await expect(page.getByText(/Rebuilt the document from the \d+ chunks in “chunks\.json”: every character came from a chunk/)).toBeVisible();
  const after = await expectEngineChunks(page);
  expect(after.map((x) => [x.start, x.end, x.text])).toEqual(before.map((x) => [x.start, x.end, x.text]));

  // Markdown drops the blank lines between sections: they come back as spaces, and the notice counts them.
  await c.strategy.selectOption('markdown');
  const markdown = await expectEngineChunks(page);
  const again = await downloadFrom(page, 'Export JSON');
  await openFile(page, 'chunks.json', again.body, 'application/json');
  await expect(page.getByText(/gaps? no chunk covered \(\d+ characters of dropped whitespace\) filled with spaces/)).toBeVisible();
  const rebuilt = await getDocument(page);
  for (const chunk of markdown) expect(rebuilt.slice(chunk.start, chunk.end)).toBe(chunk.text);
});
