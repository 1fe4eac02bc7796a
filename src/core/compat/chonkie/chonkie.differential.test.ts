/**
 * Differential property tests: Chunkscope's compat mode `chonkie` against the real @chonkiejs/core 0.0.11 on random
 * documents and settings. For every case: the same chunk texts in the same order (`content`), the chunk contract
 * (`text === source.slice(start, end)`), the package's offsets kept exactly — as start/end where they point at its
 * text, else in metadata.referenceOffsets — and every difference between `content` and `text` one of the
 * documented quirks.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Chunk, UnitName } from '../../types';
import { compatChunks, referenceChunks, type ChonkieCase, type PackageChunk } from './fixtures/harness';

const RUNS = 1000;

// ---------- documents ----------

const words = fc.constantFrom('lorem', 'ipsum', 'dolor', 'a', 'the', 'chunk', 'Überstraße', 'naïve', 'end.', 'x,', 'Ünïcödé', 'café');
const punctuation = fc.constantFrom('. ', '! ', '? ', '.', ',', ';', ':', '—', '“', '”', '"', "'", '(', ')', '-', '...', '[', '`', '|');
const whitespace = fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '\n\n\n', '\r\n', '\r\n\r\n', '\r', '\t', '\u00a0', '\u3000');
const emoji = fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵', '🦛', '⚡');
const cjk = fc.constantFrom('你好', '世界', '日本語のテキスト', '한국어', '。', '！');
const longRunOf = (max: number) =>
  fc.tuple(fc.constantFrom('x', 'ab', '—', '字', '🙂', 'é'), fc.integer({ min: 10, max })).map(([s, n]) => s.repeat(n));

const fragmentOf = (run: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: words, weight: 10 },
    { arbitrary: whitespace, weight: 8 },
    { arbitrary: punctuation, weight: 4 },
    { arbitrary: emoji, weight: 2 },
    { arbitrary: cjk, weight: 2 },
    { arbitrary: run, weight: 1 },
  );

/** Mostly real-looking documents, sometimes empty, whitespace only, or a single unbroken run. */
const documentOf = (maxFragments: number, run: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: fc.array(fragmentOf(run), { maxLength: maxFragments, size: 'medium' }).map((p) => p.join('')), weight: 12 },
    { arbitrary: fc.constantFrom('', ' ', '\n\n', '\r\n', '\t'), weight: 1 },
    { arbitrary: run, weight: 1 },
  );
const documentArb = documentOf(120, longRunOf(80));
/** Token units encode every document on both sides with js-tiktoken (quadratic in a long pre-token piece). */
const shortDocumentArb = documentOf(40, longRunOf(20));

/** Sizes biased small so that most documents make several chunks; sometimes Chonkie's defaults (omitted). */
const sizeAndOverlap = (maxSize: number, withOverlap: boolean) =>
  fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: maxSize })).chain((size) =>
    fc.record({
      size: fc.constant<number | undefined>(size),
      overlap: withOverlap
        ? fc.oneof({ arbitrary: fc.constant<number | undefined>(undefined), weight: 1 }, { arbitrary: fc.integer({ min: 0, max: size - 1 }), weight: 3 })
        : fc.constant<number | undefined>(undefined),
    }),
  );
const sizes = (maxSize: number, withOverlap: boolean) =>
  fc.oneof({ arbitrary: sizeAndOverlap(maxSize, withOverlap), weight: 12 }, { arbitrary: fc.constant({ size: undefined, overlap: undefined }), weight: 1 });

const unitArb = (tokenWeight: number): fc.Arbitrary<UnitName | undefined> =>
  fc.oneof(
    { arbitrary: fc.constant<UnitName | undefined>(undefined), weight: 3 },
    { arbitrary: fc.constant<UnitName>('chars'), weight: 3 },
    { arbitrary: fc.constantFrom<UnitName>('cl100k_base', 'o200k_base', 'gpt2'), weight: tokenWeight },
  );

const caseOf = (strategy: ChonkieCase['strategy'], maxSize: number, tokenWeight: number): fc.Arbitrary<ChonkieCase> =>
  fc.tuple(sizes(maxSize, strategy !== 'recursive'), unitArb(tokenWeight)).map(([so, unit]) => {
    const c: ChonkieCase = { strategy };
    if (so.size !== undefined) c.size = so.size;
    if (so.overlap !== undefined) c.overlap = so.overlap;
    if (unit !== undefined) c.unit = unit;
    return c;
  });

