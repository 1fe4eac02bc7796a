import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, openApp, pasteDocument, typeNumber, urlParams } from './app';

// The page follows the document it is given: its name, its colouring, its kind's strategy; switching strategy
// never changes another setting for good; a notice goes with the document it is about.

const fixture = (name: string) => readFileSync(new URL(`./files/${name}`, import.meta.url));
const notice = (page: Page) => page.locator('.notice[role="status"]');
const docName = (page: Page) => page.locator('.editor-bar .doc-name');
const editorLanguage = (page: Page) => controls(page).editor.locator('[data-mode-id]').first().getAttribute('data-mode-id');

async function openFile(page: Page, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

test('a paste over the sample is a document of its own: no sample name, plain colouring, the person’s strategy', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  await expect(c.strategy).toHaveValue('markdown');
  await expect(docName(page)).toHaveText('employee-handbook.md');
  await expect.poll(() => editorLanguage(page)).toBe('markdown');
  await expect(page.getByRole('button', { name: 'Sample: Policy handbook', exact: true })).toHaveAttribute('aria-pressed', 'true');

  await pasteDocument(page, '# Not a handbook\n\nMy own notes, pasted over the sample. '.repeat(40));
  await expect(docName(page)).toHaveText('Pasted text');
  await expect.poll(() => editorLanguage(page)).toBe('plaintext');
  await expect(page.getByRole('button', { name: 'Sample: Policy handbook', exact: true })).toHaveAttribute('aria-pressed', 'false');
  // The sample's markdown was the sample's; the pasted text gets the strategy the person had (the default).
  await expect(c.strategy).toHaveValue('recursive');
});

test('samples carry their strategy: the HTML sample runs as html, the transcript goes back to the person’s own', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  await c.strategy.selectOption('sentence');
  await page.getByRole('button', { name: 'Sample: API reference (HTML)', exact: true }).click();
  await expect(c.strategy).toHaveValue('html');
  await urlParams(page, 'strategy', 'html');
  await expect.poll(() => editorLanguage(page)).toBe('html');
  await page.getByRole('button', { name: 'Sample: Python module', exact: true }).click();
  await expect(c.strategy).toHaveValue('code');
  await page.getByRole('button', { name: 'Sample: Meeting transcript', exact: true }).click();
  await expect(c.strategy).toHaveValue('sentence');
});

/** Holds the requests for a sample's lazy text until `release()`; `requested` counts them. */
async function holdSampleText(page: Page, module: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = { requested: 0, release };
  await page.route(new RegExp(`/assets/${module}-[^/]*\\.js$`), async (route) => {
    hold.requested++;
    await held;
    await route.continue();
  });
  return hold;
}

