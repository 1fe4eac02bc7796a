import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { SHARE_TEXT_CAP, decodeShareFragment, encodeLegacyShareFragment, encodeShareFragment } from '../src/state/shareLink';
import './hook';
import { random } from './documents';

/**
 * Issue 29: the page against hostile share links, generated from a seed (FUZZ_SEED, default 29; FUZZ_LINKS cases,
 * default 104) so a failure is reproducible. Every link is opened by a real navigation of one reused page; what the
 * page must do is what the page's own decoder (src/state/shareLink.ts) says of the link, run here in Node:
 *   - a link it refuses: a one-line notice ("This link is damaged…" or "…larger than 8 MB…") and the person's
 *     document still shown, no offer to restore (nothing was replaced);
 *   - a link it opens: exactly the link's text, and "Restore my previous document" brings the person's back.
 * Each case also asserts a rendered page (never blank); the fixture asserts no request left the origin and no
 * uncaught exception. Kinds: valid (version 2), old format, truncated, bit-flipped, huge, empty, wrong version,
 * old-format junk.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 29);
const COUNT = Number(process.env.FUZZ_LINKS ?? 104);
const MINE = 'My own notes: vacation is 25 days.\n\nDo not lose this.\n';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

interface LinkCase {
  kind: string;
  fragment: string;
}

function generateLinks(seed: number, count: number): LinkCase[] {
  const rnd = random(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const words = ['policy', 'Vacation', 'días', '日本語', '🧩', '<script>alert(1)</script>', '# Heading', '\n\n', '\r\n', '|a|b|', '\u202e', '\u0000', 'x'];
  const text = () => Array.from({ length: 1 + int(300) }, () => pick(words)).join(' ');
  const name = () => (rnd() < 0.5 ? null : pick(['notes.md', 'a b&c=d#e.txt', '<img src=x onerror=alert(1)>.md', `${'long-'.repeat(300)}.py`]));
  const payloadStart = (f: string) => f.indexOf('doc=') + 4;
  const kinds: ((i: number) => LinkCase)[] = [
    () => ({ kind: 'valid', fragment: encodeShareFragment({ text: text(), name: name() }) }),
    () => ({ kind: 'old format', fragment: encodeLegacyShareFragment({ text: text(), name: name() }) }),
    () => {
      const f = encodeShareFragment({ text: text(), name: null });
      return { kind: 'truncated', fragment: f.slice(0, payloadStart(f) + int(f.length - payloadStart(f))) };
    },
    () => {
      const f = encodeShareFragment({ text: text(), name: null });
      const at = payloadStart(f) + int(f.length - payloadStart(f));
      const symbol = ALPHABET.replace(f[at]!, '')[int(63)]!;
      return { kind: 'bit-flipped', fragment: f.slice(0, at) + symbol + f.slice(at + 1) };
    },
    (i) => {
      // The first is the 1.9 M × 'Q'; the rest are shorter, so the run stays quick.
      if (i < 8) return { kind: 'huge', fragment: `doc=${'Q'.repeat(1_900_000)}` };
      const length = 32_001 + int(200_000);
      if (rnd() < 0.5) return { kind: 'huge', fragment: `doc=${'Q'.repeat(length)}` };
      return { kind: 'huge', fragment: `v=2&len=${SHARE_TEXT_CAP + 1 + int(1e6)}&crc=00000000&doc=${'Q'.repeat(1000 + int(5000))}` };
    },
    () => ({ kind: 'empty', fragment: pick(['doc=', 'v=2', 'v=2&len=0&crc=00000000&doc=', 'doc=&name=x.md', 'v=2&doc=', 'v=&doc=']) }),
    () => {
      const f = encodeShareFragment({ text: text(), name: null });
      return { kind: 'wrong version', fragment: f.replace('v=2', `v=${pick(['0', '1', '3', '99', 'abc', '2.0', '%00'])}`) };
    },
    () => ({ kind: 'old-format junk', fragment: `doc=${Array.from({ length: 1 + int(3000) }, () => ALPHABET[int(64)]).join('')}` }),
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!(i));
}

/** What the page must do with a link: its decoder's verdict. */
function verdict(fragment: string): { opens: string } | { refuses: string } {
  try {
    const doc = decodeShareFragment(fragment);
    if (!doc) throw new Error(`not a shared document: ${fragment.slice(0, 40)}`);
    return { opens: doc.text };
  } catch (err) {
    if (!(err instanceof Error) || err.name !== 'ShareLinkError') throw err;
    return { refuses: err.message };
  }
}

async function expectRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => typeof window.__chunkscope?.getDocument === 'function');
  await expect(page.locator('#root .app header').first()).toBeVisible();
}

const documentOf = (page: Page) => page.evaluate(() => window.__chunkscope!.getDocument());

