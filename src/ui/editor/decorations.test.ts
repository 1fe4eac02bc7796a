import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PaintableResult } from '../../state/resultsSlice';
import { buildDecorations, chunkWindow, decorationViewFor, injectedLine, pairView, selectionView, truncatedDecorations, windowDecorations, type OffsetToPosition } from './decorations';

/** Offsets to 1-based line/column the way Monaco counts them (UTF-16 columns, \n ends a line). */
function positions(text: string): OffsetToPosition & { offsetOf(line: number, column: number): number } {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return {
    getPositionAt(offset: number) {
      let line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
      return { lineNumber: line + 1, column: offset - lineStarts[line]! + 1 };
    },
    offsetOf(line: number, column: number) {
      return lineStarts[line - 1]! + column - 1;
    },
  };
}

function resultFor(text: string, spans: [number, number][]): PaintableResult {
  const n = spans.length;
  const overlaps = new Int32Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) overlaps[i] = Math.max(0, spans[i]![1] - spans[i + 1]![0]);
  return {
    jobId: 1,
    version: 1,
    documentSerial: 1,
    starts: Int32Array.from(spans.map((s) => s[0])),
    ends: Int32Array.from(spans.map((s) => s[1])),
    sizes: Float64Array.from(spans.map((s) => s[1] - s[0])),
    overlaps,
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
    stats: { count: n, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 },
    limit: 100,
    unit: 'chars',
    elapsedMs: 0,
    text,
    requestedAt: 0,
    options: {},
  };
}

