import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { getDocument, openApp } from './app';

/**
 * Issue 29: a file that starts with a byte-order mark, or is UTF-16, opens with a small notice that says so, and
 * its text is exactly what Node's readFileSync(f, 'utf8') (UTF-8) or a UTF-16 decoder gives: the mark is kept as
 * U+FEFF at offset 0. The one decoding rule is src/import/decode.ts (decodeDocumentBytes), which the page's
 * importer calls; the page shows the importer's notes.
 */

const notice = (page: Page) => page.locator('.notice[role="status"]');

async function openFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles({ name, mimeType: 'text/plain', buffer });
}

test('a UTF-8 file with a BOM opens with the mark kept at offset 0 and a notice', async ({ page }) => {
  await openApp(page);
  const text = '# Notes\n\nBody text.\n';
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  await openFile(page, 'bom.md', bytes);
  await expect(notice(page)).toContainText('byte-order mark');
  expect(await getDocument(page)).toBe(bytes.toString('utf8'));
  expect((await getDocument(page)).charCodeAt(0)).toBe(0xfeff);
});

test('a UTF-16 file with a BOM is decoded and the notice names the encoding', async ({ page }) => {
  await openApp(page);
  const text = 'Vacation: 25 days.\nSick leave: 10 days.\n';
  await openFile(page, 'policy-utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  await expect(notice(page)).toContainText('UTF-16');
  expect(await getDocument(page)).toBe(`\ufeff${text}`);
});

test('a plain UTF-8 file opens without an encoding notice', async ({ page }) => {
  await openApp(page);
  await openFile(page, 'plain.txt', Buffer.from('Plain text.\n', 'utf8'));
  await expect.poll(() => getDocument(page)).toBe('Plain text.\n');
  await expect(notice(page)).toHaveCount(0);
});
