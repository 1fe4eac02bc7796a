import { test, expect } from './fixtures';
import { controls, expectEngineChunks, openApp, pageOptions, structureControls, typeNumber, urlParams, waitForApp } from './app';
import type { Chunk } from '../src/core/types';

// Each control of the structure-aware strategies changes the chunks (checked against the engine run in Node on
// the same text and options), lands in the URL, and survives a reload. A value the engine refuses shows one line
// and keeps the last good chunks.

/** What a control can change: the spans, the content, and the retrieval structure (windows, levels, parents). */
const shape = (chunks: Chunk[]) =>
  JSON.stringify(chunks.map((c) => [c.start, c.end, c.content, c.metadata.window ?? null, c.metadata.level ?? null, c.metadata.parentId ?? null]));

test.describe.configure({ timeout: 120_000 });

test('markdown: heading depth, tables, compatibility modes, headers and retrieval units', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  const c = controls(page);
  const s = structureControls(page);
  await c.strategy.selectOption('markdown');
  await urlParams(page, 'strategy', 'markdown');
  let last = await expectEngineChunks(page);

  /** Change a control, then: the options say so, the URL says so, the page paints the engine's new chunks. */
  const step = async (what: string, act: () => Promise<unknown>, option: Record<string, unknown>, url: Record<string, string | null>) => {
    await act();
    await expect.poll(async () => pageOptions(page), { message: `${what}: options sent` }).toMatchObject(option);
    for (const [key, value] of Object.entries(url)) await urlParams(page, key, value);
    const now = await expectEngineChunks(page);
    expect(shape(now), `${what} changes the chunks`).not.toBe(shape(last));
    last = now;
  };

  await step('heading depth 1', () => s.headingDepth.selectOption('1'), { headingDepth: 1 }, { 'heading-depth': '1' });
  await step('heading depth 2', () => s.headingDepth.selectOption('2'), { headingDepth: 2 }, { 'heading-depth': '2' });
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 0);
  last = await expectEngineChunks(page);
  await step('tables as text', () => s.rowsAsText.check(), { rowsAsText: true }, { 'rows-as-text': '1' });
  await step('LangChain compatibility', () => c.compat.check(), { compat: 'langchain' }, { compat: 'langchain' });
  await step('strip headers off', () => s.stripHeaders.uncheck(), { stripHeaders: false }, { 'strip-headers': '0' });
  await step('one chunk per line', () => s.eachLine.check(), { returnEachLine: true }, { 'return-each-line': '1' });
  await step('LlamaIndex compatibility', () => s.llamaindex.check(), { compat: 'llamaindex' }, { compat: 'llamaindex', 'return-each-line': null });
  await step('native again', () => s.llamaindex.uncheck(), { strategy: 'markdown' }, { compat: null });
  await step('contextual header: heading path', () => s.header.selectOption('path'), { headers: true }, { headers: '1' });
  await step(
    'contextual header: template',
    async () => {
      await s.header.selectOption('custom');
      await s.headerTemplate.fill('{file}: {path}\\n');
    },
    { headers: '{file}: {path}\n', path: 'employee-handbook.md' },
    { headers: '{file}: {path}\\n' },
  );
  // Header content: every chunk with a heading path starts with it.
  expect(last.filter((x) => x.metadata.headingPath?.length).every((x) => x.content.startsWith('employee-handbook.md: '))).toBe(true);
  await step('header off', () => s.header.selectOption('off'), { strategy: 'markdown' }, { headers: null });

  await step('parent-child', () => s.retrieval.selectOption('parent-child'), { retrieval: 'parent-child' }, { retrieval: 'parent-child' });
  await step('parent size', () => typeNumber(s.parentSize, 600), { parentSize: 600 }, { 'parent-size': '600' });
  await step('sentence windows', () => s.retrieval.selectOption('window'), { retrieval: 'window', window: 3 }, { retrieval: 'window', window: null }); // 3 is the default: not in the link
  await step('window 1', () => typeNumber(s.window, 1), { window: 1 }, { window: '1' });
  await step('hierarchical', () => s.retrieval.selectOption('hierarchical'), { retrieval: 'hierarchical', levels: [2048, 512, 128] }, { retrieval: 'hierarchical' });
  await step('levels', () => s.levels.fill('1024, 256, 64'), { levels: [1024, 256, 64] }, { levels: '1024, 256, 64' });

  // Reload: the URL and the stored settings bring every control back, and the same chunks.
  const before = await pageOptions(page);
  await page.reload();
  await waitForApp(page);
  await expect(c.strategy).toHaveValue('markdown');
  await expect(s.headingDepth).toHaveValue('2');
  await expect(s.rowsAsText).toBeChecked();
  await expect(s.retrieval).toHaveValue('hierarchical');
  await expect(s.levels).toHaveValue('1024, 256, 64');
  expect(await pageOptions(page)).toEqual(before);
  expect(shape(await expectEngineChunks(page))).toBe(shape(last));

  // Levels not largest first: one line from core's validation, the last good chunks stay painted.
  const count = await c.chunkCount.textContent();
  await s.levels.fill('512, 2048');
  await expect(c.alert).toBeVisible();
  const message = (await c.alert.textContent()) ?? '';
  expect(message).toMatch(/level/i);
  expect(message.includes('\n')).toBe(false);
  await expect(c.chunkCount).toHaveText(count!);
  await s.levels.fill('1024, 256, 64');
  await expect(c.alert).toHaveCount(0);
});

