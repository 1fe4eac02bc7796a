import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { main } from './cli/main';
import { chunk, ChunkOptionsError } from './core/index';
import { EXPORT_FORMATS, formatChunks } from './core/format';
import { OPTION_TABLE } from './core/optionTable';
import type { StrategyDescription } from './core/registry';
import type { ChunkOptions } from './core/types';
import { STRATEGIES } from './core/strategies/index';
import { PAGE_EXPORT_FORMATS } from './ui/export/formats';

/**
 * The recipes of CONTRIBUTING.md, exercised: a test here fails when a recipe no longer matches the code.
 *
 * "Add a strategy": the `lines` fixture is written as the recipe says (a description, an implementation behind a
 * loader) and appended to the registry's list as its one registry line would; the registry module is replaced for
 * this file only, keeping everything else the real one does. Then the library and the CLI chunk with it.
 */

const LINES_ID = 'lines';

vi.mock('./core/strategies/index', async (importOriginal) => {
  const registry = await importOriginal<typeof import('./core/strategies/index')>();
  // Step 1: the description (index.ts).
  const noProgram = () => '# no equivalent: a fixture strategy\n';
  const lines: StrategyDescription<'lines'> = {
    id: 'lines',
    label: 'Lines',
    description: 'One chunk per non-empty line.',
    defaults: { size: 512, overlap: 0, unit: 'chars' },
    controls: ['size', 'unit'],
    compat: [],
    copyAsCode: { 'langchain-js': noProgram, 'langchain-python': noProgram, llamaindex: noProgram, chonkie: noProgram },
  };
  // Step 2: the implementation (split.ts).
  const implementation: import('./core/registry').StrategyImplementation = {
    split(text) {
      const spans: import('./core/registry').SplitSpan[] = [];
      for (const m of text.matchAll(/[^\n]+/g)) spans.push({ start: m.index, end: m.index + m[0].length });
      return spans;
    },
  };
  // Step 3: the registry line, `entry(lines, () => import('./lines/split'))`, as entry() builds it.
  const entry = { ...lines, load: () => Promise.resolve(implementation) };
  const strategies = [...(registry.STRATEGIES as readonly import('./core/registry').Strategy<string>[]), entry];
  return {
    ...registry,
    STRATEGIES: strategies,
    STRATEGY_NAMES: strategies.map((s) => s.id),
    getStrategy: (id: string) => (id === entry.id ? entry : registry.getStrategy(id)),
    loadStrategy: (id: string) => (id === entry.id ? Promise.resolve({ ...entry, ...implementation }) : registry.loadStrategy(id)),
  };
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const strategiesDir = join(root, 'src/core/strategies');

async function runCli(argv: string[], stdin = '') {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    readStdin: async () => new TextEncoder().encode(stdin),
  });
  return { code, out, err };
}

const text = 'First line of the document.\n\nSecond line, after a blank one.\nThird.\n';
const asOptions = (o: Record<string, unknown>) => o as ChunkOptions;

describe('CONTRIBUTING.md: add a strategy', () => {
  it('a strategy written as the recipe says, with its registry line, chunks through the library', async () => {
    const chunks = await chunk(text, asOptions({ strategy: LINES_ID }));
    expect(chunks.map((c) => c.text)).toEqual(['First line of the document.', 'Second line, after a blank one.', 'Third.']);
    for (const c of chunks) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.metadata.strategy).toBe(LINES_ID);
      expect(c.size).toBe(c.text.length);
    }
    // Its defaults and controls come from its description: size is validated, an unknown name is still refused.
    await expect(chunk(text, asOptions({ strategy: LINES_ID, size: 0 }))).rejects.toThrow(ChunkOptionsError);
    await expect(chunk(text, asOptions({ strategy: 'no-such-strategy' }))).rejects.toThrow(ChunkOptionsError);
  });

  it('and through the CLI, whose --help lists it', async () => {
    const r = await runCli(['chunk', '-', '--strategy', LINES_ID], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(formatChunks(await chunk(text, asOptions({ strategy: LINES_ID })), 'json'));
    const help = await runCli(['--help']);
    expect(help.out).toMatch(new RegExp(`--strategy[\\s\\S]*\\b${LINES_ID}\\b`));
  });

  it('every strategy folder has index.ts, split.ts and one registry line, and is documented', () => {
    const registrySource = readFileSync(join(strategiesDir, 'index.ts'), 'utf8');
    const strategiesDoc = readFileSync(join(root, 'docs/strategies.md'), 'utf8');
    const folders = readdirSync(strategiesDir).filter((f) => statSync(join(strategiesDir, f)).isDirectory());
    const registered = (STRATEGIES as readonly StrategyDescription<string>[]).map((s) => s.id).filter((id) => id !== LINES_ID);
    expect(folders.length).toBeGreaterThan(0);
    expect([...folders].sort()).toEqual([...registered].sort());
    for (const folder of folders) {
      expect(existsSync(join(strategiesDir, folder, 'index.ts')), `${folder}/index.ts`).toBe(true);
      expect(existsSync(join(strategiesDir, folder, 'split.ts')), `${folder}/split.ts`).toBe(true);
      const lines = registrySource.match(new RegExp(`entry\\(\\w+, \\(\\) => import\\('\\./${folder}/split'\\)\\)`, 'g')) ?? [];
      expect(lines, `one registry line for ${folder}`).toHaveLength(1);
      expect(strategiesDoc).toContain(`### \`${folder}\``);
    }
  });

  it("every strategy's controls are option-table names", () => {
    const names = new Set(OPTION_TABLE.map((o) => o.name as string));
    for (const s of STRATEGIES as readonly StrategyDescription<string>[]) {
      for (const control of s.controls) expect(names.has(control), `${s.id}: ${control}`).toBe(true);
    }
  });
});

describe('CONTRIBUTING.md: add an option', () => {
  it('every row has a kebab-case flag of its name and a one-line help', () => {
    for (const o of OPTION_TABLE) {
      expect(o.flag, o.name).toBe(o.name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));
      expect(o.help.length, o.name).toBeGreaterThan(0);
      expect(o.help, o.name).not.toContain('\n');
    }
  });

  it('every chunking option that is not document data is a flag in `chunkscope --help`', async () => {
    const help = (await runCli(['--help'])).out;
    const flags = OPTION_TABLE.filter((o) => o.engine !== false && o.kind !== 'offsets');
    expect(flags.length).toBeGreaterThan(20);
    for (const o of flags) expect(help, o.name).toContain(`--${o.flag}`);
  });
});

describe('CONTRIBUTING.md: add an export format', () => {
  const cliDoc = readFileSync(join(root, 'docs/cli.md'), 'utf8');

  it.each(EXPORT_FORMATS)('%s: the CLI prints formatChunks, --help names it, the page offers it, docs/cli.md lists it', async (format) => {
    const r = await runCli(['chunk', '-', '--format', format, '--size', '40', '--overlap', '0'], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = await chunk(text, { size: 40, overlap: 0 });
    expect(r.out).toBe(formatChunks(chunks, format, { source: 'stdin', text }));
    const help = (await runCli(['--help'])).out;
    const formatHelp = help.slice(help.indexOf('--format'), help.indexOf('\n  -', help.indexOf('--format')));
    expect(formatHelp).toMatch(new RegExp(`\\b${format}\\b`));
    expect(PAGE_EXPORT_FORMATS.map((f) => f.format as string)).toContain(format);
    expect(cliDoc).toContain(`| \`${format}\``);
  });
});
