import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, getDocument, openApp, optionsFromControls, pasteDocument, typeNumber, waitForApp } from './app';
import { makeDocument } from './documents';
import { importDocument } from '../src/import/index';

// Issue 12, items 1 and 2: the installed/offline app (service worker) and share links that carry the document.
// Each test runs in a fresh browser context, so a service worker installed by one test never serves another.

// The other specs block the service worker (playwright.config.ts); these need it.
test.use({ serviceWorkers: 'allow' });

const fixture = (name: string) => readFileSync(new URL(`./files/${name}`, import.meta.url));

async function openFile(page: Page, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

/** Waits until the service worker has cached the whole app and controls the page. */
async function waitForOfflineReady(page: Page): Promise<{ files: number }> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined, null, { timeout: 60_000 });
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const channel = new MessageChannel();
    const answer = new Promise<{ files: number }>((resolve) => (channel.port1.onmessage = (e) => resolve(e.data as { files: number })));
    registration.active!.postMessage({ type: 'VERSION' }, [channel.port2]);
    return answer;
  });
}

/** Every status line the header shows from now on (the built-in model must never say "Downloading"). */
async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __statusSeen: string[] }).__statusSeen = seen;
    const node = document.querySelector('[data-testid="status"]')!;
    seen.push(node.textContent ?? '');
    new MutationObserver(() => seen.push(node.textContent ?? '')).observe(node, { childList: true, characterData: true, subtree: true });
  });
}
const statusSeen = (page: Page) => page.evaluate(() => (window as unknown as { __statusSeen: string[] }).__statusSeen);

/** "Copy link" with the clipboard captured (headless Chromium has no clipboard to read back). */
async function copyLink(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __copied: string | null }).__copied = null;
    navigator.clipboard.writeText = async (text: string) => {
      (window as unknown as { __copied: string | null }).__copied = text;
    };
  });
  await page.getByRole('button', { name: 'Copy link', exact: true }).click();
}
const copied = (page: Page) => page.evaluate(() => (window as unknown as { __copied: string | null }).__copied);

async function freshPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const origin = new URL(baseURL ?? 'http://localhost:4317').origin;
  const foreign: string[] = [];
  context.on('request', (r) => {
    if (!/^(data|blob):/.test(r.url()) && new URL(r.url()).origin !== origin) foreign.push(r.url());
  });
  const page = await context.newPage();
  foreignRequests.set(page, foreign);
  return page;
}

const foreignRequests = new WeakMap<Page, string[]>();
/** Closes a fresh page's context after checking that none of its requests left the origin. */
async function closeChecked(page: Page): Promise<void> {
  expect(foreignRequests.get(page), 'requests that left the origin').toEqual([]);
  await page.context().close();
}

const notice = (page: Page) => page.locator('.notice[role="status"]');

