import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphemeOffsets, graphemes } from './graphemes';
import { isWhitespaceCode } from '../measure';
import { paragraphs } from './paragraphs';
import { MAY_END_SENTENCE, mayEndSentence, sentences } from './sentences';
import { findSeparators, splitOnSeparator } from './separators';
import { words } from './words';
import type { Range } from '../types';

const texts = (s: string, ranges: Range[]) => ranges.map((r) => s.slice(r.start, r.end));

describe('graphemes', () => {
  it('equals Intl.Segmenter on any text (the fast path for simple characters and the windows change nothing)', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
    const mixed = fc.array(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 8 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
        fc.constantFrom('\r\n', 'e\u0301', '👨‍👩‍👧', '🇩🇪🇫🇷', '#\ufe0f\u20e3', 'a\u0308b', '\u304b\u3099', 'नमस्ते', '한국어', 'السلام', '😀'.repeat(40), '中'.repeat(300), 'д'.repeat(300),
          '😀😀👍🏽😀', '😀\u200d🔥😀', '😀\ufe0f😀', '🏳️‍🌈😀', '😀\u0301', '🇩🇪😀🇫', '😀a😀', '👩🏾‍💻😀😀', '\u{1F3FB}😀', '😀\u{E0067}'),
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(mixed, (parts) => {
        const s = parts.join('');
        expect(texts(s, graphemes(s, 0, s.length))).toEqual([...segmenter.segment(s)].map((x) => x.segment));
      }),
      { numRuns: 400 },
    );
  });

  it('cuts ASCII runs longer than its first buffer one cluster per unit, joining only a combining mark', () => {
    const s = 'ab'.repeat(40_000) + 'e\u0301' + 'x\r\n'.repeat(20_000);
    const got = graphemes(s, 0, s.length);
    const expected: Range[] = [];
    for (let i = 0; i < 80_000; i++) expected.push({ start: i, end: i + 1 });
    expected.push({ start: 80_000, end: 80_002 });
    for (let i = 80_002; i < s.length; i += 3) expected.push({ start: i, end: i + 1 }, { start: i + 1, end: i + 3 });
    expect(got).toEqual(expected);
  });

  it('cuts runs of emoji longer than its first buffer one per emoji, keeping a skin tone with the last', () => {
    const s = '😀'.repeat(40_000) + '👍🏽' + '🙂'.repeat(3);
    const got = graphemes(s, 0, s.length);
    expect(got.length).toBe(40_000 + 1 + 3);
    expect(got.slice(0, 40_000).every((r, i) => r.start === 2 * i && r.end === 2 * i + 2)).toBe(true);
    expect(got[40_000]).toEqual({ start: 80_000, end: 80_004 });
    expect(got.at(-1)).toEqual({ start: s.length - 2, end: s.length });
  });
});

describe('grapheme offsets: edgesAreContent and longest (what lets the packer skip per-cluster work)', () => {
  it('property: edgesAreContent only when no cluster begins or ends with whitespace (always without whitespace or controls); longest is the longest cluster', () => {
    const part = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
      fc.constantFrom(' ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u2028', '\ufeff', 'e\u0301', '😀😀', '中文', 'abc', 'x\u200d '),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 24 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const s = parts.join('');
        const start = s.length === 0 ? 0 : a % s.length;
        const end = start + (s.length === start ? 0 : b % (s.length - start + 1));
        const pieces = graphemeOffsets(s, start, end);
        let blankEdge = false;
        let blankOrControl = false;
        let longest = 0;
        for (let k = 0; k < pieces.length; k++) {
          longest = Math.max(longest, pieces.ends[k]! - pieces.starts[k]!);
          const first = s.charCodeAt(pieces.starts[k]!);
          const last = s.charCodeAt(pieces.ends[k]! - 1);
          if (isWhitespaceCode(first) || isWhitespaceCode(last)) blankEdge = true;
        }
        for (let i = start; i < end; i++) if (isWhitespaceCode(s.charCodeAt(i)) || s.charCodeAt(i) < 0x20) blankOrControl = true;
        if (pieces.edgesAreContent) expect(blankEdge).toBe(false);
        if (!blankOrControl) expect(pieces.edgesAreContent).toBe(true);
        expect(pieces.longest).toBe(longest); // the packer skips its per-cluster fit check when this fits
      }),
      { numRuns: 600 },
    );
  });
});

