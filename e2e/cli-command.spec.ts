import { test, expect } from './fixtures';
import { controls, expectEngineChunks, openApp, pageOptions, pasteDocument, typeNumber } from './app';
import { cliCommandFor } from '../src/core/export/index';
import { validateOptions } from '../src/core/options';

// Copy as code → "chunkscope CLI": the corpus command for the page's configuration, marked exact.

test('Copy as code shows the chunkscope corpus command for the configuration', async ({ page }, testInfo) => {
  await openApp(page);
  await pasteDocument(page, "# Title\n\nOne paragraph here.\n\n## Part\n\nIt's another one.\n");
  const c = controls(page);
  await c.strategy.selectOption('recursive');
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 30);
  await expectEngineChunks(page);

  await page.getByRole('button', { name: 'Copy as code', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy as code' });
  await dialog.getByRole('combobox', { name: 'Target' }).selectOption({ label: 'chunkscope CLI' });
  const expected = cliCommandFor(validateOptions(await pageOptions(page)), { command: 'corpus', input: 'docs/', out: 'chunks/', to: 'lancedb:index/' });
  expect(expected).toContain('--size 300 --overlap 30');
  await expect(dialog.getByTestId('generated-code')).toHaveText(expected, { useInnerText: false });
  await expect(dialog.getByTestId('code-exactness')).toContainText('exactly');
  for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`cli-command-${width}.png`) });
  }
});
