/**
 * Differential property tests: Chunkscope's compat mode against the real @langchain/textsplitters on random
 * documents and settings. For every case: the same chunk strings in the same order (or both fail), every span
 * in order and non-empty, and each span's source text equal to LangChain's string except in the documented
 * quirk cases, where the relation between the two is checked instead.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_PRESETS } from '../../languages';
import type { UnitName } from '../../types';
import { compatChunks, referenceSplitter, type CompatCase, type CompatChunk } from './fixtures/harness';

const RUNS = 1000;

beforeAll(() => {
  // LangChain warns on every oversize chunk; random small sizes make thousands of them.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

// ---------- documents ----------

const words = fc.constantFrom('lorem', 'ipsum', 'dolor', 'a', 'the', 'chunk', 'Überstraße', 'naïve', 'end.', 'x,');
const whitespace = fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '\n\n\n', '\r\n', '\r\n\r\n', '\t', '\u00a0', '\u3000');
const emoji = fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵', '🦜️🔗', '⚡');
const cjk = fc.constantFrom('你好', '世界', '日本語のテキスト', '한국어', '。');
/** Separators of the language presets, so that they actually split something. */
const codeMarks = fc.constantFrom(
  '\nclass ', '\ndef ', '\n\tdef ', '\nfunction ', '\nconst ', '\nfn ', '\nfunc ', '<div>', '<p>', '<body>', '$$', '$',
  '\n## ', '\n### ', '```\n\n', '\n\n---\n\n', '\n\\section{', '\n===\n', '\n.. ', '\npragma ', '\nmessage ',
);
const longRunOf = (max: number) =>
  fc.tuple(fc.constantFrom('x', 'ab', '—', '字', '🙂'), fc.integer({ min: 10, max })).map(([s, n]) => s.repeat(n));
const longRun = longRunOf(60);

const fragmentOf = (run: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: words, weight: 10 },
    { arbitrary: whitespace, weight: 8 },
    { arbitrary: emoji, weight: 2 },
    { arbitrary: cjk, weight: 2 },
    { arbitrary: codeMarks, weight: 2 },
    { arbitrary: run, weight: 1 },
  );

/** Mostly real-looking documents, sometimes empty, whitespace only, or a single unbroken run. */
const documentOf = (maxFragments: number, run: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: fc.array(fragmentOf(run), { maxLength: maxFragments, size: 'medium' }).map((p) => p.join('')), weight: 12 },
    { arbitrary: fc.constantFrom('', ' ', '\n\n', '\r\n'), weight: 1 },
    { arbitrary: run, weight: 1 },
  );
const documentArb = documentOf(120, longRun);
/**
 * Token cases encode every document on both sides with js-tiktoken, whose BPE is quadratic in the length of a
 * pre-token piece: shorter documents and shorter unbroken runs keep the run time modest.
 */
const shortDocumentArb = documentOf(30, longRunOf(16));

/** Sizes biased small so that most documents make several chunks. */
const sizeAndOverlap = (maxSize: number) =>
  fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: maxSize })).chain((size) =>
    fc.record({
      size: fc.constant(size),
      overlap: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 0, max: size - 1 }), weight: 3 }),
    }),
  );

const lengthUnit: fc.Arbitrary<UnitName> = fc.oneof(
  { arbitrary: fc.constant<UnitName>('chars'), weight: 6 },
  { arbitrary: fc.constant<UnitName>('cl100k_base'), weight: 1 },
  { arbitrary: fc.constant<UnitName>('words'), weight: 1 },
);

const separatorPool = ['\n\n', '\n', ' ', '', '\r\n', '\t', '.', '$', 'x', '<div>', '\n\n\n', 'ab'];
const customSeparators = fc.uniqueArray(fc.constantFrom(...separatorPool), { minLength: 1, maxLength: 5 });

const keep = fc.constantFrom<'start' | 'none'>('start', 'none');

/** Character splitting uses one separator: mostly one the documents contain. */
const characterSeparator = fc.oneof(
  { arbitrary: fc.constantFrom(' ', '\n', '\n\n'), weight: 3 },
  { arbitrary: fc.constantFrom(...separatorPool), weight: 1 },
);

const characterCase: fc.Arbitrary<CompatCase> = fc
  .tuple(sizeAndOverlap(120), characterSeparator, keep, lengthUnit)
  .map(([so, separator, keepSeparator, unit]) => ({
    strategy: 'character' as const,
    ...so,
    separators: [separator],
    keepSeparator,
    unit,
  }));

const recursiveCase: fc.Arbitrary<CompatCase> = fc
  .tuple(
    sizeAndOverlap(150),
    fc.oneof(
      { arbitrary: fc.constant({}), weight: 3 },
      { arbitrary: fc.constantFrom(...LANGCHAIN_JS_LANGUAGES).map((language) => ({ language })), weight: 3 },
      { arbitrary: customSeparators.map((separators) => ({ separators })), weight: 2 },
    ),
    keep,
    lengthUnit,
  )
  .map(([so, separators, keepSeparator, unit]) => ({
    strategy: 'recursive' as const,
    ...so,
    ...separators,
    keepSeparator,
    unit,
  }));

const tokenCase: fc.Arbitrary<CompatCase> = fc
  .tuple(sizeAndOverlap(40), fc.constantFrom<UnitName>('cl100k_base', 'o200k_base', 'r50k_base', 'p50k_base'))
  .map(([so, unit]) => ({ strategy: 'token' as const, ...so, unit }));