test('a sample whose text is still on its way keeps what the person does meanwhile: a strategy chosen, a later sample', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  // A strategy chosen while the HTML sample loads is the person's: the sample opens under it, not under html.
  const html = await holdSampleText(page, 'apiReference');
  await page.getByRole('button', { name: 'Sample: API reference (HTML)', exact: true }).click();
  await expect.poll(() => html.requested).toBe(1);
  await c.strategy.selectOption('sentence');
  await expect(docName(page)).toHaveText('employee-handbook.md');
  html.release();
  await expect(docName(page)).toHaveText('parcelpost-api.html');
  await expect.poll(() => editorLanguage(page)).toBe('html');
  await expect(c.strategy).toHaveValue('sentence');
  await urlParams(page, 'strategy', 'sentence');

  // A sample clicked while another still loads is the one that opens, whichever text arrives first.
  const source = await holdSampleText(page, 'sourceFile');
  const python = await holdSampleText(page, 'pythonModule');
  await page.getByRole('button', { name: 'Sample: Source file', exact: true }).click();
  await expect.poll(() => source.requested).toBe(1);
  await page.getByRole('button', { name: 'Sample: Python module', exact: true }).click();
  await expect.poll(() => python.requested).toBe(1);
  const sourceArrived = page.waitForResponse(/\/assets\/sourceFile-[^/]*\.js$/);
  source.release();
  await sourceArrived;
  await page.waitForTimeout(200); // the earlier click's text has arrived: it must not open
  await expect(docName(page)).toHaveText('parcelpost-api.html');
  python.release();
  await expect(docName(page)).toHaveText('invoices.py');
  await expect(page.getByRole('button', { name: 'Sample: Python module', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('a PDF opened after an HTML file is not split by the HTML splitter, and the HTML file’s notice goes', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  await openFile(page, 'guide.html', 'text/html', Buffer.from('<h1>Guide</h1><p>Some text under a heading.</p><h2>More</h2><p>And more.</p>'));
  await expect(c.strategy).toHaveValue('html');
  await expect(notice(page)).toContainText('“guide.html”: Strategy switched to html');
  await openFile(page, 'travel-policy.pdf', 'application/pdf', fixture('travel-policy.pdf'));
  await expect(docName(page)).toHaveText('travel-policy.pdf');
  await expect(c.strategy).toHaveValue('recursive');
  await expect(notice(page)).toContainText('travel-policy.pdf');
  await expect(notice(page)).not.toContainText('guide.html');
});

test('choosing Token brings cl100k only while Token is chosen; switching back restores the unit', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  await c.unit.selectOption('words');
  await c.strategy.selectOption('token');
  await expect(c.unit).toHaveValue('cl100k_base');
  await c.strategy.selectOption('recursive');
  await expect(c.unit).toHaveValue('words');
  await urlParams(page, 'unit', 'words');
});

test('the settings-only banner belongs to the document it was about and goes with it', async ({ page }) => {
  await openApp(page, '/?strategy=paragraph&size=300');
  await expect(notice(page)).toContainText('This link carries settings only');
  await page.getByRole('button', { name: 'Sample: Multilingual', exact: true }).click();
  await expect(notice(page)).toHaveCount(0);
  // The link's strategy was the person's (a link is a choice): a plain-text sample keeps it.
  await expect(controls(page).strategy).toHaveValue('paragraph');
});

test('a notice floats over the editor: coming and going, it moves and resizes nothing, and Dismiss is reachable', async ({ page }) => {
  await openApp(page, '/?strategy=paragraph&size=300');
  await expect(notice(page)).toBeVisible();
  const editor = controls(page).editor;
  const [withNotice, box] = [await editor.boundingBox(), await notice(page).boundingBox()];
  // Inside the editor's foot, clear of its edges (where the scrollbars are).
  expect(box!.y + box!.height).toBeLessThanOrEqual(withNotice!.y + withNotice!.height);
  expect(box!.y).toBeGreaterThan(withNotice!.y + withNotice!.height / 2);
  expect(box!.x).toBeGreaterThan(withNotice!.x);
  expect(box!.x + box!.width).toBeLessThan(withNotice!.x + withNotice!.width);
  await notice(page).getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice(page)).toHaveCount(0);
  expect(await editor.boundingBox()).toEqual(withNotice);
});

test('the stats follow the document’s languages: characters per token, tokens per word, the size in words', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Multilingual', exact: true }).click();
  // Chunks of about one paragraph each, so most chunks are of one language (mixed ones are left out and counted).
  await typeNumber(controls(page).sizeBox, 150);
  const stats = page.getByTestId('language-stats');
  await expect(stats).toBeVisible({ timeout: 30_000 });
  await expect(stats.locator('summary')).toContainText('detected');
  const rows = stats.locator('tbody tr');
  await expect.poll(() => rows.count()).toBeGreaterThan(3);
  const english = rows.filter({ hasText: 'English' });
  const japanese = rows.filter({ hasText: 'Japanese' });
  const cell = async (row: typeof english, i: number) => Number((await row.locator('td').nth(i).textContent())!.replace(/[^\d.]/g, ''));
  // English packs more characters into a cl100k token than Japanese, so 512 characters hold fewer Japanese words.
  expect(await cell(english, 0)).toBeGreaterThan(await cell(japanese, 0));
  await expect(english.locator('td').nth(2)).toContainText('words');
  // A one-language document shows one row.
  await pasteDocument(page, 'The ferry leaves at seven, whatever the weather, and the harbour master writes it down.\n\n'.repeat(20));
  await expect(stats.locator('summary')).toContainText('English');
  await expect(rows).toHaveCount(1);
});
