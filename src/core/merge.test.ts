import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meterFor, type SpanMeter } from './measure';
import { cutFilterFor, mergePieces, packLevels, RunGuard } from './merge';
import type { SplitSpan } from './registry';
import { charsUnit, getUnit } from './units';
import type { Level, Range } from './types';
import { separatorLevels } from './segment/separators';

function merge(source: string, pieces: Range[], size: number, overlap: number): SplitSpan[] {
  const out: SplitSpan[] = [];
  mergePieces(source, pieces, { size, overlap, meter: meterFor(charsUnit, source), guard: new RunGuard({}, source.length) }, out);
  return out;
}
const texts = (source: string, spans: Range[]) => spans.map((s) => source.slice(s.start, s.end));

/** Pieces of source[start, end) cut before each `sep` (the separator opens the next piece, as keepSeparator 'start'). */
function piecesBefore(s: string, sep: string, start = 0, end = s.length): Range[] {
  const out: Range[] = [];
  let pieceStart = start;
  for (let i = start + 1; i <= end; i++) {
    if (i === end || s[i] === sep) {
      out.push({ start: pieceStart, end: i });
      pieceStart = i;
    }
  }
  return out;
}

describe('mergePieces', () => {
  const source = 'aaa bbb ccc ddd';

  it('packs whole pieces up to the size and overlaps by as many whole pieces as fit the overlap', () => {
    // "aaa bbb" is 7 chars; adding " ccc" makes 11. The next chunk may repeat "bbb" (3 chars <= 3).
    expect(texts(source, merge(source, piecesBefore(source, ' '), 7, 3))).toEqual(['aaa bbb', 'bbb ccc', 'ccc ddd']);
  });

  it('gives up the overlap when no whole piece fits in it', () => {
    // "bbb" alone is 3 chars, more than an overlap of 2.
    expect(texts(source, merge(source, piecesBefore(source, ' '), 7, 2))).toEqual(['aaa bbb', 'ccc ddd']);
  });

  it('drops an overlap that would leave the next chunk no room for new text', () => {
    // Size 9, overlap 8: "aaa bbb" (7) fits, " ccc" does not (11). Repeating "bbb" would make "bbb ccc" (7) fine.
    // Size 5, overlap 4: chunks are single words; repeating "bbb" would need "bbb ccc" (7 > 5): no overlap.
    expect(texts(source, merge(source, piecesBefore(source, ' '), 9, 8))).toEqual(['aaa bbb', 'bbb ccc', 'ccc ddd']);
    expect(texts(source, merge(source, piecesBefore(source, ' '), 5, 4))).toEqual(['aaa', 'bbb', 'ccc', 'ddd']);
  });

  it('flags a single piece larger than the size instead of cutting it', () => {
    const s = 'tiny enormouspiece end';
    expect(merge(s, piecesBefore(s, ' '), 5, 0)).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 18, oversize: true },
      { start: 19, end: 22 },
    ]);
  });

  it('trims whitespace at chunk edges through the offsets, never deleting it inside a chunk', () => {
    const s = '  aaa  \n\n  bbb  ';
    const spans = merge(s, [{ start: 0, end: 9 }, { start: 9, end: 16 }], 100, 0);
    expect(spans).toEqual([{ start: 2, end: 14 }]);
    expect(s.slice(2, 14)).toBe('aaa  \n\n  bbb');
  });

  it('never starts or ends a chunk on a whitespace-only piece', () => {
    const s = 'aaa\n\n\n\nbbb';
    const pieces = [{ start: 0, end: 3 }, { start: 3, end: 5 }, { start: 5, end: 7 }, { start: 7, end: 10 }];
    expect(texts(s, merge(s, pieces, 3, 0))).toEqual(['aaa', 'bbb']);
    expect(merge('   \n ', [{ start: 0, end: 5 }], 3, 0)).toEqual([]);
  });

  it('re-counts token sizes on the final text and keeps sizes and overlaps within the settings', async () => {
    const unit = await getUnit('cl100k_base');
    const s = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const out: SplitSpan[] = [];
    mergePieces(s, piecesBefore(s, ' '), { size: 12, overlap: 4, meter: meterFor(unit, s), guard: new RunGuard({}, s.length) }, out);
    expect(out.length).toBeGreaterThan(10);
    for (const span of out) expect(unit.count(s.slice(span.start, span.end))).toBeLessThanOrEqual(12);
    for (let i = 1; i < out.length; i++) {
      expect(out[i]!.start).toBeLessThan(out[i - 1]!.end); // 4 tokens always hold a whole word here
      expect(unit.count(s.slice(out[i]!.start, out[i - 1]!.end))).toBeLessThanOrEqual(4);
    }
  });

  it('throws an AbortError when the signal is raised', () => {
    const s = 'word '.repeat(5000);
    const signal = { aborted: true };
    const run = () =>
      mergePieces(s, piecesBefore(s, ' '), { size: 10, overlap: 0, meter: meterFor(charsUnit, s), guard: new RunGuard({ signal }, s.length) }, []);
    expect(run).toThrowError(expect.objectContaining({ name: 'AbortError' }));
  });
});

