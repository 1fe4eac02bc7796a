import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, openApp, pasteDocument, urlParams } from './app';
import { makeDocument } from './documents';

// Projector mode: a header toggle and a URL flag; larger type, fewer marks at once, the similarity curve in bins
// with a readable card; and a layout with nothing cut at 1280×720 and 1024×768.

/** The painted semantic result's gaps and cuts (the page hook's `semantic()`). */
const pageSemantic = (page: Page) =>
  page.evaluate(() => (window.__chunkscope as unknown as { semantic(): { distances: number[]; breakpoints: number[] } }).semantic());

const editorFontSize = (page: Page) =>
  controls(page).editor.locator('.view-lines').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

/** Elements whose text is cut (their content is wider than their box) or that lie outside the window. */
async function cutElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selectors = [
      '.status-text', '.status-note', '.btn-sample', '.doc-name', '.stat dd', '.stat dt', '.legend', '.legend-toggle', '.actions .btn',
      '.section-title', '.semantic-facts', '.chunk-offsets', '.list-panel .panel-head .btn', '.list-panel .panel-head .muted',
    ];
    const cut: string[] = [];
    for (const selector of selectors) {
      for (const el of document.querySelectorAll<HTMLElement>(selector)) {
        const style = getComputedStyle(el);
        if (style.display === 'none' || el.offsetParent === null) continue;
        const box = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 || box.right > window.innerWidth + 1) cut.push(`${selector}: “${el.textContent?.trim()}”`);
      }
    }
    return cut;
  });
}

test('the header toggle (keyboard) and the URL flag switch projector mode: larger type, the flag in the link', async ({ page }) => {
  await openApp(page);
  const toggle = page.getByRole('button', { name: 'Projector', exact: true });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const normal = await editorFontSize(page);
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await urlParams(page, 'projector', '1');
  await expect(page.locator('.app.is-projector')).toHaveCount(1);
  await expect.poll(() => editorFontSize(page)).toBeGreaterThan(normal + 2);
  await page.keyboard.press('Space');
  await urlParams(page, 'projector', null);
  await expect.poll(() => editorFontSize(page)).toBe(normal);

  // A link opens in projector mode.
  await openApp(page, '/?projector=1');
  await expect(page.getByRole('button', { name: 'Projector', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('projector mode draws fewer marks: breadcrumbs where the section changes, injected text collapsed until shown', async ({ page }) => {
  await openApp(page, '/?strategy=markdown&headers=1&size=300');
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  const lines = controls(page).editor.locator('.view-lines');
  await expect(lines.locator('.cs-injected').first()).toBeVisible({ timeout: 30_000 });
  const fullInjected = await lines.locator('.cs-injected:not(.cs-injected-collapsed)').count();
  expect(fullInjected).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Projector', exact: true }).click();
  await expect(lines.locator('.cs-injected-collapsed').first()).toBeVisible();
  await expect(lines.locator('.cs-injected:not(.cs-injected-collapsed)')).toHaveCount(0);
  await expect(lines.locator('.cs-breadcrumb-same')).toHaveCount(0);
  await expect(lines.locator('.cs-injected-collapsed').first()).toHaveText(/⤷\sheader/);

  // The legend's toggle shows injected text in full again (and collapses it).
  const show = page.getByRole('button', { name: 'Show injected text', exact: true });
  await expect(show).toHaveAttribute('aria-pressed', 'false');
  await show.click();
  await expect(lines.locator('.cs-injected-collapsed')).toHaveCount(0);
  await expect(lines.locator('.cs-injected').first()).toBeVisible();
  await expect(show).toHaveAttribute('aria-pressed', 'true');
});

for (const [width, height] of [
  [1280, 720],
  [1024, 768],
] as const) {
  test(`nothing is cut at ${width}×${height}, in the normal view and in projector mode`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    for (const path of ['/?strategy=markdown&headers=1', '/?strategy=markdown&headers=1&projector=1', '/?strategy=semantic&projector=1']) {
      await openApp(page, path);
      if (!path.includes('semantic')) await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
      else await expect(page.locator('.semantic-facts')).toContainText('sentences', { timeout: 30_000 });
      await expect(controls(page).chunkCount).not.toHaveText('0');
      await expect.poll(() => cutElements(page), { message: `${path}: cut labels` }).toEqual([]);
      // The editor keeps most of the height: at least 20 lines of normal type (12 beside the similarity curve).
      const editorHeight = await controls(page).editor.evaluate((el) => el.getBoundingClientRect().height);
      expect(editorHeight).toBeGreaterThan((path.includes('semantic') ? 12 : 20) * 21);
    }
  });
}

test('the similarity curve bins points that would overlap; the hover card is opaque and follows the threshold', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, '/?projector=1');
  await pasteDocument(page, makeDocument(60_000, 7));
  await controls(page).strategy.selectOption('semantic');
  const curve = page.locator('svg[aria-label="Similarity curve"]');
  await expect(curve.locator('.cs-breakpoint-bin').first()).toBeAttached({ timeout: 60_000 });
  const semantic = await pageSemantic(page);
  const plotWidth = await curve.locator('.curve-overlay').evaluate((el) => (el as SVGRectElement).width.baseVal.value);
  expect(semantic.distances.length, 'more gaps than the plot has room for').toBeGreaterThan(plotWidth / 4);
  // One mark per 4-px bin at most, and no circle per gap.
  const bins = await curve.locator('.cs-breakpoint-bin').count();
  expect(bins).toBeLessThanOrEqual(Math.ceil(plotWidth / 4) + 1);
  expect(bins).toBeLessThanOrEqual(semantic.breakpoints.length);
  await expect(curve.locator('.cs-gap')).toHaveCount(0);

  // The threshold box shows the mode's value, not a placeholder.
  await expect(page.getByRole('spinbutton', { name: 'Threshold', exact: true })).toHaveValue('95');

  const overlay = curve.locator('.curve-overlay');
  const box = (await overlay.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  const card = page.getByTestId('curve-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText(/gap \d+ · distance/);
  const background = await card.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(background).toBe('rgb(255, 255, 255)');
  // Threshold to the top with the keyboard: no gap is cut any more, and the card under the pointer says so.
  await page.getByRole('slider', { name: 'Threshold', exact: true }).focus();
  await page.keyboard.press('End');
  await expect.poll(async () => (await pageSemantic(page)).breakpoints.length, { timeout: 30_000 }).toBe(0);
  await expect(curve.locator('.cs-breakpoint-bin')).toHaveCount(0);
  await expect(card).not.toContainText('cut here');
  // The context budget is counted after a semantic run (never "Counting tokens…" for good).
  await expect(page.getByTestId('context-budget')).toContainText('tokens =', { timeout: 30_000 });
});
