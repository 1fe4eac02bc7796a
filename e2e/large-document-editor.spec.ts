import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, getDocument, openApp, pasteDocument } from './app';

// A document over a million characters enters Monaco piece by piece (and the build changes how Monaco's view
// appends lines, vite.config.ts): every line must still be where it belongs, and the text Monaco holds must be
// exactly the paste.

const LINES = 40_000;
const lineText = (i: number) => `Line ${i}: a large paste enters the editor in pieces ✓`;

/** The line numbers and texts Monaco draws now, paired by their vertical position. */
async function drawnLines(page: Page): Promise<{ number: number; text: string }[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('[data-testid="editor"]')!;
    const topOf = (el: Element) => Math.round(parseFloat((el as HTMLElement).style.top || '0'));
    const numbers = new Map<number, number>();
    for (const el of editor.querySelectorAll('.margin-view-overlays .line-numbers')) numbers.set(topOf(el.parentElement!), Number(el.textContent));
    return [...editor.querySelectorAll('.view-lines .view-line')]
      .map((el) => {
        // Without the chunk labels and breadcrumbs the page injects (they are not document text).
        const copy = el.cloneNode(true) as Element;
        for (const label of copy.querySelectorAll('.cs-chunk-label, .cs-breadcrumb, .cs-injected, .cs-parent-label, .cs-summary-label')) label.remove();
        return { number: numbers.get(topOf(el)) ?? -1, text: (copy.textContent ?? '').replace(/\u00a0/g, ' ') };
      })
      .sort((a, b) => a.number - b.number);
  });
}

test('a large paste shows its first chunks while the rest of it is still loading, then all of them', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const text = Array.from({ length: LINES }, (_, i) => lineText(i)).join('\n');
  const paintsBefore = await page.evaluate(() => performance.getEntriesByName('chunkscope:paint').length);
  await pasteDocument(page, text);
  await expect(page.getByText(/Loading document/)).toHaveCount(0, { timeout: 60_000 });
  const { paints, loaded } = await page.evaluate((before) => {
    const end = (e: PerformanceEntry) => e.startTime + e.duration;
    return {
      paints: performance.getEntriesByName('chunkscope:paint').slice(before).map(end),
      loaded: end(performance.getEntriesByName('chunkscope:set-text').at(-1)!),
    };
  }, paintsBefore);
  // One paint while the pieces were still going in (the lines already loaded), one once the whole text was in.
  expect(paints.length).toBeGreaterThanOrEqual(2);
  expect(paints[0]).toBeLessThan(loaded);
  expect(paints.at(-1)).toBeGreaterThanOrEqual(loaded);
  // The first chunk is drawn from the first line.
  await expect(controls(page).editor.locator('.cs-chunk-label').first()).toBeVisible();
  const first = await drawnLines(page);
  expect(first[0]).toEqual({ number: 1, text: lineText(0) });
});

test('a 2 MB paste is drawn line for line at its start, middle and end, and Monaco holds exactly the pasted text', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const text = Array.from({ length: LINES }, (_, i) => lineText(i)).join('\n');
  expect(text.length).toBeGreaterThan(1_000_000);
  await pasteDocument(page, text);
  // The load ends when the header stops saying so and the editor takes keys again.
  await expect(page.getByText(/Loading document/)).toHaveCount(0, { timeout: 60_000 });
  // The sample's chunks, shown dimmed while the paste was chunked, have given way to the paste's, within reach.
  await expect(page.getByTestId('stats-previous')).toHaveCount(0);
  await expect(page.getByRole('listbox', { name: /chunk/i }).getByRole('option').first()).toContainText(lineText(0).slice(0, 20));
  await expect(page.locator('section.list-panel')).not.toHaveAttribute('inert');

  const expectDrawnInOrder = async (where: string) => {
    const drawn = await drawnLines(page);
    expect(drawn.length, `lines drawn at the ${where}`).toBeGreaterThan(5);
    for (const line of drawn) expect(line.text, `line ${line.number} at the ${where}`).toBe(lineText(line.number - 1));
    return drawn;
  };
  await controls(page).editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  const end = await expectDrawnInOrder('end');
  expect(end.at(-1)!.number).toBe(LINES);
  // The middle: a click halfway down the vertical scrollbar's track jumps there.
  const track = await page.locator('[data-testid="editor"] .editor-scrollable > .scrollbar.vertical').boundingBox();
  await page.mouse.click(track!.x + track!.width / 2, track!.y + track!.height / 2);
  await expect.poll(async () => (await drawnLines(page))[0]?.number ?? 0).toBeGreaterThan(LINES / 4);
  await expect.poll(async () => (await drawnLines(page))[0]?.number ?? 0).toBeLessThan((LINES * 3) / 4);
  await expectDrawnInOrder('middle');
  await page.keyboard.press('ControlOrMeta+Home');
  const start = await expectDrawnInOrder('start');
  expect(start[0]!.number).toBe(1);

  // Typing at the end: the document becomes Monaco's whole text, which must be the paste plus the keys.
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' typed');
  await expect.poll(() => getDocument(page).then((d) => d.length), { timeout: 30_000 }).toBe(text.length + ' typed'.length);
  expect(await getDocument(page)).toBe(text + ' typed');
});