describe('mergePieces fast paths', () => {
  // Characters are counted by subtraction and, for units whose counts only grow with the span, the overlap is
  // found walking back from the chunk's end. Both must give what the general path (meter calls, forward search)
  // gives with the same counts.
  const general = (meter: SpanMeter): SpanMeter => ({ exactEstimates: false, exact: meter.exact, estimate: meter.estimate });
  const run = (s: string, pieces: Range[], size: number, overlap: number, meter: SpanMeter): SplitSpan[] => {
    const out: SplitSpan[] = [];
    mergePieces(s, pieces, { size, overlap, meter, guard: new RunGuard({}, s.length) }, out);
    return out;
  };
  const word = fc.constantFrom('a', 'bb', 'cccc', 'dddddddd', 'élan', 'x.y');
  const gap = fc.constantFrom(' ', '  ', '\n', '\n\n', ' \n');
  const text = fc.array(fc.tuple(word, gap), { maxLength: 50 }).map((pairs) => pairs.map(([w, g]) => w + g).join(''));
  const sizes = fc.integer({ min: 1, max: 60 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 })));

  it('chars and words: the same chunks as the general path, for any pieces, size and overlap', async () => {
    const wordsUnit = await getUnit('words');
    fc.assert(
      fc.property(text, sizes, fc.constantFrom(' ', '\n'), (s, [size, overlap], sep) => {
        const pieces = piecesBefore(s, sep);
        for (const unit of [charsUnit, wordsUnit]) {
          const meter = meterFor(unit, s);
          expect(run(s, pieces, size, overlap, meter)).toEqual(run(s, pieces, size, overlap, general(meter)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('tokens: estimates from edge values and level tables kept across runs give the general path\'s chunks', async () => {
    const unit = await getUnit('cl100k_base');
    const wordsUnit = await getUnit('words');
    // Words, punctuation and spaces whose pre-token pieces straddle the piece edges.
    const tokenText = fc
      .array(fc.tuple(fc.constantFrom('a', 'word', "don't", 'x.y', '😀', '中文', '...', '123456', 'élan'), gap), { maxLength: 60 })
      .map((pairs) => pairs.map(([w, g]) => w + g).join(''));
    fc.assert(
      fc.property(tokenText, sizes, sizes, (s, [size, overlap], [size2, overlap2]) => {
        const meter = meterFor(unit, s);
        expect(meter.edges).toBeDefined();
        const pieces = piecesBefore(s, ' ');
        expect(run(s, pieces, size, overlap, meter)).toEqual(run(s, pieces, size, overlap, general(meter)));
        // One set of levels (their split memo) packed at two sizes: the second run reads the first one's tables.
        const levels = separatorLevels(s, ['\n', ' ', ''], false, 'start', cutFilterFor(s, unit));
        // The reference gets fresh piece lists, so no table of an earlier run.
        const fresh: Level[] = levels.map((level) => Object.assign((start: number, end: number) => [...level(start, end)], { offsets: level.offsets }));
        const pack = (lv: Level[], m: SpanMeter, sz: number, ov: number) => {
          const out: SplitSpan[] = [];
          packLevels(s, 0, s.length, lv, { size: sz, overlap: ov, meter: m, guard: new RunGuard({}, s.length) }, out);
          return out;
        };
        pack(levels, meter, size, overlap);
        expect(pack(levels, meter, size2, overlap2)).toEqual(pack(fresh, general(meter), size2, overlap2));
        // Another unit on the same levels counts for itself, not from the tokens' tables.
        const wordsMeter = meterFor(wordsUnit, s);
        expect(pack(levels, wordsMeter, size2, overlap2)).toEqual(pack(fresh, general(wordsMeter), size2, overlap2));
      }),
      { numRuns: 300 },
    );
  });
});

describe('packLevels on the grapheme level as offset arrays', () => {
  it('packs the same chunks as from the level\'s range objects (chars, words, tokens; runs without spaces)', async () => {
    const wordsUnit = await getUnit('words');
    const tokensUnit = await getUnit('cl100k_base');
    const run = fc.constantFrom('abcdefgh', 'x'.repeat(40), '😀😀', 'e\u0301', '中文', ' ', '\n', 'a.b,c', '👍🏽');
    const text = fc.array(run, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 50 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }))), (s, [size, overlap]) => {
        for (const unit of [charsUnit, wordsUnit, tokensUnit]) {
          const levels = separatorLevels(s, ['\n', ''], false, 'start', cutFilterFor(s, unit));
          // The same functions without `offsets`: packLevels then takes the Range[] path.
          const plain: Level[] = levels.map((level) => (start: number, end: number) => level(start, end));
          expect(levels[1]!.offsets).toBeDefined();
          const pack = (lv: Level[]) => {
            const out: SplitSpan[] = [];
            packLevels(s, 0, s.length, lv, { size, overlap, meter: meterFor(unit, s), guard: new RunGuard({}, s.length) }, out);
            return out;
          };
          expect(pack(levels)).toEqual(pack(plain));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('packLevels', () => {
  it('cuts only the pieces that are too large at the next level, and packs the others together', () => {
    const s = 'ab cd\nefghijkl mn\nop';
    const lines = (start: number, end: number) => piecesBefore(s, '\n', start, end);
    const spaces = (start: number, end: number) => piecesBefore(s, ' ', start, end);
    const out: SplitSpan[] = [];
    packLevels(s, 0, s.length, [lines, spaces], { size: 8, overlap: 0, meter: meterFor(charsUnit, s), guard: new RunGuard({}, s.length) }, out);
    // Lines: "ab cd" (5) fits; "\nefghijkl mn" (11 trimmed) is cut at spaces into "efghijkl" (8) and "mn"; "\nop" fits.
    expect(texts(s, out)).toEqual(['ab cd', 'efghijkl', 'mn', 'op']);
  });
});
