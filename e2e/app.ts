import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { chunk } from '../src/core/index';
import { nodeLoadWasm } from '../src/node/loadWasm';
import type { Chunk, ChunkOptions } from '../src/core/types';
import './hook';

/**
 * Page helpers written against the page <-> e2e contract (/work/brief/contracts.md): controls by accessible
 * name, data-testid="chunk-count", the "Chunks" listbox, Monaco decoration classes and window.__chunkscope.
 * Expected chunks always come from running the real engine (src/core) in Node on the same text and options.
 */

export function controls(page: Page) {
  return {
    strategy: page.getByRole('combobox', { name: 'Strategy', exact: true }),
    unit: page.getByRole('combobox', { name: 'Unit', exact: true }),
    sizeSlider: page.getByRole('slider', { name: 'Chunk size', exact: true }),
    sizeBox: page.getByRole('spinbutton', { name: 'Chunk size value', exact: true }),
    overlapSlider: page.getByRole('slider', { name: 'Overlap', exact: true }),
    overlapBox: page.getByRole('spinbutton', { name: 'Overlap value', exact: true }),
    separators: page.getByRole('textbox', { name: 'Separators', exact: true }),
    keepSeparator: page.getByRole('combobox', { name: 'Keep separator', exact: true }),
    language: page.getByRole('combobox', { name: 'Language preset', exact: true }),
    compat: page.getByRole('checkbox', { name: 'LangChain compatibility', exact: true }),
    contextWindow: page.getByRole('spinbutton', { name: 'Context window', exact: true }),
    chunksInContext: page.getByRole('spinbutton', { name: 'Chunks in context', exact: true }),
    chunkCount: page.getByTestId('chunk-count'),
    chunkList: page.getByRole('listbox', { name: 'Chunks', exact: true }),
    editor: page.getByTestId('editor'),
    // Monaco keeps its own empty screen-reader live regions (.monaco-alert); the page's message is the other one.
    alert: page.getByRole('alert').and(page.locator(':not(.monaco-alert)')),
  };
}

/** Opens the app and waits until Monaco and the test hook are there. */
export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await waitForApp(page);
}

export async function waitForApp(page: Page): Promise<void> {
  await expect(page.getByTestId('editor').locator('.monaco-editor')).toBeVisible();
  await waitForHook(page);
}

/** The page's test hook is there (the app defines it once it runs: after a reload, not at once). */
function waitForHook(page: Page): Promise<unknown> {
  return page.waitForFunction(() => typeof window.__chunkscope?.getDocument === 'function');
}

/** The document the page holds (after a reload too: it waits for the hook). */
export async function getDocument(page: Page): Promise<string> {
  await waitForHook(page);
  return page.evaluate(() => window.__chunkscope!.getDocument());
}

/**
 * Replaces the editor's content the way a person does: click into the editor, select all, paste. The paste
 * is a real `paste` ClipboardEvent on the element Monaco listens on (its EditContext node or textarea).
 */
