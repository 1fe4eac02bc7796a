import type { Page } from '@playwright/test';
import { controls, expectedChunks, getDocument, openApp } from './app';
import { expect, test } from './fixtures';
import type { ChunkOptions } from '../src/core/types';

/**
 * Structure drawn in the page, with the markdown sample (a policy handbook) and the markdown strategy:
 * breadcrumbs on chunks in the editor and in the list, equal to the heading ancestry of the text at each chunk's
 * start (worked out here from the document's own ATX headings, not from the engine); the contextual header shown
 * as injected text that looks different from the source; parent bands and parent rows with parent–child units.
 * The header and retrieval settings come through the configuration link (?hdr=path, ?ret=parent-child).
 */

/** Heading ancestry at every offset of a markdown document with ATX headings and no code fences (the sample). */
function headingAncestry(text: string): (offset: number) => string[] {
  const headings: { at: number; depth: number; title: string }[] = [];
  const pattern = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) headings.push({ at: m.index, depth: m[1]!.length, title: m[2]! });
  return (offset) => {
    const stack: { depth: number; title: string }[] = [];
    for (const h of headings) {
      if (h.at > offset) break;
      while (stack.length && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
      stack.push(h);
    }
    return stack.map((h) => h.title);
  };
}

/** First non-blank offset at or after `start` (headingPath is taken there). */
function firstNonBlank(text: string, start: number): number {
  let at = start;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

async function openMarkdownSample(page: Page, query: string): Promise<{ text: string; options: ChunkOptions }> {
  await openApp(page, `/?${query}`);
  await page.getByRole('button', { name: 'Policy handbook' }).click();
  const c = controls(page);
  if ((await c.strategy.inputValue()) !== 'markdown') await c.strategy.selectOption('markdown');
  await expect(c.strategy).toHaveValue('markdown');
  const text = await getDocument(page);
  expect(text.startsWith('# Northwind Labs Employee Handbook')).toBe(true);
  const options = (await page.evaluate(() => window.__chunkscope!.getConfig())) as ChunkOptions;
  return { text, options };
}

test('breadcrumbs on every chunk in the list and in the editor equal the heading ancestry at the chunk start', async ({ page }) => {
  const { text, options } = await openMarkdownSample(page, 'strategy=markdown&size=400&overlap=0');
  const expected = await expectedChunks(text, options);
  const c = controls(page);
  await expect(c.chunkCount).toHaveText(String(expected.length));
  const ancestry = headingAncestry(text);
  // The legend names the breadcrumbs now drawn (and no parent bands: there are none).
  await expect(page.locator('.legend')).toContainText('breadcrumb');
  await expect(page.locator('.legend')).not.toContainText('parent');

  // The list: each rendered row's breadcrumb (full path, also in its title) is the ancestry at its start.
  await expect(c.chunkList.getByRole('option').first().locator('.cs-breadcrumb')).toHaveText('Northwind Labs Employee Handbook');
  const rows = await c.chunkList.getByRole('option').evaluateAll((items) =>
    items.map((item) => ({
      start: Number(item.getAttribute('data-start')),
      crumb: item.querySelector('.cs-breadcrumb')?.textContent ?? null,
      title: item.querySelector('.cs-breadcrumb')?.getAttribute('title') ?? null,
    })),
  );
  expect(rows.length).toBeGreaterThan(3);
  for (const row of rows) {
    const path = ancestry(firstNonBlank(text, row.start)).join(' › ');
    expect(row.crumb, `breadcrumb of the chunk at ${row.start}`).toBe(path);
    expect(row.title ?? '').toBe(path);
  }
  // The editor: the injected breadcrumb right after each chunk label that Monaco renders on the same line.
  await expect(c.editor.locator('.cs-breadcrumb').first()).toBeAttached();
  const drawn = await c.editor.locator('.view-lines .cs-chunk-label').evaluateAll((labels) =>
    labels.map((label) => {
      const next = label.nextElementSibling;
      return { index: Number.parseInt(label.textContent ?? '', 10), crumb: next?.className.includes('cs-breadcrumb') ? next.textContent : null, same: next?.className.includes('cs-breadcrumb-same') ?? false };
    }),
  );
  const withCrumb = drawn.filter((d) => d.crumb !== null);
  expect(withCrumb.length, 'labels with a breadcrumb next to them in the editor').toBeGreaterThan(2);
  for (const d of withCrumb) {
    const path = ancestry(firstNonBlank(text, expected[d.index]!.start));
    // The first chunk of a section shows the whole path; the later ones "› innermost title" (possibly shortened).
    // Monaco wraps long injected text like any text: the part on the label's line is where the path starts.
    const crumb = d.crumb!.replace(/\u00a0/g, ' ').trim();
    expect(crumb.length).toBeGreaterThan(0);
    if (d.same) expect(`› ${path.at(-1)!}`.startsWith(crumb.replace(/…$/, ''))).toBe(true);
    else expect(path.join(' › ').startsWith(crumb), `"${crumb}" begins "${path.join(' › ')}"`).toBe(true);
  }
  const firstCrumb = withCrumb.find((d) => d.index === 0);
  expect(firstCrumb?.crumb?.replace(/\u00a0/g, ' ').trim()).toBe('Northwind Labs Employee Handbook');

  // A row further down, scrolled into view by the keyboard, shows a deeper path.
  await c.chunkList.focus();
  const deep = expected.findIndex((ch) => ancestry(firstNonBlank(text, ch.start)).length === 3);
  for (let i = 0; i <= deep; i++) await page.keyboard.press('ArrowDown');
  const deepRow = c.chunkList.locator(`[data-index="${deep}"] .cs-breadcrumb`);
  await expect(deepRow).toHaveText(ancestry(firstNonBlank(text, expected[deep]!.start)).join(' › '));
});

test('a contextual header is injected text, drawn unlike the source, and shown in the chunk content', async ({ page }) => {
  const { text, options } = await openMarkdownSample(page, 'strategy=markdown&size=400&overlap=0&hdr=path');
  expect(options.headers).toBeTruthy();
  const expected = await expectedChunks(text, options);
  const c = controls(page);
  await expect(c.chunkCount).toHaveText(String(expected.length));
  const first = expected[0]!;
  const prefix = first.metadata.prefix!;
  expect(first.content).toBe(prefix + first.text);

  // The editor: the prefix before the first chunk's text, as one line, marked and styled apart from the source.
  const injected = c.editor.locator('.view-lines .cs-injected').first();
  await expect(injected).toBeVisible();
  expect((await injected.textContent())!.replace(/\u00a0/g, ' ').trim()).toBe(`⤷ ${prefix.trim().replace(/\n+/g, ' ↵ ')}`);
  const looks = await injected.evaluate((el) => {
    const source = [...el.parentElement!.children].find((s) => !s.className.includes('cs-') && (s.textContent ?? '').trim().length > 0);
    const a = getComputedStyle(el);
    const b = source ? getComputedStyle(source) : null;
    return { style: a.fontStyle, background: a.backgroundImage, edges: a.boxShadow, sourceStyle: b?.fontStyle, sourceColor: b?.color, color: a.color };
  });
  expect(looks.style).toBe('italic');
  expect(looks.sourceStyle).toBe('normal');
  expect(looks.background).toContain('gradient');
  expect(looks.edges).not.toBe('none');
  expect(looks.color).not.toBe(looks.sourceColor);
  // The injected text is not part of the document.
  expect(await getDocument(page)).toBe(text);

  // The list: size says how much of it is the header; "Show content" shows what is embedded, the prefix marked.
  const row = c.chunkList.locator('[data-index="0"]');
  await expect(row.locator('.chunk-size')).toContainText(`(${first.metadata.prefixSize} header)`);
  await row.getByTestId('content-toggle').click();
  const content = row.getByLabel('Embedded content');
  await expect(content.locator('.cs-injected')).toHaveText(prefix);
  await expect(content.locator('pre')).toHaveText(first.content);
});

test('parent–child units: parents drawn as bands and list groups; counts are of the children', async ({ page }) => {
  const { text, options } = await openMarkdownSample(page, 'strategy=markdown&size=200&overlap=0&ret=parent-child&psize=800');
  expect(options.retrieval).toBe('parent-child');
  const all = await expectedChunks(text, options);
  const leaves = all.filter((ch) => ch.metadata.leaf);
  const parents = all.filter((ch) => ch.metadata.leaf === false);
  expect(parents.length).toBeGreaterThan(1);
  const c = controls(page);
  await expect(c.chunkCount).toHaveText(String(leaves.length));
  await expect(page.getByTestId('parent-count')).toHaveText(`${parents.length} parents · ${leaves.length} children`);
  await expect(page.locator('.legend')).toContainText('parent');

  // Editor: a band (gutter bar) and a label for the first parent; leaves tinted as chunks are.
  await expect(c.editor.locator('.margin .cs-parent').first()).toBeAttached();
  await expect(c.editor.locator('.view-lines .cs-parent-label', { hasText: 'P0' })).toBeVisible();
  await expect(c.editor.locator('.cs-chunk-even').first()).toBeAttached();

  // List: the first parent's row, then its children, which carry its heading path.
  const parentRow = c.chunkList.locator('[data-parent="0"]');
  await expect(parentRow).toContainText('P0');
  const children = leaves.filter((ch) => ch.metadata.parentId === parents[0]!.id).length;
  await expect(parentRow).toContainText(`${children} ${children === 1 ? 'child' : 'children'}`);
  const listed = await c.chunkList
    .getByRole('option')
    .evaluateAll((items) => items.map((i) => [Number(i.getAttribute('data-index')), Number(i.getAttribute('data-start')), Number(i.getAttribute('data-end'))]));
  expect(listed.length).toBeGreaterThan(2);
  for (const [index, start, end] of listed) expect([start, end]).toEqual([leaves[index!]!.start, leaves[index!]!.end]);
});

test('sentence windows: selecting a sentence highlights its window, which stays inside its section', async ({ page }) => {
  const { text, options } = await openMarkdownSample(page, 'strategy=markdown&size=300&overlap=0&ret=window&win=1');
  expect(options.retrieval).toBe('window');
  const sentences = await expectedChunks(text, options);
  const c = controls(page);
  await expect(c.chunkCount).toHaveText(String(sentences.length));
  await expect(c.editor.locator('.cs-window')).toHaveCount(0);
  // The third sentence of the opening section: its window reaches one sentence on each side.
  const pick = 2;
  const window = sentences[pick]!.metadata.window!;
  expect(window.start).toBeLessThan(sentences[pick]!.start);
  await c.chunkList.locator(`[data-index="${pick}"]`).click();
  // Drawn behind the text (Monaco's overlay layer), one piece per rendered line of the window.
  await expect(c.editor.locator('.view-overlays .cs-window').first()).toBeVisible();
  const pieces = await c.editor.locator('.view-overlays .cs-window').count();
  const lines = text.slice(window.start, window.end).split('\n').length;
  expect(pieces).toBeGreaterThanOrEqual(1);
  expect(pieces).toBeLessThanOrEqual(lines * 4); // wrapped lines add pieces; never the whole document
  const windowText = text.slice(window.start, window.end);
  expect(windowText).toContain(sentences[pick]!.text);
  expect(windowText).not.toContain('## 1.'); // the next section's heading is outside the window
});
