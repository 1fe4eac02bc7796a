import { expect, test } from '@playwright/test';
import { FIRST_SAMPLE } from '../src/ui/samples';
import { getDocument, openApp } from './app';

// The parts the first paint does not need load on first use (docs/first-visit.md): a sample's text, the share-link
// codec, the file reader, the lab's jobs. One that cannot be fetched (offline before the service worker cached it)
// says so in one line, and the page and its document stay as they were.

test('a sample whose text cannot be fetched says so in one line; the document stays; another sample opens on the first click', async ({ page }) => {
  await page.route(/\/assets\/sourceFile-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Source file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The sample “Source file” could not be loaded' })).toBeVisible();
  expect(await getDocument(page)).toBe(FIRST_SAMPLE.text);

  await page.getByRole('button', { name: 'Sample: Python module' }).click();
  await expect.poll(() => getDocument(page)).toContain('def ');
  await expect(page.getByRole('button', { name: 'Sample: Python module' })).toHaveAttribute('aria-pressed', 'true');
});

test('"Copy link" whose codec cannot be fetched says so in one line', async ({ page }) => {
  await page.route(/\/assets\/shareLink-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
  await openApp(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The share-link code could not be loaded' })).toBeVisible();
  expect(await getDocument(page)).toBe(FIRST_SAMPLE.text);
});
