import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksAt, isViewOnly, VIEW_ONLY_DOCUMENT } from '../../state/selectors';
import { lineOf, lineRange, lineRuns, MAX_SCROLL_PX, scanLineStarts, scrollTopFor, VIEW_LINE_CHARS, viewWindow } from './largeView';

/** Line starts of `text` scanned `budget` characters per call, as the view does across tasks. */
function scanAll(text: string, budget: number): number[] {
  const starts = [0];
  let at = 0;
  while (at < text.length) at = scanLineStarts(text, at, budget, starts);
  return starts;
}

/** Chunks over `length` characters from sorted cut points, with each chunk reaching `overlap` into the next. */
function chunksFrom(length: number, cuts: number[], overlap: number): { starts: Int32Array; ends: Int32Array } {
  const edges = [...new Set([0, ...cuts.filter((c) => c > 0 && c < length), length])].sort((a, b) => a - b);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    starts.push(edges[i]!);
    ends.push(Math.min(length, edges[i + 1]! + overlap));
  }
  // Ends stay in order (the engine's contract): an overlap never reaches past the next chunk's end.
  for (let i = ends.length - 2; i >= 0; i--) ends[i] = Math.min(ends[i]!, ends[i + 1]!);
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

describe('isViewOnly', () => {
  it('shows documents over the limit read-only unless the person asked to edit', () => {
    expect(isViewOnly(VIEW_ONLY_DOCUMENT, false)).toBe(false);
    expect(isViewOnly(VIEW_ONLY_DOCUMENT + 1, false)).toBe(true);
    expect(isViewOnly(VIEW_ONLY_DOCUMENT + 1, true)).toBe(false);
  });
});

describe('scanLineStarts', () => {
  it('finds every line start whatever the budget per task', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r\n', '😀'), maxLength: 200 }), fc.integer({ min: 1, max: 50 }), (text, budget) => {
        const expected = [0];
        for (let i = 0; i < text.length; i++) if (text[i] === '\n') expected.push(i + 1);
        expect(scanAll(text, budget)).toEqual(expected);
      }),
    );
  });

  it('stops at the budget and returns where to go on', () => {
    const out = [0];
    expect(scanLineStarts('ab\ncd\nef', 0, 4, out)).toBe(4);
    expect(out).toEqual([0, 3]);
  });
});

describe('lineOf and lineRange', () => {
  it('finds the line of every offset and the line without its break', () => {
    const text = 'first\n\nthird line\nlast';
    const starts = scanAll(text, 100);
    for (let offset = 0; offset <= text.length; offset++) {
      const line = lineOf(starts, offset);
      const { start, end } = lineRange(text, starts, line);
      expect(offset).toBeGreaterThanOrEqual(start);
      expect(offset).toBeLessThanOrEqual(end);
      expect(text.slice(start, end)).not.toContain('\n');
    }
    expect(lineRange(text, starts, 3)).toEqual({ start: 18, end: 22, drawnEnd: 22 });
  });

  it('draws at most VIEW_LINE_CHARS of a long line', () => {
    const text = 'x'.repeat(VIEW_LINE_CHARS * 3);
    expect(lineRange(text, [0], 0)).toEqual({ start: 0, end: text.length, drawnEnd: VIEW_LINE_CHARS });
  });
});

describe('viewWindow', () => {
  it('scrolls a line per line height for ordinary documents', () => {
    const w = viewWindow(1000, 20, 205, 400);
    expect(w.pxPerLine).toBe(20);
    expect(w.first).toBe(10);
    expect(w.shift).toBeCloseTo(5);
    expect(w.last).toBe(10 + 21);
  });

  it('keeps the scroller under the browser limit for millions of lines, and reaches the last line', () => {
    const lines = 10_000_000;
    const w = viewWindow(lines, 21, 0, 600);
    expect(w.scrollHeight).toBeLessThan(MAX_SCROLL_PX + 600);
    const end = viewWindow(lines, 21, w.scrollHeight - 600, 600);
    expect(end.last).toBe(lines - 1);
  });

  it('puts a revealed line on screen', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.nat(), (lines, at) => {
        const line = at % lines;
        const top = scrollTopFor(line, lines, 21, 600);
        const w = viewWindow(lines, 21, top, 600);
        expect(line).toBeGreaterThanOrEqual(w.first);
        expect(line).toBeLessThanOrEqual(w.last);
      }),
    );
  });
});

describe('lineRuns', () => {
  it('splits a line where chunks begin and end, marking overlaps', () => {
    // Chunks [0, 6), [4, 10), [12, 20): an overlap at 4-6, a gap at 10-12.
    const starts = Int32Array.from([0, 4, 12]);
    const ends = Int32Array.from([6, 10, 20]);
    expect(lineRuns(starts, ends, 2, 15)).toEqual([
      { from: 2, to: 4, chunk: 0, overlap: false },
      { from: 4, to: 6, chunk: 1, overlap: true },
      { from: 6, to: 10, chunk: 1, overlap: false },
      { from: 10, to: 12, chunk: -1, overlap: false },
      { from: 12, to: 15, chunk: 2, overlap: false },
    ]);
  });

  it('covers the range with runs whose every character is held as the runs say', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.nat({ max: 120 }), { maxLength: 20 }),
        fc.nat({ max: 15 }),
        fc.nat({ max: 120 }),
        fc.nat({ max: 120 }),
        (length, cuts, overlap, a, b) => {
          const { starts, ends } = chunksFrom(length, cuts, overlap);
          const from = Math.min(a, b) % length;
          const to = Math.max(from, Math.max(a, b) % (length + 1));
          const runs = lineRuns(starts, ends, from, to);
          let at = from;
          for (const run of runs) {
            expect(run.from).toBe(at);
            expect(run.to).toBeGreaterThan(run.from);
            for (let p = run.from; p < run.to; p++) {
              const holding = chunksAt(starts, ends, p);
              expect(run.chunk).toBe(holding.length ? holding[holding.length - 1] : -1);
              expect(run.overlap).toBe(holding.length > 1);
            }
            at = run.to;
          }
          expect(at).toBe(to);
        },
      ),
    );
  });
});
