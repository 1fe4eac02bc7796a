import { expect, test } from './fixtures';
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

test.describe('offline after one visit', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the lazy parts come from the service worker: a sample’s text, the lab’s panel and jobs', async ({ page, context }) => {
    test.setTimeout(120_000);
    await openApp(page);
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 60_000 });
    await expect(page.getByTestId('offline-status')).toContainText('Works offline', { timeout: 60_000 });
    await context.setOffline(true);
    await page.reload();
    await openApp(page);
    // (Chromium keeps blocking the network after a reload the service worker answered; applied again, as in
    // offline-and-share.spec.ts.)
    await context.setOffline(false);
    await context.setOffline(true);

    await page.getByRole('button', { name: 'Sample: Meeting transcript' }).click();
    await expect.poll(() => getDocument(page)).toContain('Third item, the evaluation set');
    await expect(page.getByRole('button', { name: 'Sample: Meeting transcript' })).toHaveAttribute('aria-pressed', 'true');

    // The lab's panel and jobs (and the worker's retrieval): a probe ranks the chunks.
    await page.getByRole('button', { name: 'Evaluation lab' }).click();
    await page.getByRole('searchbox', { name: 'Question' }).fill('evaluation questions');
    await expect(page.getByTestId('probe-hits').locator('li').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('could not be loaded')).toHaveCount(0);
  });
});
