import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, getDocument, openApp, optionsFromControls, pasteDocument, waitForApp } from './app';
import { importDocument } from '../src/import/index';
import { layoutDocument, makePdf, travelPolicyBlocks } from '../scripts/make-fixtures.mjs';

// Opening PDF and DOCX files: pdfjs-dist (with its worker from the app's own bundle) and mammoth run in the
// browser; what the page shows is checked against the same importer run in Node, and the fixtures' known layout
// (scripts/make-fixtures.mjs: running header "ACME Travel Policy", footer "Page N of M").

const fixture = (name: string) => readFileSync(new URL(`./files/${name}`, import.meta.url));

async function openFile(page: Page, name: string, mimeType: string, buffer: Buffer = fixture(name)): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Open file…', exact: true }).click(),
  ]);
  await chooser.setFiles({ name, mimeType, buffer });
}

const notice = (page: Page) => page.locator('.notice[role="status"]');

test('a PDF opens as its text without the repeated header and footer, and the chunks carry page numbers', async ({ page }) => {
  await openApp(page);
  const inNode = await importDocument('travel-policy.pdf', new Uint8Array(fixture('travel-policy.pdf')), { dropPageFurniture: true });
  await openFile(page, 'travel-policy.pdf', 'application/pdf');
  // The browser's pdfjs (modern build, worker) reads the same text as Node's (legacy build, in-process).
  await expect.poll(() => getDocument(page), { message: 'the editor holds the PDF text' }).toBe(inNode.text);
  const text = inNode.text;
  expect(text.startsWith('Travel Policy\n')).toBe(true);
  expect(text).not.toContain('ACME Travel Policy');
  expect(text).not.toMatch(/Page \d of \d/);
  await expect(notice(page)).toContainText('Dropped 8 repeated header/footer lines');
  await expect(controls(page).editor.locator('.view-lines')).toContainText('1. Purpose');

  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  // Page numbers in the exported metadata: the pages each chunk's span touches.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON', exact: true }).click()]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as Array<{ start: number; end: number; metadata?: { pages?: number[] } }>;
  const starts = inNode.pageStarts!;
  const pageAt = (offset: number) => starts.filter((s) => s <= offset).length;
  expect(exported.length).toBeGreaterThan(1);
  for (const item of exported) {
    const first = pageAt(item.start);
    const last = pageAt(item.end - 1);
    expect(item.metadata?.pages, `chunk ${item.start}-${item.end}`).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
  }
  expect(exported.at(-1)!.metadata!.pages!.at(-1)).toBe(starts.length);

  // The pages survive a reload (the document is stored with its page starts).
  await page.waitForTimeout(400); // the document is saved when the browser is idle
  await page.reload();
  await waitForApp(page);
  await expect.poll(() => getDocument(page)).toBe(text);
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON', exact: true }).click()]);
  const reloaded = JSON.parse(readFileSync(await again.path(), 'utf8')) as typeof exported;
  expect(reloaded.map((c) => c.metadata?.pages)).toEqual(exported.map((c) => c.metadata?.pages));
});

test('an encrypted PDF is refused with one line and the current document stays', async ({ page }) => {
  await openApp(page);
  const text = 'My notes.\n\nThey must survive a failed import.';
  await pasteDocument(page, text);
  await openFile(page, 'encrypted.pdf', 'application/pdf');
  await expect(notice(page)).toContainText('“encrypted.pdf” is encrypted');
  await expect(notice(page)).toContainText('The current document is unchanged.');
  expect(await getDocument(page)).toBe(text);
});

test('a DOCX opens as markdown and switches to the markdown strategy', async ({ page }) => {
  await openApp(page);
  await openFile(page, 'expense-guide.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  await expect.poll(() => getDocument(page), { message: 'the editor holds the converted document' }).toMatch(/^# Expense Guide\n/);
  const text = await getDocument(page);
  expect(text).toContain('\n## Rates by city\n');
  expect(text).toContain('| City | Hotel rate | Allowance |');
  await expect(controls(page).strategy).toHaveValue('markdown');
  await expect(notice(page)).toContainText('Strategy switched to markdown');
});

test('a 50-page PDF opens whole, every page read (time printed for the notes, not asserted)', async ({ page }) => {
  await openApp(page);
  const blocks = Array.from({ length: 200 }, (_, i) => [{ heading: `${i + 1}. Section ${i + 1}` }, ...travelPolicyBlocks().filter((b) => 'paragraph' in b).slice(0, 3)]).flat();
  const pdf = Buffer.from(makePdf(layoutDocument(blocks, { header: 'ACME Handbook', linesPerPage: 40 }).slice(0, 50)));
  const inNode = await importDocument('handbook.pdf', new Uint8Array(pdf), { dropPageFurniture: true });
  expect(inNode.pageStarts).toHaveLength(50);
  const started = Date.now();
  await openFile(page, 'handbook.pdf', 'application/pdf', pdf);
  await expect.poll(() => getDocument(page), { message: 'the editor holds the 50 pages', timeout: 30_000 }).toBe(inNode.text);
  const ms = Date.now() - started;
  console.log(`50-page PDF (${pdf.length} bytes) opened in the page in ${ms} ms`);
  await expect(notice(page)).toContainText('50 pages of text from the PDF.');
});