test('after one visit the app opens offline: tokenizer ranks, grammars, the DOCX reader and the built-in model work', async ({ page, context }) => {
  test.setTimeout(180_000);
  await openApp(page);
  const { files } = await waitForOfflineReady(page);
  expect(files, 'the service worker precaches the whole build').toBeGreaterThan(50);
  await expect(page.getByTestId('offline-status')).toContainText('Works offline');

  await context.setOffline(true);
  await page.reload();
  await waitForApp(page);
  // Chromium 150 keeps blocking the network after a reload the service worker answered, but the reloaded page's
  // navigator.onLine says true until the emulation is applied again (seen with Debian's chromium 150.0.7871).
  await context.setOffline(false);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-status')).toContainText('Offline');
  await recordStatus(page);

  // Tokenizer ranks (a lazily loaded chunk of the chunk worker).
  const text = makeDocument(6_000, 3);
  await pasteDocument(page, text);
  const c = controls(page);
  await c.unit.selectOption('o200k_base');
  await typeNumber(c.sizeBox, 120);
  await typeNumber(c.overlapBox, 10);
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  // A strategy the chunk worker loads on first use (only the default one is in its first chunk): Node's chunks.
  await c.strategy.selectOption('sentence');
  await expectPainted(page, await expectedChunks(text, await optionsFromControls(page)));

  // A tree-sitter grammar (wasm) for the code strategy.
  const python = 'def greet(name):\n    return f"hello {name}"\n\n\nclass Greeter:\n    def run(self):\n        pass\n'.repeat(20);
  await openFile(page, 'greeter.py', 'text/x-python', Buffer.from(python));
  await expect.poll(() => getDocument(page)).toBe(python);
  await c.strategy.selectOption('code');
  await expect(c.chunkCount).not.toHaveText('0', { timeout: 30_000 });
  await expect(page.getByTestId('status')).toHaveText(/chunks? in/, { timeout: 30_000 });

  // The DOCX reader (mammoth, loaded on first use).
  const docx = fixture('expense-guide.docx');
  const inNode = await importDocument('expense-guide.docx', new Uint8Array(docx), { dropPageFurniture: true });
  await openFile(page, 'expense-guide.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx);
  await expect.poll(() => getDocument(page), { timeout: 30_000 }).toBe(inNode.text);

  // The built-in model: the semantic strategy paints its curve and chunks, offline.
  await pasteDocument(page, text);
  await c.strategy.selectOption('semantic');
  await expect(page.locator('svg[aria-label="Similarity curve"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('status')).toHaveText(/chunks? in/, { timeout: 60_000 });
  expect(Number(await c.chunkCount.textContent())).toBeGreaterThan(0);
  const seen = await statusSeen(page);
  expect(seen.filter((s) => /Downloading/.test(s)), 'the built-in model is local: it never "downloads"').toEqual([]);
  expect(seen.filter((s) => /Settings invalid/.test(s)), 'offline is never an invalid setting').toEqual([]);

  // What is available offline, said plainly.
  await page.getByTestId('offline-status').locator('summary').click();
  const panel = page.getByRole('region', { name: 'Available offline' });
  await expect(panel).toContainText('You are offline');
  await expect(panel).toContainText('The app: saved for offline use');
  await expect(panel).toContainText('Built-in model (chunkscope-static-en): available offline');
  await expect(panel).toContainText('Hub models: none downloaded in this browser');
  await context.setOffline(false);
});

test('a share link carries the document: opened in a fresh browser it shows the same document and chunks', async ({ page, browser, baseURL }) => {
  await openApp(page);
  const text = makeDocument(7_000, 21);
  await pasteDocument(page, text);
  const c = controls(page);
  await c.strategy.selectOption('recursive');
  await typeNumber(c.sizeBox, 150);
  await typeNumber(c.overlapBox, 15);
  const options = await optionsFromControls(page);
  const expected = await expectedChunks(text, options);
  await expectPainted(page, expected);
  await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('150');

  await copyLink(page);
  await expect(page.getByRole('button', { name: 'Copy link', exact: true })).toHaveText('Link copied');
  const link = (await copied(page))!;
  const url = new URL(link);
  expect(url.searchParams.get('strategy')).toBe('recursive');
  expect(url.hash).toMatch(/^#v=2&len=\d+&crc=[0-9a-f]{8}&doc=/);
  expect(url.hash.length).toBeLessThanOrEqual(32_001);

  const other = await freshPage(browser, baseURL);
  const requests: string[] = [];
  other.on('request', (r) => requests.push(r.url()));
  await other.goto(link);
  await waitForApp(other);
  expect(await getDocument(other)).toBe(text);
  await expect(controls(other).strategy).toHaveValue('recursive');
  await expectPainted(other, expected);
  await expect(notice(other)).toHaveCount(0);
  // The fragment never reaches the server, and leaves the address bar once applied (a reload keeps later edits).
  expect(requests.some((r) => r.includes('doc='))).toBe(false);
  await expect.poll(() => new URL(other.url()).hash).toBe('');
  await closeChecked(other);
});

test('a settings-only link says that the document shown is not the link’s', async ({ browser, baseURL }) => {
  const other = await freshPage(browser, baseURL);
  const response = await other.goto('/?strategy=recursive&size=200');
  await waitForApp(other);
  // Isolation: a fresh context has no service worker from an earlier test; the first load comes from the server
  // (the new one may claim the page soon after it loads, so its controller is no test of that).
  expect(response?.fromServiceWorker()).toBe(false);
  await expect(notice(other)).toContainText('This link carries settings only');
  await expect(controls(other).sizeBox).toHaveValue('200');
  // A reload of the same tab is not a newly opened link: no notice.
  await other.reload();
  await waitForApp(other);
  await expect(controls(other).sizeBox).toHaveValue('200');
  await expect(notice(other)).toHaveCount(0);
  await closeChecked(other);
});

test('a document too large for a link offers a share file that opens the same view', async ({ page, browser, baseURL }) => {
  await openApp(page);
  // ~150 KB of generated prose: well past 32,000 characters once compressed.
  const text = Array.from({ length: 24 }, (_, i) => makeDocument(6_000, 100 + i)).join('\n');
  await pasteDocument(page, text);
  const c = controls(page);
  await c.strategy.selectOption('sentence');
  await typeNumber(c.sizeBox, 300);
  const expected = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, expected);
  await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('300');

  await copyLink(page);
  const alert = page.getByTestId('share-too-large');
  await expect(alert).toContainText('too large for a link');
  await expect(alert).toContainText('links carry up to 32,000');
  expect(await copied(page)).toBeNull();
  const [download] = await Promise.all([page.waitForEvent('download'), alert.getByRole('button', { name: 'Download share file' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.chunkscope\.json$/);
  const body = readFileSync((await download.path())!);

  const other = await freshPage(browser, baseURL);
  await other.goto('/');
  await waitForApp(other);
  await openFile(other, download.suggestedFilename(), 'application/json', body);
  await expect.poll(() => getDocument(other), { timeout: 30_000 }).toBe(text);
  await expect(controls(other).strategy).toHaveValue('sentence');
  await expect(controls(other).sizeBox).toHaveValue('300');
  await expectPainted(other, expected);
  await expect(notice(other)).toContainText('Opened the share file');
  await closeChecked(other);
});
