import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meterFor } from '../measure';
import { asciiScanAgrees, forEachAsciiWord, wordRanges, wordsUnit } from './words';

describe('words unit (Intl.Segmenter word granularity)', () => {
  it('counts words in any language', () => {
    const ja = '吾輩は猫である。名前はまだ無い。';
    expect(wordsUnit.count(ja)).toBe(9); // 吾輩 は 猫 で ある 名前 は まだ 無い
    expect(wordsUnit.count('我爱北京天安门')).toBe(4);
    expect(wordsUnit.count('สวัสดีครับ ผมชื่อสมชาย')).toBe(5);
    expect(wordsUnit.count('Donaudampfschifffahrt ist schön.')).toBe(3);
    expect(wordsUnit.count('hi 😀 👍🏽 👨‍👩‍👧 — ok!')).toBe(5); // emoji are words, the dash and ! are not
    expect(wordsUnit.count('  ... ')).toBe(0);
  });

  it('a 345-character Japanese text is not 4 words', () => {
    const sentence = '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。';
    let ja = '';
    while (ja.length < 345) ja += sentence + (ja.length % 3 === 0 ? ' ' : '');
    ja = ja.slice(0, 345);
    expect(ja.length).toBe(345);
    expect(wordsUnit.count(ja)).toBeGreaterThan(150);
  });

  it('segments long text in windows with the same result and exact offsets', () => {
    const line = 'The quick brown fox, 速い茶色の狐が, jumps over สุนัขขี้เกียจ 😀.\n';
    const text = line.repeat(800); // ~50 KB: many windows
    const t0 = performance.now();
    const { starts, ends } = wordRanges(text);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(starts.length).toBe(wordsUnit.count(line) * 800);
    for (let i = 0; i < 50; i++) expect(/\s/.test(text.slice(starts[i]!, ends[i]!))).toBe(false);
    // A long run with no whitespace at all is still segmented (cut after sentence marks).
    const cjk = '吾輩は猫である。'.repeat(2000);
    expect(wordsUnit.count(cjk)).toBe(5 * 2000);
  });

  it('counts what one pass of Intl.Segmenter counts, on long runs of emoji and letters (stretches cut between emoji)', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const reference = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike || /\p{Extended_Pictographic}/u.test(s.segment)).length;
    const run = fc.tuple(fc.constantFrom('😀', '👍🏽', '🇩🇪', '🏳️‍🌈', '😀\u200d🔥', '🄰', '#\ufe0f\u20e3', '🌍\ufe0f', 'ab', '猫', ' ', '.'), fc.integer({ min: 1, max: 250 }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 4 }), (runs) => {
        // Under 4,096 units: one window, cut in stretches (a longer run with no safe cut gets the documented hard cut).
        const text = runs.map(([piece, times]) => piece.repeat(times)).join('');
        expect(wordsUnit.count(text)).toBe(reference(text));
      }),
      { numRuns: 150 },
    );
  });

  it('the ASCII scan finds exactly the word-like segments of Intl.Segmenter, on any ASCII text', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    expect(asciiScanAgrees()).toBe(true); // reads the joiners of this segmenter, too
    // Every class the scan tells apart, and the characters around them that break.
    const alphabet = ['a', 'Z', 'q', '0', '7', '_', '.', "'", ',', ';', ':', '-', '"', ' ', '  ', '\n', '\r\n', '\t', '!', '?', '(', '@', '#', '/', '\\', '$', '%', '&', '*', '+', '=', '|', '~', '`', '^', '<', '{'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 60 }), (parts) => {
        const text = parts.join('');
        const fast: [number, number][] = [];
        forEachAsciiWord(text, (a, b) => fast.push([a, b]), 0, text.length);
        const slow = [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s): [number, number] => [s.index, s.index + s.segment.length]);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 3000 },
    );
  });

  it('long text that mixes ASCII stretches with other scripts gets the words of one segmenter pass', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const reference = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike || /\p{Extended_Pictographic}/u.test(s.segment)).map((s) => [s.index, s.index + s.segment.length]);
    const pieces = ['The quick fox. ', "can't stop ", '3.14, 1,000 ', 'a_b __ _ ', 'e.g. x:y ', '\n', 'naïve café ', '猫である。', '😀 ', 'ครับ ', '«quoted» ', '\u0301', 'x'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 400 }), (parts) => {
        // Up to ~6 KB: several windows and stretches, some ASCII, some not. (Segmenting it whole is the reference.)
        const text = parts.join('');
        const { starts, ends } = wordRanges(text);
        expect(Array.from(starts, (a, i) => [a, ends[i]!])).toEqual(reference(text));
      }),
      { numRuns: 120 },
    );
  });

  it('a span that starts just after a safe cut and holds a long run counts that run as the document does', () => {
    // fast-check's counterexample: the span opens inside the emoji (a lone low surrogate), 890 units of emoji before
    // 3,711 letters without a space. Counted alone, its first window found no safe cut in its last three quarters and
    // cut the letters in two (180 words); the document's windows, begun elsewhere, kept them whole (179).
    const text = 'abc'.repeat(2889) + '😀\u200d🔥'.repeat(1226) + 'abc'.repeat(1237) + ' '.repeat(935);
    expect(meterFor(wordsUnit, text).exact(13906, 18509)).toBe(179);
    expect(wordsUnit.count(text.slice(13906, 18509))).toBe(179);
  });

  it('the span meter equals count(slice) on long runs with no safe cut, for many spans from one start', () => {
    // Runs longer than a window (4,096 units) with nowhere to cut but sentence marks or hard cuts, as a line of
    // letters without spaces, CJK without punctuation or emoji joined by ZWJ has.
    const run = fc.tuple(fc.constantFrom('abc', 'x', '猫である', '。', '.', 'a😀', '😀\u200d🔥', ' ', '\n', '1,2'), fc.integer({ min: 1, max: 3000 }));
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.nat(), (runs, ends, x) => {
        const text = runs.map(([piece, times]) => piece.repeat(times)).join('');
        const meter = meterFor(wordsUnit, text);
        const a = x % (text.length + 1);
        // Several ends from the same start, in any order (the meter keeps the windows of its last start).
        for (const y of ends) {
          const b = a + (y % (text.length - a + 1));
          expect(meter.exact(a, b)).toBe(wordsUnit.count(text.slice(a, b)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the span meter equals count(slice) for any span', () => {
    const alphabet = ['a', 'b', ' ', '\n', '猫', 'で', 'ある', '。', 'ครับ', '😀', '-', 'é', '\u0301'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { minLength: 0, maxLength: 900 }),
        fc.nat(),
        fc.nat(),
        (parts, x, y) => {
          const text = parts.join('');
          const meter = meterFor(wordsUnit, text);
          const a = text.length ? x % (text.length + 1) : 0;
          const b = text.length ? y % (text.length + 1) : 0;
          const [s, e] = a <= b ? [a, b] : [b, a];
          expect(meter.exact(s, e)).toBe(wordsUnit.count(text.slice(s, e)));
        },
      ),
      { numRuns: 150 },
    );
  });
});
