import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsUnit } from '../units';
import { wordsUnit } from '../units/words';
import { buildOutline } from './markdown';
import { splitMarkdown } from './markdownSplit';
import { isWhitespaceCode } from '../measure';
import { minFragmentFor, wordStartsBefore } from './sections';

/**
 * Fragments: a text chunk smaller than minFragment only remains when it could join neither neighbour from its own
 * section within the size (and then the cut before it could not move back). Code blocks and tables stay whole.
 */
const word = fc.constantFrom('record', 'stay', 'policy', 'travel', 'meal', 'hotel', 'per', 'diem', 'a', '😀', '日本語');
const sentence = fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => w.join(' ') + '.');
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 5 }).map((s) => s.join(' '));
const block = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 1, arbitrary: fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => '```\n' + w.join('\n') + '\n```') },
  { weight: 1, arbitrary: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => '| k | v |\n|---|---|\n' + w.map((x) => `| ${x} | 1 |`).join('\n')) },
);
const section = fc.record({ depth: fc.integer({ min: 1, max: 3 }), title: fc.array(word, { minLength: 1, maxLength: 3 }), body: fc.array(block, { maxLength: 4 }) });

describe('markdown: fragments join a neighbour', () => {
  it('no text chunk under minFragment that fits with its previous or next chunk of the same section', () => {
    fc.assert(
      fc.property(
        fc.array(section, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 30, max: 300 }),
        fc.constantFrom(0, 0.1),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        fc.boolean(),
        (sections, chars, fraction, min, words) => {
          const text = sections.map((s) => `${'#'.repeat(s.depth)} ${s.title.join(' ')}\n\n${s.body.join('\n\n')}`).join('\n\n');
          const unit = words ? wordsUnit : charsUnit;
          const size = words ? Math.max(4, Math.floor(chars / 6)) : chars;
          const minFragment = min === null ? null : words ? Math.floor(min / 6) : min;
          const outline = buildOutline(text);
          const spans = splitMarkdown(text, { size, overlap: Math.floor(size * fraction), unit, outline, minFragment, maxDepth: 3 });
          const least = minFragmentFor(size, minFragment);
          const sectionOf = (at: number): number => outline.headings.filter((h) => h.start <= at).length;
          const count = (start: number, end: number): number => unit.count(text.slice(start, end).trim());
          const headingOnly = (s: { start: number; end: number }): boolean => outline.headings.some((h) => h.start === s.start && h.end >= s.end);
          let previous: (typeof spans)[number] | undefined;
          spans.forEach((s, i) => {
            // The chunk contract: exact, trimmed, ordered spans; sizes within the limit unless flagged.
            const own = text.slice(s.start, s.end);
            expect(own.trim()).toBe(own);
            if (previous) expect(s.start).toBeGreaterThan(previous.start);
            previous = s;
            if (!s.oversize) expect(unit.count(s.content ?? own)).toBeLessThanOrEqual(size);
            if (s.contentType !== 'text' || s.oversize || count(s.start, s.end) >= least) return;
            const before = spans[i - 1];
            const after = spans[i + 1];
            const plain = (n: typeof s | undefined) => n !== undefined && n.contentType === 'text' && !n.oversize && n.content === undefined;
            if (plain(before) && sectionOf(before!.start) === sectionOf(s.start) && !headingOnly(s)) {
              expect(count(before!.start, s.end), `"${own}" could join the chunk before it`).toBeGreaterThan(size);
            }
            if (plain(after) && sectionOf(after!.start) === sectionOf(s.start)) {
              expect(count(s.start, after!.end), `"${own}" could join the chunk after it`).toBeGreaterThan(size);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('minFragment 0 keeps the packer\'s pieces; the default (size / 4) joins "every receipt" and moves "stay." back', () => {
    const text = '# Travel\n\nBook the hotel early and keep every receipt for the record.\n\nMeals are paid per diem for each day of your stay.';
    const cut = (minFragment?: number) => splitMarkdown(text, { size: 44, overlap: 0, unit: charsUnit, minFragment }).map((s) => text.slice(s.start, s.end));
    expect(cut(0)).toEqual(['# Travel\n\nBook the hotel early and keep', 'every receipt', 'for the record.', 'Meals are paid per diem for each day of your', 'stay.']);
    expect(cut()).toEqual(['# Travel\n\nBook the hotel early and keep', 'every receipt for the record.', 'Meals are paid per diem for each day', 'of your stay.']);
  });
});

describe('wordStartsBefore', () => {
  /** The scan it replaced: back from `to`, over blanks then over a word, while after `from`. */
  function scanBack(text: string, from: number, to: number, limit: number): number[] {
    const starts: number[] = [];
    let at = to;
    while (starts.length < limit) {
      let p = at;
      while (p > from && isWhitespaceCode(text.charCodeAt(p - 1))) p--;
      while (p > from && !isWhitespaceCode(text.charCodeAt(p - 1))) p--;
      if (p <= from) break;
      starts.push(p);
      at = p;
    }
    return starts;
  }
  const piece = fc.constantFrom('a', 'word', 'longerword', ' ', '  ', '\n', '\n\n', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028', '\v', '\f', '\r', '\u1680', '\u2000', '\u200a', '\u202f', '\u205f', '\u2029', '\u200b', '\u180e', '\u0085', '😀', '\ud83d', 'x'.repeat(300), ' '.repeat(300));
  it('gives the word starts the backward scan gives, latest first, up to the limit (every blank of isWhitespaceCode)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 250 }), (parts, a, b, limit) => {
        const text = parts.join('');
        const from = text.length === 0 ? 0 : a % text.length;
        const to = text.length === 0 ? 0 : b % (text.length + 1);
        expect(wordStartsBefore(text, from, to, limit)).toEqual(scanBack(text, from, to, limit));
      }),
      { numRuns: 1500 },
    );
  });
});
