import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { renderStrategiesDoc } from '../scripts/gen-docs';
import { EXPORTERS } from './core/export/exporters/index';
import { EXPORT_FORMATS, formatChunks } from './core/format';
import { chunk, ChunkOptionsError } from './core/index';
import { OPTION_TABLE, optionSpec } from './core/optionTable';
import type { StrategyDescription } from './core/registry';
import { getStrategy, STRATEGIES, STRATEGY_NAMES } from './core/strategies/index';
import type { ChunkOptions } from './core/types';
import { getUnit, UNIT_NAMES, UNITS, unitDescriptor } from './core/units/index';
import { DEFAULT_CONFIG, type Config } from './state/configSlice';
import { optionApplies } from './state/strategyInfo';
import { decodeConfig, encodeConfig } from './state/urlCodec';
import { PAGE_EXPORT_FORMATS } from './ui/export/formats';
import { genericallyDrawn } from './ui/panels/optionLayout';
import { runCli } from './testing/runCli';

/**
 * The recipes of CONTRIBUTING.md, each followed once with a fixture: a test here fails when a recipe no longer
 * matches the code. Each fixture is written as its recipe says, and its registry line is added by replacing the
 * registry module for this file only (vi.mock with the real module plus the one line), so nothing in the real
 * registries changes and every other layer (validation, the CLI, the URL codec, the page's control list, the
 * generated docs) is the real one.
 *
 * - Add a strategy: the `lines` strategy (a description and an implementation), one line in the strategy registry.
 * - Add an option: the `skipShorter` row (declared as a strategy folder's own rows are, `LINES_OPTION_ROWS`, and
 *   merged into the option rows as the real spread line in src/core/optionRows.ts would), its name in the `lines`
 *   strategy's controls, and the strategy's code that reads it.
 * - Add a unit: the `codepoints` descriptor, one line in UNITS.
 * - Add an export format: the `markdown` exporter, one line in EXPORTERS.
 *
 * A registry that derives lookups from its list (getExporter, unitDescriptor, getUnit) has them rebuilt in its mock
 * from the longer list; each mock first checks that the real module exports nothing else, so a new derived export
 * fails here instead of being silently left on the old list. (Retrievers: src/core/retrievers/addRetriever.test.ts.)
 */

const fixtures = vi.hoisted(() => {
  /** The fixture option, as `src/core/strategies/lines/options.ts` would declare it (a leaf: it imports nothing). */
  const LINES_OPTION_ROWS = [
    {
      name: 'skipShorter',
      flag: 'skip-shorter',
      kind: 'integer',
      default: 0,
      min: 0,
      group: 'splitting',
      arg: '<n>',
      help: 'lines: leave out lines shorter than n characters',
      control: { kind: 'number', label: 'Skip lines shorter than', min: 0 },
    },
  ] as const;

  /** The fixture unit, as `src/core/units/codepoints.ts` would declare it: Unicode code points (additive). */
  const countCodePoints = (text: string): number => {
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) continue;
      n++;
    }
    return n;
  };
  const codepointsUnit = { name: 'codepoints', count: countCodePoints };
  const codepoints = {
    name: 'codepoints',
    label: 'code points',
    longLabel: 'code points (Unicode scalar values)',
    noun: 'code point',
    description: 'Unicode code points',
    additive: true,
    isLength: false,
    mostCodeUnitsPerCount: 2,
    program: { py: { count: 'len' }, pyTokenizer: 'list  # one token per code point', charsPer: 1 },
    load: () => Promise.resolve(codepointsUnit),
    meter: (unit: { count(t: string): number }, source: string) => {
      const exact = (a: number, b: number) => (b <= a ? 0 : unit.count(source.slice(a, b)));
      return { exactEstimates: true, mostPerCodeUnit: 1, exact, estimate: exact };
    },
  };

  /** The fixture export format, as `src/core/export/exporters/markdown.ts` would declare it. */
  const markdown = {
    id: 'markdown',
    label: 'Export Markdown',
    short: 'Markdown',
    fileName: 'chunks.md',
    mime: 'text/markdown',
    description: 'One section per chunk (CLI --format markdown)',
    cliHelp: 'a section per chunk',
    native: false,
    render: (chunks: readonly { index: number; start: number; end: number; text: string }[]) =>
      chunks.map((c) => `## Chunk ${c.index} (${c.start}–${c.end})\n\n${c.text}\n`).join('\n'),
  } as const;

  /** The names a registry module exports today: a new one must be rebuilt in its mock (or be a plain re-export). */
  const exportsOf = (module: object, expected: string[]) => {
    const actual = Object.keys(module).sort();
    if (actual.join() !== [...expected].sort().join()) {
      throw new Error(`recipes.test.ts: the registry's exports changed (${actual.join(', ')}): rebuild the new ones in its mock`);
    }
  };
  return { LINES_OPTION_ROWS, codepoints, markdown, exportsOf };
});

