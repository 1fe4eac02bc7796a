/**
 * The generated LangChain JS program is run, unchanged, with node against the real @langchain/textsplitters
 * (a devDependency), and must print the same chunk strings as Chunkscope's compat mode.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { RecursiveCharacterTextSplitter, type SupportedTextSplitterLanguage } from '@langchain/textsplitters';
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import { chunk } from '../index';
import { LANGCHAIN_JS_LANGUAGES } from '../languages';
import { validateOptions } from '../options';
import { wordsUnit } from '../units/words';
import { STRATEGY_NAMES } from '../strategies';
import type { ChunkOptions, ResolvedOptions } from '../types';
import { codeFor, loadCopyAsCode, reproducesExactly } from './copyAsCode';

// The programs load on first use (the registry keeps them behind dynamic imports).
beforeAll(() => loadCopyAsCode());

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Inside node_modules so that the program's bare import of '@langchain/textsplitters' resolves as in a user's project.
const DIR = mkdtempSync(join(ROOT, 'node_modules', '.chunkscope-export-test-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

let counter = 0;

/**
 * Loaded with `node --import` before the program: TokenTextSplitter fetches its ranks from tiktoken.pages.dev; this
 * answers that one request from js-tiktoken's bundled ranks (the same data), and refuses any other network access.
 */
const OFFLINE_RANKS = join(DIR, 'offline-ranks.mjs');
writeFileSync(
  OFFLINE_RANKS,
  `globalThis.fetch = async (url) => {
  const m = /^https:\\/\\/tiktoken\\.pages\\.dev\\/js\\/(\\w+)\\.json$/.exec(String(url));
  if (!m) throw new Error('no network in tests: ' + url);
  const ranks = (await import('js-tiktoken/ranks/' + m[1])).default;
  return new Response(JSON.stringify(ranks), { headers: { 'content-type': 'application/json' } });
};
`,
);

/** Write the program and the document, run it, return the chunk strings it printed. */
async function runGenerated(text: string, options: ChunkOptions): Promise<string[]> {
  return runProgram(text, codeFor(validateOptions(options), 'langchain-js'));
}