/** Ordered spans over a text: starts and ends increase, neighbours may overlap or leave gaps. */
const arbDocument = fc
  .tuple(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n'), minLength: 1, maxLength: 120 }), fc.array(fc.tuple(fc.nat(12), fc.nat(12)), { minLength: 1, maxLength: 12 }))
  .map(([text, steps]) => {
    const spans: [number, number][] = [];
    let start = 0;
    let end = 0;
    for (const [advance, length] of steps) {
      start = Math.min(text.length, Math.max(start + 1, end - advance));
      if (spans.length === 0) start = 0;
      end = Math.min(text.length, Math.max(end + 1, start + length + 1));
      if (start >= text.length) break;
      spans.push([start, end]);
    }
    return { text, spans };
  });

describe('chunk decorations', () => {
  it('one alternating background and one index label per chunk, overlaps exactly where offsets overlap', () => {
    fc.assert(
      fc.property(arbDocument, ({ text, spans }) => {
        const model = positions(text);
        const decorations = buildDecorations(model, resultFor(text, spans));
        const backgrounds = decorations.filter((d) => /cs-chunk-(even|odd)/.test(d.options.className ?? ''));
        const labels = decorations.filter((d) => d.options.before?.inlineClassName?.includes('cs-chunk-label'));
        const overlaps = decorations.filter((d) => d.options.className === 'cs-overlap');
        expect(backgrounds).toHaveLength(spans.length);
        expect(labels.map((d) => d.options.before!.content)).toEqual(spans.map((_, i) => String(i)));
        backgrounds.forEach((d, i) => {
          expect(d.options.className).toContain(i % 2 === 0 ? 'cs-chunk-even' : 'cs-chunk-odd');
          const r = d.range;
          expect([model.offsetOf(r.startLineNumber, r.startColumn), model.offsetOf(r.endLineNumber, r.endColumn)]).toEqual(spans[i]);
        });
        const expectedOverlaps = spans.slice(1).flatMap(([s], i) => (spans[i]![1] > s ? [[s, Math.min(spans[i]![1], spans[i + 1]![1])]] : []));
        expect(overlaps.map((d) => [model.offsetOf(d.range.startLineNumber, d.range.startColumn), model.offsetOf(d.range.endLineNumber, d.range.endColumn)])).toEqual(expectedOverlaps);
      }),
    );
  });

  it('text between chunks carries no chunk decoration', () => {
    const text = 'alpha\n\n\nbeta';
    const model = positions(text);
    const decorations = buildDecorations(model, resultFor(text, [[0, 5], [8, 12]]));
    for (const d of decorations) {
      const start = model.offsetOf(d.range.startLineNumber, d.range.startColumn);
      const end = model.offsetOf(d.range.endLineNumber, d.range.endColumn);
      expect(end <= 5 || start >= 8).toBe(true);
    }
  });
});

describe('chunkWindow', () => {
  it('selects exactly the chunks that intersect an offset range', () => {
    fc.assert(
      fc.property(arbDocument, fc.nat(130), fc.nat(130), ({ spans }, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const starts = Int32Array.from(spans.map((s) => s[0]));
        const ends = Int32Array.from(spans.map((s) => s[1]));
        const window = chunkWindow(starts, ends, from, to);
        const inside = spans.map(([s, e], i) => (e > from && s < to ? i : -1)).filter((i) => i >= 0);
        const picked = Array.from({ length: window.to - window.from }, (_, k) => window.from + k);
        expect(picked).toEqual(inside);
      }),
    );
  });
  it('covers every intersecting chunk when neighbours are out of order (overlapping compat levels)', () => {
    fc.assert(
      fc.property(arbDocument, fc.array(fc.nat(40), { maxLength: 6 }), fc.nat(130), fc.nat(130), ({ spans }, swaps, a, b) => {
        const order = spans.map((s) => [...s] as [number, number]);
        for (const k of swaps) {
          const i = k % Math.max(1, order.length - 1);
          if (i + 1 < order.length) [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
        }
        const [from, to] = a <= b ? [a, b] : [b, a];
        const window = chunkWindow(Int32Array.from(order, (s) => s[0]), Int32Array.from(order, (s) => s[1]), from, to);
        order.forEach(([s, e], i) => {
          if (e > from && s < to) expect(i >= window.from && i < window.to).toBe(true);
        });
      }),
    );
  });
});

describe('buildDecorations: structure', () => {
  const text = '# Policy\n\n## Travel\n\nBook early.\n\n## Rates\n\nSee table.\n';
  const spans: [number, number][] = [
    [0, 32],
    [text.indexOf('## Rates'), text.length - 1],
  ];
  function structured(): PaintableResult {
    const result = resultFor(text, spans);
    result.structure = {
      paths: [['Policy', 'Travel'], ['Policy', 'Rates']],
      pathIndex: Int32Array.from([0, 1]),
      contentTypes: Uint8Array.from([0, 1]),
      strings: ['| a | b |\n|---|---|\n'],
      prefixIndex: Int32Array.from([-1, 0]),
      prefixSizes: Float64Array.from([0, 16]),
      parents: {
        starts: Int32Array.from([0]),
        ends: Int32Array.from([text.length - 1]),
        sizes: Float64Array.from([text.length - 1]),
        levels: Int32Array.from([0]),
        parent: Int32Array.from([-1]),
        pathIndex: Int32Array.from([0]),
      },
      leafParent: Int32Array.from([0, 0]),
      leafLevel: Int32Array.from([1, 1]),
    };
    return result;
  }

  it('draws, at each chunk start and in this order, the label (with the content type), the breadcrumb and the injected prefix', () => {
    const model = positions(text);
    const out = buildDecorations(model, structured());
    for (const [i, [start]] of spans.entries()) {
      const at = model.getPositionAt(start);
      const injectedHere = out
        .filter((d) => d.options.before && d.range.startLineNumber === at.lineNumber && d.range.startColumn === at.column)
        .map((d) => [d.options.before!.inlineClassName, d.options.before!.content]);
      const ownFromLabel = injectedHere.slice(injectedHere.findIndex(([cls]) => cls!.startsWith('cs-chunk-label')));
      expect(ownFromLabel[0]).toEqual(i === 1 ? ['cs-chunk-label cs-chunk-label-table', '1 · table'] : ['cs-chunk-label', '0']);
      expect(ownFromLabel[1]).toEqual(['cs-breadcrumb', i === 0 ? 'Policy › Travel ' : 'Policy › Rates ']);
      // A repeated table header: one line, line breaks marked, the trailing one dropped.
      if (i === 1) expect(ownFromLabel[2]).toEqual(['cs-injected', '⤷ | a | b | ↵ |---|---| ']);
      else expect(ownFromLabel).toHaveLength(2);
    }
  });

  it('leaves the breadcrumb out where the injected header already spells the path out', () => {
    const model = positions(text);
    const result = structured();
    result.structure!.strings = ['Policy > Rates\n\n'];
    const classes = buildDecorations(model, result)
      .filter((d) => d.options.before)
      .map((d) => d.options.before!.inlineClassName);
    expect(classes.filter((c) => c === 'cs-breadcrumb')).toHaveLength(1); // chunk 0 only: chunk 1's header is its path
    expect(classes.filter((c) => c === 'cs-injected')).toHaveLength(1);
  });

  it('projector view: a breadcrumb only where the section changes, injected text collapsed to a mark', () => {
    const model = positions(text);
    const result = structured();
    result.structure!.pathIndex = Int32Array.from([0, 0]);
    const view = decorationViewFor(true, null);
    const marks = buildDecorations(model, result, 0, 2, view)
      .filter((d) => d.options.before)
      .map((d) => [d.options.before!.inlineClassName, d.options.before!.content]);
    expect(marks.filter(([c]) => c!.startsWith('cs-breadcrumb'))).toEqual([['cs-breadcrumb', 'Policy › Travel ']]);
    expect(marks.filter(([c]) => c!.startsWith('cs-injected'))).toEqual([['cs-injected cs-injected-collapsed', '⤷ header ']]);
    // A chunk that opens with its own heading gets only the headings above it ("Policy", not "Policy › Travel").
    result.structure!.paths = [['Policy', 'Travel'], ['Policy', 'Rates']];
    result.structure!.pathIndex = Int32Array.from([0, 1]);
    const crumbs = buildDecorations(model, result, 0, 2, view)
      .filter((d) => d.options.before?.inlineClassName === 'cs-breadcrumb')
      .map((d) => d.options.before!.content);
    expect(crumbs).toEqual(['Policy › Travel ', 'Policy ']);
    // Shown again on request, and in full outside projector mode.
    expect(decorationViewFor(true, true).injectedCollapsed).toBe(false);
    expect(decorationViewFor(false, null)).toEqual({ breadcrumbsOnChange: false, injectedCollapsed: false });
    expect(decorationViewFor(false, false).injectedCollapsed).toBe(true);
  });

  it('repeats only the innermost title on the later chunks of a section', () => {
    const model = positions(text);
    const result = structured();
    result.structure!.pathIndex = Int32Array.from([0, 0]);
    const crumbs = buildDecorations(model, result)
      .filter((d) => d.options.before?.inlineClassName?.startsWith('cs-breadcrumb'))
      .map((d) => d.options.before!.content);
    expect(crumbs).toEqual(['Policy › Travel ', '› Travel ']);
  });

  it('draws each enclosing unit as a band over its lines with a label at its start', () => {
    const model = positions(text);
    const out = buildDecorations(model, structured());
    const bands = out.filter((d) => d.options.linesDecorationsClassName?.includes('cs-parent'));
    expect(bands).toHaveLength(1);
    expect(bands[0]!.range.startLineNumber).toBe(1);
    expect(bands[0]!.range.endLineNumber).toBe(model.getPositionAt(text.length - 2).lineNumber);
    expect(out.some((d) => d.options.before?.content === 'P0')).toBe(true);
    // Plain results get none of these.
    const plain = buildDecorations(model, resultFor(text, spans));
    expect(plain.some((d) => d.options.linesDecorationsClassName || d.options.before?.inlineClassName === 'cs-breadcrumb')).toBe(false);
  });
});

describe('injectedLine', () => {
  it('draws a multi-line prefix as one line, each run of line breaks as one mark, and caps its length', () => {
    expect(injectedLine('Policy > Rates\n\n| a | b |\r\n|---|---|\n')).toBe('Policy > Rates ↵ | a | b | ↵ |---|---|');
    const long = injectedLine('x'.repeat(500));
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('buildDecorations: injected text and breadcrumbs sit at chunk starts only', () => {
  it('a chunk with a prefix gets one injected-text decoration, collapsed at its first character', () => {
    const text = 'intro line\n\n| x | y |\n| 1 | 2 |\n';
    const spans: [number, number][] = [
      [0, 10],
      [12, text.length - 1],
    ];
    const result = resultFor(text, spans);
    result.structure = {
      paths: [],
      pathIndex: Int32Array.from([-1, -1]),
      contentTypes: Uint8Array.from([0, 1]),
      strings: ['| h | k |\n'],
      prefixIndex: Int32Array.from([-1, 0]),
      prefixSizes: Float64Array.from([0, 10]),
    };
    const model = positions(text);
    const injectedTexts = buildDecorations(model, result).filter((d) => d.options.before?.inlineClassName === 'cs-injected');
    expect(injectedTexts).toHaveLength(1);
    const r = injectedTexts[0]!.range;
    expect([r.startLineNumber, r.startColumn, r.endLineNumber, r.endColumn]).toEqual([3, 1, 3, 1]);
    expect(model.offsetOf(r.startLineNumber, r.startColumn)).toBe(12);
    expect(injectedTexts[0]!.options.before!.content).toBe('⤷ | h | k | ');
    expect(injectedTexts[0]!.options.showIfCollapsed).toBe(true);
  });

  it('every breadcrumb is collapsed at the start of a chunk, and sentence windows draw one only where the path changes', () => {
    fc.assert(
      fc.property(arbDocument, fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 12, maxLength: 12 }), fc.boolean(), ({ text, spans }, pathOf, windows) => {
        const result = resultFor(text, spans);
        const n = spans.length;
        const pathIndex = Int32Array.from(pathOf.slice(0, n));
        result.structure = { paths: [['A'], ['A', 'B'], ['C']], pathIndex, strings: [] };
        if (windows) {
          result.structure.windowStarts = Int32Array.from(spans.map((s) => s[0]));
          result.structure.windowEnds = Int32Array.from(spans.map((s) => s[1]));
        }
        const model = positions(text);
        const starts = new Set(spans.map(([s]) => s));
        const crumbs = buildDecorations(model, result).filter((d) => d.options.before?.inlineClassName?.startsWith('cs-breadcrumb'));
        for (const d of crumbs) {
          expect([d.range.startLineNumber, d.range.startColumn]).toEqual([d.range.endLineNumber, d.range.endColumn]);
          expect(starts.has(model.offsetOf(d.range.startLineNumber, d.range.startColumn))).toBe(true);
        }
        const expected = [...pathIndex].filter((p, i) => p >= 0 && !(windows && i > 0 && pathIndex[i - 1] === p)).length;
        expect(crumbs).toHaveLength(expected);
      }),
    );
  });
});

describe('truncatedDecorations', () => {
  it('shades [truncatedAt, end) of each chunk the model stops reading inside, and nothing for -1', () => {
    const text = 'aaaa bbbb cccc';
    const model = positions(text);
    const out = truncatedDecorations(model, Int32Array.from([-1, 7, 14]), Int32Array.from([4, 9, 14]));
    expect(out).toHaveLength(1);
    expect(out[0]!.options.className).toBe('cs-truncated');
    expect([out[0]!.range.startColumn, out[0]!.range.endColumn]).toEqual([8, 10]);
  });
});

describe('pairView', () => {
  const text = 'One.\nTwo here.\nThree.';
  const sentences = { sentenceStarts: Int32Array.from([0, 5, 15]), sentenceEnds: Int32Array.from([4, 14, 21]) };
  it('underlines the sentences on both sides of a gap, reveals both and puts the cursor at the second', () => {
    const view = pairView(positions(text), sentences, 1)!;
    expect(view.decorations.map((d) => [d.options.className, d.range.startLineNumber, d.range.startColumn, d.range.endLineNumber, d.range.endColumn])).toEqual([
      ['cs-pair-before', 2, 1, 2, 10],
      ['cs-pair-after', 3, 1, 3, 7],
    ]);
    expect(view.reveal).toEqual({ startLineNumber: 2, startColumn: 1, endLineNumber: 3, endColumn: 7 });
    expect(view.position).toEqual({ lineNumber: 3, column: 1 });
  });
  it('has nothing for no gap, or a gap past the last sentence', () => {
    expect(pairView(positions(text), sentences, null)).toBeNull();
    expect(pairView(positions(text), sentences, 2)).toBeNull();
  });
});

describe('selectionView and windowDecorations', () => {
  const text = 'alpha beta\ngamma delta';
  const spans: [number, number][] = [
    [0, 10],
    [11, 22],
  ];
  it('the selected chunk is drawn over its offsets and revealed from its start', () => {
    const model = positions(text);
    const result = resultFor(text, spans);
    const view = selectionView(model, result.starts, result.ends, 1)!;
    expect(view.decorations).toEqual([{ range: { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 12 }, options: { className: 'cs-chunk-selected', isWholeLine: false } }]);
    expect(view.position).toEqual({ lineNumber: 2, column: 1 });
    expect(selectionView(model, result.starts, result.ends, null)).toBeNull();
    expect(selectionView(model, result.starts, result.ends, 2)).toBeNull();
  });
  it('a sentence window is drawn for a chunk that has one, nothing otherwise', () => {
    const model = positions(text);
    const result = resultFor(text, spans);
    expect(windowDecorations(model, result, 0)).toEqual([]);
    result.structure = { paths: [], pathIndex: Int32Array.from([-1, -1]), strings: [], windowStarts: Int32Array.from([0, -1]), windowEnds: Int32Array.from([22, -1]) };
    const out = windowDecorations(model, result, 0);
    expect(out.map((d) => [d.options.className, d.range.startLineNumber, d.range.endLineNumber, d.range.endColumn])).toEqual([['cs-window', 1, 2, 12]]);
    expect(windowDecorations(model, result, 1)).toEqual([]);
    expect(windowDecorations(model, result, null)).toEqual([]);
  });
});