describe('sentences', () => {
  it('mayEndSentence answers as the regex it is made from, on any text (emoji blocks, lone surrogates, all planes)', () => {
    const text = fc.array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 6 }),
        fc.integer({ min: 0x1f000, max: 0x1fb10 }).map((cp) => String.fromCodePoint(cp)),
        fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
        fc.constantFrom('abc ', '中文', '😀😀', 'x\u200dy', '\t', '.', '。'),
      ),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(text, (parts) => {
        const s = parts.join('');
        expect(mayEndSentence(s)).toBe(MAY_END_SENTENCE.test(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals one Intl.Segmenter pass on long runs with and without sentence ends (windows skipped when none can end)', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const run = fc.tuple(fc.constantFrom('lorem ', 'abc', '😀', 'é', '٣', 'Ok. ', 'Why? ', '\n', '。', 'x\u2029', '\u0085', 'a\u200db'), fc.integer({ min: 1, max: 1200 }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 5 }), (runs) => {
        const doc = runs.map(([piece, times]) => piece.repeat(times)).join('');
        const whole = [...segmenter.segment(doc)].map((x) => x.segment);
        const got = texts(doc, sentences(doc, 0, doc.length, 'en'));
        // Windows are cut at boundaries, except in a long stretch without a sentence end (documented).
        if (Math.max(0, ...doc.split(/[.?!。\n\u2029\u0085]/u).map((part) => part.length)) > 2048) return;
        expect(got).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });

  it('finds the same sentences in windows as in one pass, for text with and without line breaks', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const line = 'Mr. Smith went to Washington. He said: "Hello!" Then he left? Yes. ';
    for (const doc of [(line + '\n').repeat(150), line.repeat(150), '中文句子。'.repeat(3000)]) {
      const whole = [...segmenter.segment(doc)].map((x) => x.segment);
      expect(texts(doc, sentences(doc, 0, doc.length, 'en'))).toEqual(whole);
    }
  });

  it('tiles the range it is given', () => {
    const s = 'xx One. Two! Three? yy';
    expect(texts(s, sentences(s, 3, 19, 'en'))).toEqual(['One. ', 'Two! ', 'Three?']);
  });
});

describe('paragraphs', () => {
  it('cuts after blank lines in \\n, \\r\\n and \\r text, including lines of spaces', () => {
    const s = 'a\nb\n\nc\r\n\r\nd\r\re\n \t \nf';
    expect(texts(s, paragraphs(s, 0, s.length))).toEqual(['a\nb\n\n', 'c\r\n\r\n', 'd\r\r', 'e\n \t \n', 'f']);
  });
});

describe('words', () => {
  it('cuts before each word, keeping whitespace with the word before it', () => {
    const s = '  one two\t\nthree ';
    expect(texts(s, words(s, 0, s.length))).toEqual(['  one ', 'two\t\n', 'three ']);
  });
});

describe('separators', () => {
  const s = 'a--b--c';
  it('places the separator by keepSeparator', () => {
    expect(texts(s, splitOnSeparator(s, 0, s.length, '--', 'start'))).toEqual(['a', '--b', '--c']);
    expect(texts(s, splitOnSeparator(s, 0, s.length, '--', 'end'))).toEqual(['a--', 'b--', 'c']);
    expect(texts(s, splitOnSeparator(s, 0, s.length, '--', 'none'))).toEqual(['a', 'b', 'c']);
  });

  it('finds only occurrences entirely inside the range; regex matches are non-overlapping', () => {
    expect(findSeparators(s, 0, 4, '--')).toEqual([{ start: 1, end: 3 }]);
    expect(findSeparators('a\n\n\nb\nc', 0, 7, /\n+/gu)).toEqual([{ start: 1, end: 4 }, { start: 5, end: 6 }]);
    // A regex that can match empty text (rejected by validation) still cannot loop forever here.
    expect(findSeparators('ab', 0, 2, /x*/gu)).toEqual([]);
  });
});