/** One link opened by a real navigation of `page`: the page does what the decoder says of it. */
async function openCase(page: Page, i: number, link: LinkCase, tally: Record<string, { opened: number; refused: number }>): Promise<void> {
  const what = `case ${i} (${link.kind}, seed ${SEED}): #${link.fragment.slice(0, 80)}`;
  const expected = verdict(link.fragment);
  // A new query each time: a change of fragment alone would not reload the page.
  await page.goto(`/?case=${i}#${link.fragment}`, { waitUntil: 'commit' });
  await expectRendered(page);
  const banner = page.getByTestId('previous-document');
  const entry = (tally[link.kind] ??= { opened: 0, refused: 0 });
  if ('refuses' in expected) {
    entry.refused++;
    expect(expected.refuses, what).toMatch(/^(This link is damaged: .+\. Nothing was opened\.|The link’s document is larger than 8 MB; it was not opened\.)$/);
    await expect(page.locator('.notice').filter({ hasText: expected.refuses }), what).toBeVisible();
    expect(await documentOf(page), what).toBe(MINE);
    await expect(banner, what).toBeHidden();
    return;
  }
  entry.opened++;
  expect(await documentOf(page), what).toBe(expected.opens);
  if (expected.opens === MINE) return;
  await banner.getByRole('button', { name: 'Restore my previous document' }).click();
  await expect.poll(() => documentOf(page), { message: what }).toBe(MINE);
  await expect(banner, what).toBeHidden();
}

test('generated share links: each opens exactly its document or is refused in one line; the person’s document is never lost', async ({ browser, baseURL }) => {
  test.setTimeout(170_000);
  const links = generateLinks(SEED, COUNT);
  if (process.env.FUZZ_LINKS === undefined) expect(links.length).toBeGreaterThanOrEqual(100);
  const origin = new URL(baseURL!).origin;
  const tally: Record<string, { opened: number; refused: number }> = {};
  // Lanes: a browser context each (storage of its own), one page reused for its share of the links; a page load
  // waits mostly on the page's own start, so lanes side by side keep the run short.
  const lanes = Number(process.env.FUZZ_LANES ?? 4);
  const offOrigin: string[] = [];
  const pageErrors: string[] = [];
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      const context = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 1400, height: 900 } });
      context.on('request', (r) => {
        if (!/^(data|blob):/.test(r.url()) && new URL(r.url()).origin !== origin) offOrigin.push(r.url());
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto('/');
      await expectRendered(page);
      await page.evaluate((text) => window.__chunkscope!.setDocument(text), MINE);
      for (let i = lane; i < links.length; i += lanes) await openCase(page, i, links[i]!, tally);
      await context.close();
    }),
  );
  console.log(`share-link fuzz, seed ${SEED}: ${links.length} links`, JSON.stringify(tally));
  expect(offOrigin, 'requests that left the origin').toEqual([]);
  expect(pageErrors, 'uncaught exceptions in the page').toEqual([]);
  // The damaged kinds were all refused, the good ones all opened.
  for (const kind of ['truncated', 'huge', 'empty', 'wrong version']) expect(tally[kind]?.opened ?? 0, kind).toBe(0);
  expect(tally.valid!.refused + tally['old format']!.refused).toBe(0);
});

test('the offer to restore outlives a reload, and Dismiss ends it', async ({ page }) => {
  await page.goto('/');
  await expectRendered(page);
  await page.evaluate((text) => window.__chunkscope!.setDocument(text), MINE);
  await page.goto(`/?x=1#${encodeShareFragment({ text: 'A shared document', name: 'shared.md' })}`);
  await expectRendered(page);
  expect(await documentOf(page)).toBe('A shared document');
  const banner = page.getByTestId('previous-document');
  await expect(banner).toBeVisible();
  await page.reload();
  await expectRendered(page);
  expect(await documentOf(page)).toBe('A shared document');
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toBeHidden();
  await page.reload();
  await expectRendered(page);
  await expect(banner).toBeHidden();
  expect(await documentOf(page)).toBe('A shared document');
});

test('a file name over 1,000 characters is shortened for display and never makes the settings invalid', async ({ page }) => {
  await page.goto('/?strategy=markdown&headers=1');
  await expectRendered(page);
  const name = `${'a-very-long-file-name-'.repeat(60)}.md`;
  expect(name.length).toBeGreaterThan(1000);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles({ name, mimeType: 'text/markdown', buffer: Buffer.from('# Title\n\nBody text under the title.\n') });
  await expect.poll(() => documentOf(page)).toBe('# Title\n\nBody text under the title.\n');
  const shown = (await page.locator('.doc-name').textContent()) ?? '';
  expect(shown.length).toBeLessThanOrEqual(120);
  expect(shown).toMatch(/^a-very-long-file-name-.*….*\.md$/);
  // The name is the engine's path (headers use it): the configuration the page sends must be valid.
  await expect.poll(() => page.evaluate(() => String(window.__chunkscope!.getConfig().path ?? ''))).toMatch(/^a-very-long-file-name-.*….*\.md$/);
  await expect(page.getByTestId('chunk-count')).toHaveText(/^[1-9]/);
  await page.waitForTimeout(1000);
  await expect(page.getByText(/Settings invalid/)).toHaveCount(0);
});
