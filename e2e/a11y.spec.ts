import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, openApp } from './app';

// axe-core on the three views a workshop uses: the main view, a structure-aware result (breadcrumbs, injected
// headers, tables) and the semantic view (the similarity curve). No serious or critical violation may remain.

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    // Serious and critical, and two moderate ones the issue named: landmarks of one name, no h1.
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'landmark-unique' || v.id === 'page-has-heading-one')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${n.failureSummary?.replace(/\s+/g, ' ')})`).join(' | ')}`);
}

test('main view', async ({ page }) => {
  await openApp(page);
  await expect(controls(page).chunkCount).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('structure view: the handbook as markdown with contextual headers and parent–child units', async ({ page }) => {
  await openApp(page, '/?strategy=markdown&headers=1&retrieval=parent-child');
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  await expect(controls(page).strategy).toHaveValue('markdown');
  await expect(controls(page).chunkCount).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The embedded content of a chunk opens from the keyboard: Enter on the list toggles the selected chunk's.
  const list = controls(page).chunkList;
  await list.focus();
  await page.keyboard.press('Home');
  const row = list.locator('[data-index="0"]');
  await expect(row).toHaveAttribute('aria-label', /Enter shows the embedded content/);
  await page.keyboard.press('Enter');
  await expect(row.getByLabel('Embedded content')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(row.getByLabel('Embedded content')).toHaveCount(0);
});

test('semantic view: the similarity curve', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, '/?strategy=semantic');
  await expect(page.locator('svg[aria-label="Similarity curve"] .cs-breakpoint').first()).toBeAttached({ timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);
});
