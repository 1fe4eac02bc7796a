import { test, expect } from './fixtures';
import {
  controls,
  expectPainted,
  expectedChunks,
  getDocument,
  openApp,
  optionsFromControls,
  pasteDocument,
  typeNumber,
  waitForApp,
} from './app';
import { makeDocument } from './documents';

// The configuration travels in the URL (a link someone shares); the document stays in the browser.

const text = makeDocument(9_000, 11);
// Typed into the "Separators" box one per line, escapes written out as a person would type them.
const separators = ['\n\n', '\n', '.'];
const separatorsTyped = '\\n\\n\n\\n\n.';

test('a share link restores every control and the same chunks', async ({ page, context }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);

  await c.strategy.selectOption('recursive');
  await c.unit.selectOption('words');
  await typeNumber(c.sizeBox, 120);
  await typeNumber(c.overlapBox, 20);
  await c.separators.fill(separatorsTyped);
  await c.separators.press('Tab');
  await c.keepSeparator.selectOption('end');

  const options = await optionsFromControls(page, separators);
  expect(options).toMatchObject({ strategy: 'recursive', unit: 'words', size: 120, overlap: 20, keepSeparator: 'end' });
  const expected = await expectedChunks(text, options);
  await expectPainted(page, expected);

  // The URL now holds the configuration under the CLI's flags, one `separators` per separator.
  await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('120');
  const shared = new URL(page.url());
  expect(shared.searchParams.get('strategy')).toBe('recursive');
  expect(shared.searchParams.get('unit')).toBe('words');
  expect(shared.searchParams.get('overlap')).toBe('20');
  expect(shared.searchParams.get('keep-separator')).toBe('end');
  expect(shared.searchParams.getAll('separators')).toEqual(separators);

  const shownBefore = {
    strategy: await c.strategy.inputValue(),
    unit: await c.unit.inputValue(),
    size: await c.sizeBox.inputValue(),
    sizeSlider: await c.sizeSlider.inputValue(),
    overlap: await c.overlapBox.inputValue(),
    overlapSlider: await c.overlapSlider.inputValue(),
    separators: await c.separators.inputValue(),
    keep: await c.keepSeparator.inputValue(),
    compat: await c.compat.isChecked(),
  };

  // Open the link in a new tab: every control as it was, the same chunks painted.
  const opened = await context.newPage();
  await opened.goto(shared.toString());
  await waitForApp(opened);
  const o = controls(opened);
  await expect(o.strategy).toHaveValue(shownBefore.strategy);
  await expect(o.unit).toHaveValue(shownBefore.unit);
  await expect(o.sizeBox).toHaveValue(shownBefore.size);
  await expect(o.sizeSlider).toHaveValue(shownBefore.sizeSlider);
  await expect(o.overlapBox).toHaveValue(shownBefore.overlap);
  await expect(o.overlapSlider).toHaveValue(shownBefore.overlapSlider);
  await expect(o.separators).toHaveValue(shownBefore.separators);
  await expect(o.keepSeparator).toHaveValue(shownBefore.keep);
  expect(await o.compat.isChecked()).toBe(shownBefore.compat);
  expect(await getDocument(opened)).toBe(text);
  await expectPainted(opened, expected);
});

test('a share link restores the language preset and LangChain compatibility', async ({ page, context }) => {
  await openApp(page);
  const source = 'def greet(name):\n    return f"hello {name}"\n\n\nclass Greeter:\n    def run(self):\n        pass\n'.repeat(30);
  await pasteDocument(page, source);
  const c = controls(page);
  await c.strategy.selectOption('recursive');
  await c.language.selectOption('python');
  await c.compat.check();
  await typeNumber(c.sizeBox, 150);
  await typeNumber(c.overlapBox, 0);
  const options = await optionsFromControls(page);
  expect(options).toMatchObject({ language: 'python', compat: 'langchain', size: 150, overlap: 0 });
  const expected = await expectedChunks(source, options);
  await expectPainted(page, expected);

  await expect.poll(() => new URL(page.url()).searchParams.get('language')).toBe('python');
  expect(new URL(page.url()).searchParams.get('compat')).toBeTruthy();

  const opened = await context.newPage();
  await opened.goto(page.url());
  await waitForApp(opened);
  const o = controls(opened);
  await expect(o.language).toHaveValue('python');
  await expect(o.compat).toBeChecked();
  await expect(o.sizeBox).toHaveValue('150');
  await expect(o.overlapBox).toHaveValue('0');
  await expectPainted(opened, expected);
});

test('reloading the page keeps the document and the configuration', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 300);
  await typeNumber(c.overlapBox, 30);
  const expected = await expectedChunks(text, await optionsFromControls(page));
  await expectPainted(page, expected);

  // A person does not reload within a second of pasting; give the store that long to write.
  await page.waitForTimeout(1_000);
  await page.reload();
  await waitForApp(page);
  await expect.poll(() => getDocument(page), { message: 'the document survives a reload' }).toBe(text);
  await expect(c.sizeBox).toHaveValue('300');
  await expect(c.overlapBox).toHaveValue('30');
  await expectPainted(page, expected);
});

test('an old share link (short keys from before the option table) opens with the same controls', async ({ page }) => {
  const source = 'def greet(name):\n    return f"hello {name}"\n\n\nclass Greeter:\n    def run(self):\n        pass\n'.repeat(30);
  await openApp(page);
  await pasteDocument(page, source);
  const c = controls(page);
  await page.waitForTimeout(1_000); // the pasted document is saved off the hot path
  await page.goto('/?strategy=recursive&size=150&overlap=0&unit=chars&sep=%0A%0A&sep=%0A&keep=start&lang=python&compat=langchain&ctx=4096&k=3');
  await waitForApp(page);
  await expect(c.language).toHaveValue('python');
  await expect(c.compat).toBeChecked();
  await expect(c.sizeBox).toHaveValue('150');
  await expect(c.keepSeparator).toHaveValue('start');
  await expect(c.separators).toHaveValue('\\n\\n\n\\n');
  await expect(c.contextWindow).toHaveValue('4096');
  await expect(c.chunksInContext).toHaveValue('3');
  await expectPainted(page, await expectedChunks(source, { ...(await optionsFromControls(page)), separators: ['\n\n', '\n'] }));
  // The address is rewritten under today's keys.
  await expect.poll(() => new URL(page.url()).searchParams.get('language')).toBe('python');
  const url = new URL(page.url());
  expect(url.searchParams.getAll('separators')).toEqual(['\n\n', '\n']);
  expect([url.searchParams.has('lang'), url.searchParams.has('sep'), url.searchParams.get('context-window')]).toEqual([false, false, '4096']);
});