test('html: heading depth, tables and headers on the API reference sample; reload restores them', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: API reference (HTML)', exact: true }).click();
  const c = controls(page);
  const s = structureControls(page);
  await c.strategy.selectOption('html');
  await typeNumber(c.sizeBox, 400);
  let last = await expectEngineChunks(page);
  // The tables have captions, kept with the table.
  expect(last.some((x) => x.metadata.contentType === 'table' && x.metadata.caption === 'Shipment fields')).toBe(true);
  for (const [what, act, key, value] of [
    ['heading depth 1', () => s.headingDepth.selectOption('1'), 'heading-depth', '1'],
    ['tables as text', () => s.rowsAsText.check(), 'rows-as-text', '1'],
    ['header', () => s.header.selectOption('path'), 'headers', '1'],
  ] as const) {
    await act();
    await urlParams(page, key, value);
    const now = await expectEngineChunks(page);
    expect(shape(now), `${what} changes the chunks`).not.toBe(shape(last));
    last = now;
  }
  await page.reload();
  await waitForApp(page);
  await expect(s.headingDepth).toHaveValue('1');
  await expect(s.rowsAsText).toBeChecked();
  await expect(s.header).toHaveValue('path');
  expect(shape(await expectEngineChunks(page))).toBe(shape(last));
});

test('code: language and file path', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Python module', exact: true }).click();
  const c = controls(page);
  const s = structureControls(page);
  await c.strategy.selectOption('code');
  await typeNumber(c.sizeBox, 600);
  let last = await expectEngineChunks(page);
  expect((await pageOptions(page)).path).toBe('invoices.py');
  // The file path is part of each chunk's prefix.
  await s.filePath.fill('billing/invoices.py');
  await urlParams(page, 'path', 'billing/invoices.py');
  let now = await expectEngineChunks(page);
  expect(shape(now)).not.toBe(shape(last));
  last = now;
  // Forcing another grammar on Python source changes where it is cut.
  await s.codeLanguage.selectOption('go');
  await urlParams(page, 'language', 'go');
  now = await expectEngineChunks(page);
  expect(shape(now)).not.toBe(shape(last));
  await page.reload();
  await waitForApp(page);
  await expect(s.codeLanguage).toHaveValue('go');
  await expect(s.filePath).toHaveValue('billing/invoices.py');
});