// ---------- the comparison ----------

type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(f: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: String(e) };
  }
}

/** Lone surrogates replaced by U+FFFD, as UTF-8 encoding (TextEncoder, js-tiktoken) sees them. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\uFFFD');
}

/** Where the package's offsets are not where its text came from, or its text is not a source range: a documented quirk. */
function expectExplained(text: string, c: ChonkieCase, ours: Chunk, ref: PackageChunk): void {
  const tokenUnit = c.unit !== undefined && c.unit !== 'chars';
  if (c.strategy === 'token') {
    // Token indexes reported as character offsets (a real tokenizer only); a window cutting a character is U+FFFD.
    expect(tokenUnit, 'the character tokenizer reports exact offsets').toBe(true);
    const inner = ref.text.replace(/^\uFFFD+/, '').replace(/\uFFFD+$/, '');
    expect(wellFormed(ours.text)).toContain(inner);
    return;
  }
  // RecursiveChunker: byte offsets used as string indexes (non-ASCII text), or its whitespace join.
  expect(c.strategy, 'SentenceChunker texts are exact source ranges').toBe('recursive');
  // eslint-disable-next-line no-control-regex
  const nonAscii = /[^\u0000-\u007f]/.test(text);
  const spaceRuns = / {2}|^ | $/.test(text) || ref.text.startsWith(' ');
  expect(nonAscii || spaceRuns || tokenUnit, `unexplained: ${JSON.stringify(ref)} for ${JSON.stringify(ours.text)}`).toBe(true);
}

async function compare(text: string, c: ChonkieCase): Promise<void> {
  const [expected, actual] = await Promise.all([attempt(() => referenceChunks(text, c)), attempt(() => compatChunks(text, c))]);
  if (!expected.ok) {
    expect(actual.ok, `Chonkie threw ${expected.error}`).toBe(false);
    return;
  }
  if (!actual.ok) throw new Error(`compat threw ${actual.error}; Chonkie gave ${JSON.stringify(expected.value)}`);
  const ref = expected.value;
  const ours = actual.value;
  expect(ours.map((ch) => ch.content)).toEqual(ref.map((r) => r.text));
  for (let i = 0; i < ours.length; i++) {
    const ch = ours[i]!;
    const r = ref[i]!;
    expect(ch.text).toBe(text.slice(ch.start, ch.end));
    const same = ch.start === r.startIndex && ch.end === r.endIndex && ch.content === ch.text;
    if (same) {
      expect(ch.metadata.referenceOffsets).toBeUndefined();
    } else {
      expect(ch.metadata.referenceOffsets).toEqual({ start: r.startIndex, end: r.endIndex });
      expectExplained(text, c, ch, r);
    }
    if (i > 0) expect(ch.start).toBeGreaterThanOrEqual(ours[i - 1]!.start);
  }
}

describe('compat chonkie equals @chonkiejs/core on random documents', () => {
  test(`RecursiveChunker (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(documentArb, caseOf('recursive', 160, 1), compare), { numRuns: RUNS });
  });

  test(`TokenChunker (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(shortDocumentArb, caseOf('token', 40, 3), compare), { numRuns: RUNS });
  });

  test(`SentenceChunker (${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(documentArb, caseOf('sentence', 200, 1), compare), { numRuns: RUNS });
  });

  test('lone surrogates, special-token text, found counterexamples', async () => {
    const cases: [string, ChonkieCase][] = [
      ['ab\ud83dcd \udc00 ef', { strategy: 'token', size: 2, overlap: 1 }],
      ['ab\ud83dcd \udc00 ef', { strategy: 'token', size: 2, overlap: 1, unit: 'cl100k_base' }],
      ['ab\ud83dcd \udc00 ef gh ij kl mn op', { strategy: 'recursive', size: 3 }],
      ['ab\ud83dcd \udc00 ef. gh ij kl. mn op', { strategy: 'sentence', size: 5 }],
      ['before <|endoftext|> after', { strategy: 'token', size: 4, overlap: 1, unit: 'cl100k_base' }],
      ['before <|endoftext|> after and more', { strategy: 'recursive', size: 3, unit: 'cl100k_base' }],
      // A chunk of the whitespace join's spaces only, after the source's end in byte terms: kept in order.
      ['éééééééééé . . lorem ', { strategy: 'recursive', size: 3 }],
    ];
    for (const [text, c] of cases) await compare(text, c);
  });
});