export async function pasteDocument(page: Page, text: string): Promise<void> {
  const { editor } = controls(page);
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((content) => {
    const target = document.activeElement;
    if (!target) throw new Error('nothing focused after clicking into the editor');
    const data = new DataTransfer();
    data.setData('text/plain', content);
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  await expect.poll(() => getDocument(page), { message: 'the editor holds the pasted document' }).toBe(text);
}

/** Options as the visible controls show them. Separators only when the test typed them itself. */
export async function optionsFromControls(page: Page, separators?: string[]): Promise<ChunkOptions> {
  const c = controls(page);
  const options: ChunkOptions = {
    strategy: (await c.strategy.inputValue()) as ChunkOptions['strategy'],
    unit: (await c.unit.inputValue()) as ChunkOptions['unit'],
    size: Number(await c.sizeBox.inputValue()),
    overlap: Number(await c.overlapBox.inputValue()),
  };
  if (await c.keepSeparator.isVisible()) {
    options.keepSeparator = (await c.keepSeparator.inputValue()) as ChunkOptions['keepSeparator'];
  }
  if (await c.language.isVisible()) {
    const language = await c.language.inputValue();
    if (language && language !== 'none') options.language = language;
  }
  if ((await c.compat.isVisible()) && (await c.compat.isChecked())) options.compat = 'langchain';
  if (separators) options.separators = separators;
  return options;
}

/** The chunks the engine produces for this text and options, computed in Node (grammars for the code strategy
 * read from node_modules, as the CLI does). */
export function expectedChunks(text: string, options: ChunkOptions): Promise<Chunk[]> {
  return chunk(text, options, { loadWasm: nodeLoadWasm });
}

interface ListedChunk {
  index: number;
  start: number;
  end: number;
}

async function listedChunks(list: Locator): Promise<ListedChunk[]> {
  return list.getByRole('option').evaluateAll((items) =>
    items.map((item) => ({
      index: Number(item.getAttribute('data-index')),
      start: Number(item.getAttribute('data-start')),
      end: Number(item.getAttribute('data-end')),
    })),
  );
}

/**
 * Waits until the page shows exactly `expected`: the count, every chunk the (virtualized) list renders at
 * its index with the engine's offsets, and chunk backgrounds drawn in the editor.
 */
export async function expectPainted(page: Page, expected: Chunk[]): Promise<void> {
  const c = controls(page);
  // Generous: the first use of a token unit loads and parses its ranks in the worker (slow on 2 busy cores).
  await expect(c.chunkCount).toHaveText(String(expected.length), { timeout: 30_000 });
  await expect
    .poll(
      async () => {
        const listed = await listedChunks(c.chunkList);
        if (expected.length > 0 && listed.length === 0) return 'the list shows no chunk';
        const wrong = listed.filter((item) => {
          const want = expected[item.index];
          return !want || want.start !== item.start || want.end !== item.end;
        });
        return wrong.length === 0
          ? 'ok'
          : `list items that differ from the engine: ${JSON.stringify(wrong.slice(0, 3))}; engine: ${JSON.stringify(
              wrong.slice(0, 3).map((item) => expected[item.index] && [expected[item.index]!.start, expected[item.index]!.end]),
            )}`;
      },
      { message: 'the chunk list matches the engine' },
    )
    .toBe('ok');
  if (expected.length > 0) {
    await expect(c.editor.locator('.cs-chunk-even').first()).toBeAttached();
    await expect(c.editor.locator('.cs-chunk-label').first()).toBeAttached();
  }
  // Monaco renders only the lines in view: look for the second chunk's colour when it starts near the top.
  const second = expected[1];
  if (second && second.start < 1_500 && (expected[0]!.text.slice(0, second.start - expected[0]!.start).match(/\n/g)?.length ?? 0) < 15) {
    await expect(c.editor.locator('.cs-chunk-odd').first()).toBeAttached();
  }
}

/** Sets a number box the way a person types into it. */
export async function typeNumber(box: Locator, value: number): Promise<void> {
  await box.fill(String(value));
  await box.press('Tab');
}

/** Controls of the structure-aware strategies, contextual headers and retrieval units (by accessible name). */
export function structureControls(page: Page) {
  return {
    headingDepth: page.getByRole('combobox', { name: 'Heading depth', exact: true }),
    rowsAsText: page.getByRole('checkbox', { name: 'Tables as column: value text', exact: true }),
    llamaindex: page.getByRole('checkbox', { name: 'LlamaIndex compatibility', exact: true }),
    stripHeaders: page.getByRole('checkbox', { name: 'Strip headers', exact: true }),
    eachLine: page.getByRole('checkbox', { name: 'One chunk per line', exact: true }),
    header: page.getByRole('combobox', { name: 'Contextual header', exact: true }),
    headerTemplate: page.getByRole('textbox', { name: 'Header template', exact: true }),
    retrieval: page.getByRole('combobox', { name: 'Retrieval units', exact: true }),
    parentSize: page.getByRole('spinbutton', { name: 'Parent size', exact: true }),
    window: page.getByRole('spinbutton', { name: 'Window (sentences each side)', exact: true }),
    levels: page.getByRole('textbox', { name: 'Levels', exact: true }),
    codeLanguage: page.getByRole('combobox', { name: 'Code language', exact: true }),
    filePath: page.getByRole('textbox', { name: 'File path', exact: true }),
  };
}

/** The options the page sends to its worker (window.__chunkscope.getConfig()). */
export async function pageOptions(page: Page): Promise<ChunkOptions> {
  return page.evaluate(() => window.__chunkscope!.getConfig() as ChunkOptions);
}

/**
 * Waits until the page shows the engine's chunks for its current text and options, computed in Node, and returns
 * them. With retrieval units the count is of the leaves (what a pipeline embeds) and only the count is compared.
 */
export async function expectEngineChunks(page: Page): Promise<Chunk[]> {
  const options = await pageOptions(page);
  const expected = await expectedChunks(await getDocument(page), options);
  if (options.retrieval && options.retrieval !== 'chunks') {
    const leaves = expected.filter((c) => c.metadata.leaf !== false);
    await expect(controls(page).chunkCount).toHaveText(String(leaves.length), { timeout: 30_000 });
  } else {
    await expectPainted(page, expected);
  }
  return expected;
}

/** Query parameters of the page's address once the configuration has been written into it. */
export async function urlParams(page: Page, key: string, value: string | null): Promise<void> {
  await expect.poll(() => new URL(page.url()).searchParams.get(key), { message: `URL ${key}=${value}` }).toBe(value);
}

/** Download what an export button gives: its suggested file name and its text. */
export async function downloadFrom(page: Page, button: string): Promise<{ name: string; body: string }> {
  const { readFileSync } = await import('node:fs');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return { name: download.suggestedFilename(), body: readFileSync((await download.path())!, 'utf8') };
}