const LINES_ID = 'lines';

vi.mock('./core/strategies/index', async (importOriginal) => {
  const registry = await importOriginal<typeof import('./core/strategies/index')>();
  // Step 1: the description (index.ts); its controls name the option rows it reads, the fixture option included.
  const noProgram = () => '# no equivalent: a fixture strategy\n';
  const lines = {
    id: 'lines',
    label: 'Lines',
    description: 'One chunk per non-empty line.',
    defaults: { size: 512, overlap: 0, unit: 'chars' },
    controls: ['size', 'unit', 'skipShorter'],
    compat: [],
    copyAsCode: async () => ({ 'langchain-js': noProgram, 'langchain-python': noProgram, llamaindex: noProgram, chonkie: noProgram }),
  } as unknown as StrategyDescription<'lines'>;
  // Step 2: the implementation (split.ts). It reads its option from ctx.options (typed from the row in real code).
  const implementation: import('./core/registry').StrategyImplementation = {
    split(text, ctx) {
      const skipShorter = (ctx.options as unknown as { skipShorter: number }).skipShorter;
      const spans: import('./core/registry').SplitSpan[] = [];
      for (const m of text.matchAll(/[^\n]+/g)) if (m[0].length >= skipShorter) spans.push({ start: m.index, end: m.index + m[0].length });
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

// Add an option: the strategy folder's rows merged into the option rows, as `...LINES_OPTION_ROWS,` in
// ENGINE_OPTION_ROWS (src/core/optionRows.ts) merges them. Appended: validation order puts it after the rows it reads.
vi.mock('./core/optionRows', async (importOriginal) => {
  const real = await importOriginal<typeof import('./core/optionRows')>();
  return { ...real, ENGINE_OPTION_ROWS: [...real.ENGINE_OPTION_ROWS, ...fixtures.LINES_OPTION_ROWS] };
});

// Add a unit: `codepoints` in UNITS (src/core/units/index.ts), and what index.ts derives from the list.
vi.mock('./core/units/index', async (importOriginal) => {
  const real = await importOriginal<typeof import('./core/units/index')>();
  fixtures.exportsOf(real, ['UNITS', 'UNIT_NAMES', 'unitDescriptor', 'isTokenEncoding', 'getUnit', 'charsUnit', 'bytesUnit', 'utf8Length', 'TOKEN_ENCODINGS']);
  const UNITS = [...real.UNITS, fixtures.codepoints] as unknown as typeof real.UNITS; // ← the one registry line
  const byName = new Map(UNITS.map((u) => [u.name as string, u]));
  const unitDescriptor = (name: string) => byName.get(name);
  return {
    ...real,
    UNITS,
    UNIT_NAMES: UNITS.map((u) => u.name),
    unitDescriptor,
    isTokenEncoding: (name: string) => unitDescriptor(name)?.tokenizer === name,
    getUnit: (name: string) => byName.get(name)?.load() ?? Promise.reject(new Error(`unknown unit "${name}"`)),
  };
});

// Add an export format: `markdown` in EXPORTERS (src/core/export/exporters/index.ts), and getExporter over the list.
vi.mock('./core/export/exporters/index', async (importOriginal) => {
  const real = await importOriginal<typeof import('./core/export/exporters/index')>();
  fixtures.exportsOf(real, ['EXPORTERS', 'getExporter', 'isNativeExporter']);
  const EXPORTERS = [...real.EXPORTERS, fixtures.markdown] as unknown as typeof real.EXPORTERS; // ← the one registry line
  return {
    ...real,
    EXPORTERS,
    getExporter: (id: string) => {
      const found = EXPORTERS.find((e) => e.id === id);
      if (!found) throw new Error(`unknown export format "${id}"`);
      return found;
    },
  };
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const strategiesDir = join(root, 'src/core/strategies');

const text = 'First line of the document.\n\nSecond line, after a blank one.\nThird.\n';
const asOptions = (o: Record<string, unknown>) => o as ChunkOptions;
const asConfig = (o: Record<string, unknown>) => o as unknown as Config;

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

  it('and through the CLI, whose --help lists it, and in the generated docs', async () => {
    const r = await runCli(['chunk', '-', '--strategy', LINES_ID], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(formatChunks(await chunk(text, asOptions({ strategy: LINES_ID })), 'json'));
    const help = await runCli(['--help']);
    expect(help.out).toMatch(new RegExp(`--strategy[\\s\\S]*\\b${LINES_ID}\\b`));
    expect(renderStrategiesDoc()).toContain('### `lines`');
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
  const lines = () => getStrategy(LINES_ID) as unknown as StrategyDescription;

  it('one row is a validated option of the library, with its kind and range checked, and shapes the chunks', async () => {
    const spec = optionSpec('skipShorter');
    expect(spec).toMatchObject({ flag: 'skip-shorter', default: 0, group: 'splitting' });
    const short = await chunk(text, asOptions({ strategy: LINES_ID, skipShorter: 10 }));
    expect(short.map((c) => c.text)).toEqual(['First line of the document.', 'Second line, after a blank one.']);
    // Not given: the row's default (0 keeps every line). Its value is part of the chunk ids (it is a control).
    const all = await chunk(text, asOptions({ strategy: LINES_ID }));
    expect(all).toHaveLength(3);
    expect(short[0]!.id).not.toBe(all[0]!.id);
    await expect(chunk(text, asOptions({ strategy: LINES_ID, skipShorter: -1 }))).rejects.toThrow('skipShorter must be at least 0 (got -1)');
    await expect(chunk(text, asOptions({ strategy: LINES_ID, skipShorter: 'ten' }))).rejects.toThrow('skipShorter must be a whole number');
  });

  it('is a CLI flag with its help line, and the docs list it', async () => {
    const r = await runCli(['chunk', '-', '--strategy', LINES_ID, '--skip-shorter', '10'], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((c: { text: string }) => c.text)).toEqual(['First line of the document.', 'Second line, after a blank one.']);
    const bad = await runCli(['chunk', '-', '--strategy', LINES_ID, '--skip-shorter', '-3'], text);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/skipShorter must be at least 0/);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    const help = (await runCli(['--help'])).out;
    expect(help).toMatch(/--skip-shorter <n>\s+lines: leave out lines shorter than n characters/);
    expect(renderStrategiesDoc()).toContain('skip-shorter');
  });

  it("round-trips through a share link and is a control on the page, drawn from its row where the strategy lists it", () => {
    const config = asConfig({ ...DEFAULT_CONFIG, strategy: LINES_ID, skipShorter: 10 });
    expect(DEFAULT_CONFIG).toHaveProperty('skipShorter', 0);
    const query = encodeConfig(config);
    expect(query).toContain('skip-shorter=10');
    expect(decodeConfig(query, { strategies: STRATEGY_NAMES, units: UNIT_NAMES })).toMatchObject({ strategy: LINES_ID, skipShorter: 10 });
    // The page draws it with GroupFields in its group, by its control's kind, for the strategies that list it.
    expect(genericallyDrawn('splitting').map((s) => s.name)).toContain('skipShorter');
    expect(optionApplies(optionSpec('skipShorter'), lines())).toBe(true);
    expect(optionApplies(optionSpec('skipShorter'), getStrategy('recursive') as StrategyDescription)).toBe(false);
  });

  it('every row has a kebab-case flag of its name and a one-line help; every chunking option is in --help', async () => {
    for (const o of OPTION_TABLE) {
      expect(o.flag, o.name).toBe(o.name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));
      expect(o.help.length, o.name).toBeGreaterThan(0);
      expect(o.help, o.name).not.toContain('\n');
    }
    const help = (await runCli(['--help'])).out;
    const flags = OPTION_TABLE.filter((o) => o.engine !== false && o.kind !== 'offsets');
    expect(flags.length).toBeGreaterThan(20);
    for (const o of flags) expect(help, o.name).toContain(`--${o.flag}`);
  });
});

describe('CONTRIBUTING.md: add a unit', () => {
  const source = 'Zürich 😀 東京\n\nA second paragraph.';

  it('one descriptor and one UNITS line: a unit of the library, the option table and the share links', async () => {
    expect(UNITS.map((u) => u.name)).toContain('codepoints');
    expect(UNIT_NAMES).toContain('codepoints');
    expect(optionSpec('unit').choices).toContain('codepoints');
    expect(unitDescriptor('codepoints')?.additive).toBe(true);
    const unit = await getUnit('codepoints' as never);
    const chunks = await chunk(source, asOptions({ strategy: 'recursive', unit: 'codepoints', size: 8, overlap: 0 }));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.text).toBe(source.slice(c.start, c.end));
      expect(c.size).toBe(unit.count(c.text));
      expect(c.size).toBeLessThanOrEqual(8);
    }
    expect(chunks[0]!.text).toBe('Zürich 😀');
    const query = encodeConfig(asConfig({ ...DEFAULT_CONFIG, unit: 'codepoints' }));
    expect(decodeConfig(query, { strategies: STRATEGY_NAMES, units: UNIT_NAMES })).toMatchObject({ unit: 'codepoints' });
  });

  it('the CLI takes it and names it when it refuses an unknown unit', async () => {
    const r = await runCli(['chunk', '-', '--unit', 'codepoints', '--size', '8', '--overlap', '0'], source);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((c: { size: number }) => c.size)).toEqual((await chunk(source, asOptions({ unit: 'codepoints', size: 8, overlap: 0 }))).map((c) => c.size));
    const bad = await runCli(['chunk', '-', '--unit', 'graphemes'], source);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown unit "graphemes" \(expected one of .*\bbytes\b.*\bcodepoints\)/);
  });
});

describe('CONTRIBUTING.md: add an export format', () => {
  const cliDoc = readFileSync(join(root, 'docs/cli.md'), 'utf8');
  const real = EXPORT_FORMATS.filter((f) => (f as string) !== 'markdown');

  it('one exporter file and one EXPORTERS line: the CLI prints it, --help names it, the page offers it', async () => {
    expect(EXPORT_FORMATS).toContain('markdown');
    const r = await runCli(['chunk', '-', '--format', 'markdown', '--size', '40', '--overlap', '0'], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = await chunk(text, { size: 40, overlap: 0 });
    expect(r.out).toBe(formatChunks(chunks, 'markdown' as never, { source: 'stdin', text }));
    expect(r.out.startsWith('## Chunk 0 (0–')).toBe(true);
    const help = (await runCli(['--help'])).out;
    expect(help).toMatch(/--format <name>[^-]*\bmarkdown \(a\s+section per chunk\)/);
    expect(PAGE_EXPORT_FORMATS.map((f) => f.id as string)).toContain('markdown');
  });

  it.each(real)('%s: the CLI prints formatChunks, --help names it, the page offers it, docs/cli.md lists it', async (format) => {
    const r = await runCli(['chunk', '-', '--format', format, '--size', '40', '--overlap', '0'], text);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = await chunk(text, { size: 40, overlap: 0 });
    expect(r.out).toBe(formatChunks(chunks, format, { source: 'stdin', text }));
    const help = (await runCli(['--help'])).out;
    const formatHelp = help.slice(help.indexOf('--format'), help.indexOf('\n  -', help.indexOf('--format')));
    expect(formatHelp).toMatch(new RegExp(`\\b${format}\\b`));
    expect(PAGE_EXPORT_FORMATS.map((f) => f.id as string)).toContain(format);
    expect(cliDoc).toContain(`| \`${format}\``);
  });

  it('the real registry is what this file extends (the fixture is one line more)', () => {
    expect(EXPORTERS.map((e) => e.id)).toEqual([...real, 'markdown']);
  });
});
