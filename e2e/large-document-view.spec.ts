import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { getDocument, openApp, pasteDocument } from './app';

// A document over 4 Mi characters is shown in the read-only view (only the lines on screen are drawn) until the
// person asks for the editor: its text must be exactly the document's, its chunks where the engine put them.

const LINES = 100_000;
const lineText = (i: number) => `Line ${i}: too large for the editor, drawn by the read-only view ✓`;

/** The view's drawn runs: each carries the document offset of its first character. */
async function drawnRuns(page: Page): Promise<{ from: number; text: string }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="large-view"] [data-from]')].map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelector('.cs-chunk-label')?.remove(); // the chunk number is not document text
      return { from: Number(el.dataset.from), text: copy.textContent ?? '' };
    }),
  );
}

/** "#12 · 512 chars … 1,024–1,536": the selected row's chunk range. */
async function selectedRange(page: Page): Promise<[number, number]> {
  const text = (await page.getByRole('listbox', { name: 'Chunks', exact: true }).locator('[aria-selected="true"]').first().textContent()) ?? '';
  const m = text.match(/([\d,]+)–([\d,]+)/)!;
  return [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))];
}

test('a document over 4 Mi characters is shown read-only, exactly, with its chunks, and goes into the editor on request', async ({ page, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  const text = Array.from({ length: LINES }, (_, i) => lineText(i)).join('\n');
  expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
  await pasteDocument(page, text);
  const view = page.getByTestId('large-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('Read-only view');
  await expect(page.getByTestId('editor').locator('.monaco-editor')).toBeHidden();

  // The chunks arrive and are drawn; every drawn run is the document's text at its offset.
  await expect(view.locator('.cs-chunk-label').first()).toHaveText('0', { timeout: 60_000 });
  await expect(page.getByTestId('stats-previous')).toHaveCount(0);
  const expectExact = async (where: string) => {
    const runs = await drawnRuns(page);
    expect(runs.length, `runs drawn at the ${where}`).toBeGreaterThan(5);
    const slices = await page.evaluate((list) => list.map((r) => window.__chunkscope!.getDocument().slice(r.from, r.from + r.text.length)), runs);
    runs.forEach((run, i) => expect(run.text, `run at ${run.from} (${where})`).toBe(slices[i]));
    return runs;
  };
  const first = await expectExact('start');
  expect(first[0]!.text.startsWith(lineText(0).slice(0, 20))).toBe(true);

  // The list's last chunk scrolls the view to the end of the document.
  const list = page.getByRole('listbox', { name: 'Chunks', exact: true });
  await list.getByRole('option').first().click();
  await page.keyboard.press('End');
  const count = Number((await page.getByTestId('chunk-count').textContent())!.replace(/,/g, ''));
  await expect(view.locator('.cs-chunk-label', { hasText: new RegExp(`^${count - 1}$`) })).toBeVisible();
  await expect(view.locator('.cs-chunk-selected').first()).toBeVisible();
  const end = await expectExact('end');
  expect(end.at(-1)!.text.endsWith(lineText(LINES - 1).slice(-20))).toBe(true);

  // A click on the text selects the chunk that holds it.
  const target = view.locator('[data-from]').nth(3);
  const from = Number(await target.getAttribute('data-from'));
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
  await expect.poll(async () => (await selectedRange(page))[0] <= from && from < (await selectedRange(page))[1]).toBe(true);

  // "Edit in the editor": Monaco takes the whole text.
  await view.getByRole('button', { name: 'Edit in the editor' }).click();
  await expect(view).toHaveCount(0);
  await expect(page.getByText(/Loading document/)).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText(lineText(0).slice(0, 20));
  expect(await getDocument(page)).toBe(text);

  // Pasted again it is read-only again; a real Ctrl+V in the view replaces the whole document.
  await pasteDocument(page, text + '\nagain');
  await expect(view).toBeVisible();
  await page.evaluate(() => navigator.clipboard.writeText('A short note pasted over the large document.'));
  await view.locator('.lv-scroller').click();
  await page.keyboard.press('ControlOrMeta+V');
  await expect.poll(() => getDocument(page)).toBe('A short note pasted over the large document.');
  await expect(view).toHaveCount(0);
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('A short note pasted');
});
