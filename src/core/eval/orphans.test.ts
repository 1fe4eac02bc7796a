import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentences } from '../segment/sentences';
import { isHeadingOnly, orphanBits, orphanChunks, ORPHAN_ENDS_MID, ORPHAN_HEADING, ORPHAN_STARTS_MID } from './orphans';

/** The definitions, written the slow and obvious way: every line split, every sentence edge in a Set. */
function headingOnlyByDefinition(text: string, path: readonly string[] | undefined): boolean {
  const t = text.trim();
  if (t === '') return false;
  const lines = t.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.every((l) => /^ {0,3}#{1,6}(\s|$)/.test(l))) return true;
  if (lines.length === 2 && /^ {0,3}(=+|-+)\s*$/.test(lines[1]!) && !/^ {0,3}#{1,6}(\s|$)/.test(lines[0]!)) return true;
  if (/^\s*<h[1-6][\s>][\s\S]*<\/h[1-6]>\s*$/i.test(t)) return true;
  return !!path && path.length > 0 && t === path[path.length - 1];
}

function bitsByDefinition(text: string, spans: { start: number; end: number; path?: string[] }[]): number[] {
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const s of sentences(text, 0, text.length, 'en')) {
    const piece = text.slice(s.start, s.end);
    const lead = piece.length - piece.trimStart().length;
    const trail = piece.length - piece.trimEnd().length;
    if (piece.trim() !== '') (starts.add(s.start + lead), ends.add(s.end - trail));
  }
  return spans.map(({ start, end, path }) => {
    const piece = text.slice(start, end);
    const a = start + (piece.length - piece.trimStart().length);
    const b = end - (piece.length - piece.trimEnd().length);
    let bits = 0;
    if (b > a && !starts.has(a)) bits |= ORPHAN_STARTS_MID;
    if (b > a && !ends.has(b)) bits |= ORPHAN_ENDS_MID;
    if (headingOnlyByDefinition(piece, path)) bits |= ORPHAN_HEADING;
    return bits;
  });
}

const pieces = fc.constantFrom('# ', '## Title', '#NoSpace', '   ### x', 'Title', '\n', '\r\n', '\n\n', '===', '---', ' ', '.', 'Word. ', 'Next one? ', '<h2>Head</h2>', '<H1 id=a>x</H1>', '<p>para</p>', '\t', 'é', '😀');
const documents = fc.array(pieces, { maxLength: 40 }).map((a) => a.join(''));

describe('orphan flags', () => {
  it('isHeadingOnly (with its cheap tests first) agrees with the definition on generated text', () => {
    fc.assert(
      fc.property(documents, fc.option(fc.array(fc.constantFrom('Title', '## Title', 'x'), { maxLength: 2 }), { nil: undefined }), (text, path) => {
        expect(isHeadingOnly({ text, metadata: path ? { headingPath: path } : {} })).toBe(headingOnlyByDefinition(text, path));
      }),
      { numRuns: 2000 },
    );
  });

  it('orphanBits (sentence edges cached, binary search) agrees with the definition on any cut of a document', () => {
    fc.assert(
      fc.property(documents, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const at = [...new Set([0, text.length, ...cuts.map((c) => c % (text.length + 1))])].sort((a, b) => a - b);
        const spans = at.slice(1).map((end, i) => ({ start: at[i]!, end }));
        const chunks = spans.map((s) => ({ ...s, text: text.slice(s.start, s.end), metadata: {} }));
        expect(Array.from(orphanBits(text, chunks))).toEqual(bitsByDefinition(text, spans));
        // twice: the second call reads the cached edges
        expect(Array.from(orphanBits(text, chunks))).toEqual(bitsByDefinition(text, spans));
      }),
      { numRuns: 500 },
    );
  });

  it('orphanChunks reports the same bits as flags', () => {
    const text = '# Title\n\nOne sentence here. Another one follows.\n\nLast.';
    const chunks = [[0, 7], [9, 27], [28, 40], [40, 55]].map(([start, end], index) => ({ index, start: start!, end: end!, text: text.slice(start, end), metadata: {} }));
    expect(orphanChunks(text, chunks).map((f) => [f.startsMidSentence, f.endsMidSentence, f.headingOnly])).toEqual([
      [false, false, true],
      [false, false, false],
      [false, true, false],
      [true, false, false],
    ]);
  });
});