// ---------- the comparison ----------

type Outcome = { ok: true; chunks: string[] } | { ok: false; error: string };

async function reference(text: string, c: CompatCase): Promise<Outcome> {
  try {
    return { ok: true, chunks: await (await referenceSplitter(c)).splitText(text) };
  } catch (e) {
    return { ok: false, error: String(e) };
  }
}

async function ours(text: string, c: CompatCase): Promise<{ ok: true; chunks: CompatChunk[] } | { ok: false; error: string }> {
  try {
    return { ok: true, chunks: await compatChunks(text, c) };
  } catch (e) {
    return { ok: false, error: String(e) };
  }
}

function separatorsOf(c: CompatCase): string[] {
  if (c.language) return LANGUAGE_PRESETS[c.language]!;
  return c.separators ?? ['\n\n', '\n', ' ', ''];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The source text with every run of repeated `separator` written once: what LangChain's join makes of it. */
function collapse(text: string, separator: string): string {
  return text.replace(new RegExp(`(?:${escapeRegExp(separator)}){2,}`, 'g'), separator);
}

/** Lone surrogates replaced by U+FFFD, as UTF-8 encoding (TextEncoder, js-tiktoken) sees them. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\uFFFD');
}

/** Where content !== text, check it is one of the documented quirks, and the span is where it came from. */
function expectExplainedDifference(c: CompatCase, ch: CompatChunk): void {
  if (c.strategy === 'token') {
    // A window that cuts a character decodes the partial bytes as U+FFFD (also: lone surrogates in the source).
    expect(ch.content).toContain('\uFFFD');
    const inner = ch.content.replace(/^\uFFFD+/, '').replace(/\uFFFD+$/, '');
    expect(wellFormed(ch.text)).toContain(inner);
    return;
  }
  // A join that put back one separator where the source had several in a row.
  expect(c.keepSeparator).toBe('none');
  const explained = separatorsOf(c).some((s) => s !== '' && collapse(ch.text, s) === ch.content);
  expect(explained, `${JSON.stringify(ch.content)} vs source ${JSON.stringify(ch.text)}`).toBe(true);
}

async function compare(text: string, c: CompatCase): Promise<void> {
  const [expected, actual] = await Promise.all([reference(text, c), ours(text, c)]);
  if (!expected.ok) {
    // LangChain fails on this input (a custom separator list that runs out without ""): so must we.
    expect(actual.ok, `LangChain threw ${expected.error}`).toBe(false);
    return;
  }
  if (!actual.ok) throw new Error(`compat threw ${actual.error}; LangChain gave ${JSON.stringify(expected.chunks)}`);
  const chunks = actual.chunks;
  expect(chunks.map((ch) => ch.content)).toEqual(expected.chunks);
  for (let i = 0; i < chunks.length; i++) {
    const ch = chunks[i]!;
    expect(ch.text).toBe(text.slice(ch.start, ch.end));
    expect(ch.end).toBeGreaterThan(ch.start);
    if (i > 0) {
      expect(ch.start).toBeGreaterThanOrEqual(chunks[i - 1]!.start);
      expect(ch.end).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
    }
    if (ch.content !== ch.text) expectExplainedDifference(c, ch);
  }
  if (c.strategy === 'token' && c.overlap === 0 && chunks.length > 0) expectTokenWindowsTile(text, chunks);
}

/**
 * Without overlap the token windows partition the token ids, so their spans tile the source: each starts where
 * the previous one ended, or, where a window boundary cuts a character, both spans hold that one character.
 */
function expectTokenWindowsTile(text: string, chunks: CompatChunk[]): void {
  expect(chunks[0]!.start).toBe(0);
  expect(chunks[chunks.length - 1]!.end).toBe(text.length);
  for (let i = 1; i < chunks.length; i++) {
    const prev = chunks[i - 1]!;
    const next = chunks[i]!;
    if (next.start === prev.end) continue;
    expect(prev.content.endsWith('\uFFFD') && next.content.startsWith('\uFFFD')).toBe(true);
    expect([...text.slice(next.start, prev.end)]).toHaveLength(1);
  }
}

describe('compat langchain equals @langchain/textsplitters on random documents', () => {
  test(`CharacterTextSplitter (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(documentArb, characterCase, compare), { numRuns: RUNS });
  });

  test(`RecursiveCharacterTextSplitter with default, language and custom separators (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(documentArb, recursiveCase, compare), { numRuns: RUNS });
  });

  test(`TokenTextSplitter (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(shortDocumentArb, tokenCase, compare), { numRuns: RUNS });
  });

  test('lone surrogates and special-token text', async () => {
    const cases: [string, CompatCase][] = [
      ['ab\ud83dcd \udc00 ef', { strategy: 'token', size: 2, overlap: 1, unit: 'cl100k_base' }],
      ['ab\ud83dcd \udc00 ef', { strategy: 'recursive', size: 3, overlap: 1 }],
      ['ab\ud83dcd \udc00 ef', { strategy: 'recursive', size: 3, overlap: 1, unit: 'cl100k_base' }],
      ['before <|endoftext|> after', { strategy: 'token', size: 4, overlap: 1, unit: 'cl100k_base' }],
      ['before <|endoftext|> after', { strategy: 'recursive', size: 8, overlap: 1, unit: 'cl100k_base' }],
    ];
    for (const [text, c] of cases) await compare(text, c);
  });
});
