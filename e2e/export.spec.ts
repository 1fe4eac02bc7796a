import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, openApp, optionsFromControls, pasteDocument, typeNumber } from './app';
import { makeDocument } from './documents';
import type { ChunkOptions } from '../src/core/types';

// What a person exports from the page is what their pipeline gets from the CLI: byte for byte.

const text = makeDocument(10_000, 23);

/** The documented CLI flags for these options (README / contracts.md). */
function cliArgs(file: string, options: ChunkOptions, format: 'json' | 'jsonl'): string[] {
  const args = ['bin/chunkscope.js', 'chunk', file];
  if (options.strategy) args.push('--strategy', options.strategy);
  if (options.size !== undefined) args.push('--size', String(options.size));
  if (options.overlap !== undefined) args.push('--overlap', String(options.overlap));
  if (options.unit) args.push('--unit', options.unit);
  for (const separator of options.separators ?? []) args.push('--separator', separator);
  if (options.keepSeparator) args.push('--keep-separator', options.keepSeparator);
  if (options.language) args.push('--language', options.language);
  if (options.compat === 'langchain') args.push('--compat', 'langchain');
  args.push('--format', format);
  return args;
}

async function exportFrom(page: import('@playwright/test').Page, button: string): Promise<{ name: string; body: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return { name: download.suggestedFilename(), body: readFileSync(await download.path(), 'utf8') };
}

test('Export JSON equals the CLI output for the same text and configuration', async ({ page }, testInfo) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 400);
  await typeNumber(c.overlapBox, 40);
  const options = await optionsFromControls(page);
  const expected = await expectedChunks(text, options);
  await expectPainted(page, expected);

  const exported = await exportFrom(page, 'Export JSON');
  expect(exported.name).toBe('chunks.json');

  const file = testInfo.outputPath('document.txt');
  writeFileSync(file, text, 'utf8');
  const cli = execFileSync('node', cliArgs(file, options, 'json'), { encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(exported.body === cli, 'exported chunks.json is byte-identical to the CLI output').toBe(true);

  // And both are the engine's chunks: offsets, texts and sizes a pipeline can rely on.
  const parsed = JSON.parse(exported.body) as Array<{ start: number; end: number; text: string; size: number; id: string }>;
  expect(parsed.map(({ start, end, text, size, id }) => ({ start, end, text, size, id }))).toEqual(
    expected.map(({ start, end, text, size, id }) => ({ start, end, text, size, id })),
  );
  for (const item of parsed) expect(item.text).toBe(text.slice(item.start, item.end));
});

test('Export JSONL with tokens and LangChain compatibility equals the CLI output', async ({ page }, testInfo) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await c.strategy.selectOption('recursive');
  await c.unit.selectOption('cl100k_base');
  await c.compat.check();
  await typeNumber(c.sizeBox, 128);
  await typeNumber(c.overlapBox, 16);
  const options = await optionsFromControls(page);
  expect(options).toMatchObject({ unit: 'cl100k_base', compat: 'langchain', size: 128, overlap: 16 });
  await expectPainted(page, await expectedChunks(text, options));

  const exported = await exportFrom(page, 'Export JSONL');
  expect(exported.name).toBe('chunks.jsonl');
  const file = testInfo.outputPath('document.txt');
  writeFileSync(file, text, 'utf8');
  const cli = execFileSync('node', cliArgs(file, options, 'jsonl'), { encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(exported.body === cli, 'exported chunks.jsonl is byte-identical to the CLI output').toBe(true);
});
