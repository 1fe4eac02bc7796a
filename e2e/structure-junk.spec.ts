import { test, expect } from './fixtures';
import { controls, expectEngineChunks, openApp, typeNumber, urlParams, waitForApp } from './app';

// Structure output without junk, in the page: HTML chunks' content is text (no tags, no <head>/<style>) unless
// "Keep raw HTML in content" is ticked; "Min fragment" lands in the link and changes the cuts.

test.describe.configure({ timeout: 120_000 });

test('html: text content by default, raw HTML on request; min fragment in the link; reload restores them', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: API reference (HTML)', exact: true }).click();
  const c = controls(page);
  await c.strategy.selectOption('html');
  await typeNumber(c.sizeBox, 300);
  const text = await expectEngineChunks(page);
  for (const chunk of text) {
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.content).not.toMatch(/<\/?(p|h\d|table|tr|td|th|section|div|style|script|head)\b/);
  }
  expect(text.some((x) => /<style|<head/.test(x.text))).toBe(false);

  const raw = page.getByRole('checkbox', { name: 'Keep raw HTML in content', exact: true });
  await raw.check();
  await urlParams(page, 'raw-html', '1');
  const rawChunks = await expectEngineChunks(page);
  expect(rawChunks.some((x) => /<\/?(p|h\d|table|tr)\b/.test(x.content))).toBe(true);

  const minFragment = page.getByRole('spinbutton', { name: 'Min fragment', exact: true });
  await expect(minFragment).toHaveAttribute('placeholder', 'size / 4');
  await typeNumber(minFragment, 0);
  await urlParams(page, 'min-fragment', '0');
  await expectEngineChunks(page);

  await page.reload();
  await waitForApp(page);
  await expect(raw).toBeChecked();
  await expect(minFragment).toHaveValue('0');
});