async function runProgram(text: string, code: string): Promise<string[]> {
  const n = counter++;
  const program = join(DIR, `split${n}.mjs`);
  const input = join(DIR, `doc${n}.txt`);
  writeFileSync(program, code);
  writeFileSync(input, text, 'utf8');
  const { stdout } = await run(process.execPath, ['--import', pathToFileURL(OFFLINE_RANKS).href, program, input], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as string[];
}

async function expectSameChunks(text: string, options: ChunkOptions): Promise<void> {
  const compat: ChunkOptions = { ...options, compat: 'langchain' };
  expect(reproducesExactly(validateOptions(compat), 'langchain-js')).toBe(true);
  const ours = (await chunk(text, compat)).map((c) => c.content);
  expect(await runGenerated(text, compat)).toEqual(ours);
}

const DOC = [
  '# Title',
  '',
  'Intro with "quotes", a back\\slash and an emoji 😀 in it.\r\n\r\nA CRLF paragraph follows here.',
  '',
  '## Section',
  '',
  'def f(x):\n    return x  # code',
  '',
  'class A:\n\tdef g(self):\n\t\tpass',
  '',
  'Ünïcödé — 日本語のテキスト、そして終わり。',
].join('\n');

describe('generated LangChain JS code, executed', () => {
  it('character splitter, keepSeparator off and on', async () => {
    await expectSameChunks(DOC, { strategy: 'character', size: 60, overlap: 10, separators: ['\n\n'] });
    await expectSameChunks(DOC, { strategy: 'character', size: 40, overlap: 0, separators: ['\n'], keepSeparator: 'start' });
  });

  it("upstream LangChain cases where the overlap is exactly filled (an off-by-one in chunkOverlap shows)", async () => {
    // From @langchain/textsplitters' own tests: the expected lists are LangChain's, not ours.
    const a = 'foo bar baz 123';
    await expectSameChunks(a, { strategy: 'character', separators: [' '], size: 7, overlap: 3 });
    expect(await runGenerated(a, { strategy: 'character', separators: [' '], size: 7, overlap: 3, compat: 'langchain' })).toEqual(['foo bar', 'bar baz', 'baz 123']);
    const b = 'aa ab ac ba bb';
    await expectSameChunks(b, { strategy: 'recursive', separators: [' ', ''], size: 7, overlap: 3, keepSeparator: 'none' });
    expect(await runGenerated(b, { strategy: 'recursive', separators: [' ', ''], size: 7, overlap: 3, keepSeparator: 'none', compat: 'langchain' }))
      .toEqual(['aa ab', 'ab ac', 'ac ba', 'ba bb']);
  });

  it('recursive defaults and language presets (python, markdown)', async () => {
    await expectSameChunks(DOC, { strategy: 'recursive', size: 50, overlap: 10 });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 45, overlap: 5, language: 'python' });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 70, overlap: 20, language: 'markdown', keepSeparator: 'none' });
  });

  it('separators with quotes, backslashes, CRLF and unicode survive the string literals', async () => {
    const text = 'a"b\'c\\d\r\ne — f"g\\h\r\n\r\ni — j😀k l"m\'n\\o\r\np — q😀r';
    const separators = ['\r\n\r\n', '\r\n', ' — ', '😀', '"', "'", '\\', ' ', ''];
    await expectSameChunks(text, { strategy: 'recursive', size: 6, overlap: 2, separators });
    await expectSameChunks(text, { strategy: 'recursive', size: 6, overlap: 0, separators, keepSeparator: 'none' });
    await expectSameChunks(text, { strategy: 'character', size: 8, overlap: 3, separators: ['\\'] });
  });

  it('words, bytes and token length functions', async () => {
    await expectSameChunks(DOC, { strategy: 'recursive', size: 8, overlap: 2, unit: 'words' });
    await expectSameChunks(DOC + ' Zürich 東京 😀', { strategy: 'recursive', size: 30, overlap: 6, unit: 'bytes' });
    await expectSameChunks(DOC + ' Zürich 東京 😀', { strategy: 'character', separators: [' '], size: 20, overlap: 4, unit: 'bytes' });
    await expectSameChunks(DOC, { strategy: 'recursive', size: 12, overlap: 3, unit: 'cl100k_base' });
  });

  it('token splitter (ranks served offline from js-tiktoken), special-token-free text', async () => {
    await expectSameChunks(DOC, { strategy: 'token', size: 7, overlap: 2, unit: 'cl100k_base' });
    await expectSameChunks('😀 日本語 — tokens cut inside characters: U+FFFD on both sides', { strategy: 'token', size: 3, overlap: 1, unit: 'gpt2' });
  });

  it("native mode: the same program gives LangChain's chunks, which differ from the native ones", async () => {
    const text = 'aa bb cc dd ee ff';
    const native: ChunkOptions = { strategy: 'character', separators: [' '], size: 8, overlap: 4 };
    expect(reproducesExactly(validateOptions(native), 'langchain-js')).toBe(false);
    const printed = await runGenerated(text, native);
    expect(printed).toEqual((await chunk(text, { ...native, compat: 'langchain' })).map((c) => c.content));
    expect(printed).not.toEqual((await chunk(text, native)).map((c) => c.content));
  });

  it('property: random documents and configurations give the same chunks', async () => {
    const pieces = ['word', 'two words', 'ab', 'c', 'ab c', ' ', ' ', ' ', '  ', '\n', '\n\n', '\r\n', '\r\n\r\n', '"', "'", '\\', ',', '. ', '😀', 'é', '日本',
      '\ndef ', '\nclass ', '\n## ', '\nfunction ', '\t', '<p>', '$'];
    // Mostly short words and spaces, so that trailing pieces often fill the overlap exactly (where an off-by-one shows).
    const doc = fc
      .array(fc.oneof({ arbitrary: fc.constantFrom('a', 'ab', 'abc', ' ', ' ', '\n'), weight: 3 }, { arbitrary: fc.constantFrom(...pieces), weight: 1 }), { maxLength: 80 })
      .map((p) => p.join(''));
    const seps = fc.array(fc.constantFrom(' ', ' ', '\n', '\n\n', '"', '\\', '\r\n', '😀', '. ', ','), { minLength: 1, maxLength: 4 });
    const config = fc.record({
      size: fc.integer({ min: 2, max: 40 }),
      overlapFraction: fc.double({ min: 0, max: 0.9, noNaN: true }),
      keep: fc.boolean(),
      unit: fc.constantFrom('chars', 'chars', 'words'),
      kind: fc.oneof(
        { arbitrary: seps.map((s) => ({ strategy: 'character' as const, separators: s.slice(0, 1) })), weight: 3 },
        { arbitrary: seps.map((s) => ({ strategy: 'recursive' as const, separators: [...s, ''] })), weight: 3 },
        { arbitrary: fc.constantFrom(...LANGCHAIN_JS_LANGUAGES).map((language) => ({ strategy: 'recursive' as const, language })), weight: 3 },
        { arbitrary: fc.constantFrom('cl100k_base', 'gpt2').map((unit) => ({ strategy: 'token' as const, unit })), weight: 1 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(doc, config, async (text, c) => {
        const overlap = Math.min(c.size - 1, Math.floor(c.size * c.overlapFraction));
        const options: ChunkOptions = c.kind.strategy === 'token'
          ? { ...c.kind, size: c.size, overlap }
          : { unit: c.unit as 'chars' | 'words', ...c.kind, size: c.size, overlap, keepSeparator: c.keep ? 'start' : 'none' };
        await expectSameChunks(text, options);
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});

/**
 * The structure strategies (markdown, html, code): Chunkscope's native chunks differ from LangChain JS by design —
 * LangChain JS has no header-aware or syntax-tree splitter, so the program uses RecursiveCharacterTextSplitter
 * .fromLanguage(...), and says so. These tests assert that the program runs and prints exactly the chunks LangChain
 * JS gives for that preset (computed here with the real package), while compat-mode equality with Chunkscope is
 * asserted above for the character, recursive and token strategies.
 */
describe('generated LangChain JS code for the structure strategies, executed', () => {
  const MARKDOWN = [
    '# Travel Policy', '', 'Applies to everyone who travels for work.', '', '## Booking', '', 'Book two weeks ahead. Economy by default.',
    '', '| City | Rate |', '|---|---|', '| Paris | 120 |', '| Tokyo | 140 |', '', '### Hotels', '', '```', 'rate <= cap', '```', '',
    '## Per diem 😀', '', 'Meals and incidentals, not lodging.',
  ].join('\n');
  const HTML = '<h1>Travel Policy</h1>\n<p>Applies to everyone.</p>\n<h2>Booking</h2>\n<p>Book two weeks ahead &amp; fly economy.</p>\n'
    + '<table><tr><th>City</th><th>Rate</th></tr><tr><td>Paris</td><td>120</td></tr></table>\n<h2>Per diem</h2>\n<ul><li>Meals</li><li>Taxis</li></ul>';
  const PYTHON = 'import os\n\n\nclass Trip:\n    def __init__(self, city):\n        self.city = city\n\n    def cost(self):\n        return 120\n\n\ndef main():\n    print(Trip("Paris").cost())\n';
  const RUST = 'use std::fmt;\n\nstruct Trip {\n    city: String,\n}\n\nimpl Trip {\n    fn cost(&self) -> u32 {\n        120\n    }\n}\n\nfn main() {\n    println!("{}", 1);\n}\n';

  /** The code strategy's options: validated once the strategy is registered, else built on recursive's resolution. */
  const codeOptions = (extra: ChunkOptions): ResolvedOptions =>
    (STRATEGY_NAMES as string[]).includes('code')
      ? validateOptions({ strategy: 'code', ...extra })
      : { ...validateOptions({ strategy: 'recursive', size: extra.size, overlap: extra.overlap ?? 0, unit: extra.unit }), strategy: 'code', language: extra.language ?? null, path: extra.path ?? null };

  const cases: { name: string; text: string; options: ResolvedOptions; preset: SupportedTextSplitterLanguage; words?: boolean }[] = [
    { name: 'markdown', text: MARKDOWN, options: validateOptions({ strategy: 'markdown', size: 80, overlap: 20 }), preset: 'markdown' },
    { name: 'markdown, words', text: MARKDOWN, options: validateOptions({ strategy: 'markdown', size: 12, overlap: 3, unit: 'words' }), preset: 'markdown', words: true },
    { name: 'html', text: HTML, options: validateOptions({ strategy: 'html', size: 90, overlap: 10 }), preset: 'html' },
    { name: 'code, python by name', text: PYTHON, options: codeOptions({ language: 'python', size: 60, overlap: 0 }), preset: 'python' },
    { name: 'code, rust from the file name', text: RUST, options: codeOptions({ path: 'src/main.rs', size: 50, overlap: 10 }), preset: 'rust' },
  ];

  for (const c of cases) {
    it(`${c.name}: the program runs and prints LangChain JS's fromLanguage("${c.preset}") chunks`, async () => {
      expect(reproducesExactly(c.options, 'langchain-js')).toBe(false);
      const printed = await runProgram(c.text, codeFor(c.options, 'langchain-js'));
      const reference = RecursiveCharacterTextSplitter.fromLanguage(c.preset, {
        chunkSize: c.options.size,
        chunkOverlap: c.options.overlap,
        // Chunkscope's words unit (Intl.Segmenter's word-like segments and emoji), as the program counts them.
        ...(c.words ? { lengthFunction: (t: string) => wordsUnit.count(t) } : {}),
      });
      expect(printed).toEqual(await reference.splitText(c.text));
      expect(printed.length).toBeGreaterThan(1);
    });
  }
});
