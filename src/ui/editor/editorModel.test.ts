import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
// The markdown renderer Monaco's hover uses (monaco-editor depends on this marked).
import { marked } from 'marked';
import type { PaintableResult } from '../../state/resultsSlice';
import type { LabMark } from '../../state/labMarks';
import {
  chunkAtOffset,
  editIsNewDocument,
  FIRST_LOAD_PIECE,
  labFocus,
  labMarksChanged,
  type LabMarksState,
  markToReveal,
  PieceLoad,
  sameMarks,
  chunkHover,
  chunkHoverLines,
  documentAfterPaste,
  documentView,
  editorOptions,
  editorSteps,
  escapeMarkdown,
  plainInMarkdown,
  LARGE_DOCUMENT,
  languageForName,
  needsRepaint,
  PAINT_ALL_LIMIT,
  paintPlan,
  pieceEnd,
  nextPieceSize,
  LOAD_SLICE_MS,
  LOAD_WAITS_FOR_CHUNKS_MS,
  loadMayStart,
  loadedEnd,
  loadWaitMs,
  LOAD_PIECE,
  MIN_APPEND_PIECE,
  visibleLines,
  WINDOW_CHUNK_LIMIT,
  WINDOW_MARGIN_LINES,
  type EditorState,
  type LineModel,
  fromEditorText,
  startsWithBom,
  toEditorText,
} from './editorModel';

function resultFor(text: string, spans: [number, number][], unit = 'chars'): PaintableResult {
  const n = spans.length;
  const overlaps = new Int32Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) overlaps[i] = Math.max(0, spans[i]![1] - spans[i + 1]![0]);
  return {
    jobId: 1,
    version: 1,
    starts: Int32Array.from(spans.map((s) => s[0])),
    ends: Int32Array.from(spans.map((s) => s[1])),
    sizes: Float64Array.from(spans.map((s) => s[1] - s[0])),
    overlaps,
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
    stats: { count: n, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 },
    limit: 100,
    unit,
    elapsedMs: 0,
    text,
    requestedAt: 0,
    options: {},
  } as PaintableResult;
}

/** Lines of a text the way Monaco's model answers for them. */
function lineModel(text: string): LineModel {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineEnd = (line: number) => (line < lineStarts.length ? lineStarts[line]! - 1 : text.length);
  return {
    getLineCount: () => lineStarts.length,
    getOffsetAt: ({ lineNumber, column }) => lineStarts[lineNumber - 1]! + column - 1,
    getLineMaxColumn: (line) => lineEnd(line) - lineStarts[line - 1]! + 1,
  };
}

describe('loadMayStart', () => {
  const text = 'x'.repeat(10 << 20);
  const wait = loadWaitMs(text.length);
  it('waits for chunks of this very text, a new error, or the end of the wait', () => {
    const previous = { text: 'the previous document' };
    expect(loadMayStart({ result: previous, error: null }, text, null, 10)).toBe(false);
    expect(loadMayStart({ result: null, error: null }, text, null, wait - 1)).toBe(false);
    expect(loadMayStart({ result: { text }, error: null }, text, null, 0)).toBe(true);
    // The job failed: nothing more is coming.
    expect(loadMayStart({ result: previous, error: 'Overlap must be smaller than the size.' }, text, null, 10)).toBe(true);
    // The error that was already shown says nothing about this job.
    expect(loadMayStart({ result: previous, error: 'old' }, text, 'old', 10)).toBe(false);
    expect(loadMayStart({ result: previous, error: 'old' }, text, 'old', wait)).toBe(true);
  });

  it('waits at most about half the load itself, and never over LOAD_WAITS_FOR_CHUNKS_MS', () => {
    // 1.1 MB (a markdown file that takes longer to chunk than to load) waits about 0.1 s; 10 MiB the whole second.
    expect(loadWaitMs(1_114_523)).toBeCloseTo(111, 0);
    expect(loadWaitMs(10 << 20)).toBe(LOAD_WAITS_FOR_CHUNKS_MS);
    expect(loadWaitMs(200 << 20)).toBe(LOAD_WAITS_FOR_CHUNKS_MS);
  });
});

describe('loadedEnd', () => {
  it('is where the run of chunks ending within the loaded characters stops, for any chunks and window', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 40 }), fc.nat(40), fc.nat(40), fc.nat(1100), (raw, a, b, loaded) => {
        const ends = Int32Array.from(raw);
        const from = Math.min(a, b, ends.length);
        const to = Math.min(Math.max(a, b), ends.length);
        const end = loadedEnd(ends, from, to, loaded);
        expect(end).toBeGreaterThanOrEqual(from);
        expect(end).toBeLessThanOrEqual(to);
        for (let i = from; i < end; i++) expect(ends[i]).toBeLessThanOrEqual(loaded);
        if (end < to) expect(ends[end]).toBeGreaterThan(loaded);
      }),
    );
  });
});

describe('nextPieceSize', () => {
  it('sizes the next piece to take about LOAD_SLICE_MS, within bounds, growing slowly and shrinking at once', () => {
    expect(nextPieceSize(100_000, LOAD_SLICE_MS)).toBe(100_000);
    expect(nextPieceSize(160_000, LOAD_SLICE_MS * 2)).toBe(80_000);
    expect(nextPieceSize(100_000, LOAD_SLICE_MS / 4)).toBe(125_000);
    // Never below what Monaco keeps in buffers of its own (a shorter append joins its one change buffer).
    expect(nextPieceSize(100_000, LOAD_SLICE_MS * 4)).toBe(MIN_APPEND_PIECE);
    expect(nextPieceSize(100_000, 10_000)).toBe(MIN_APPEND_PIECE);
    expect(nextPieceSize(180_000, LOAD_SLICE_MS / 4)).toBe(LOAD_PIECE);
    expect(nextPieceSize(100_000, 0)).toBe(LOAD_PIECE);
  });
});

describe('pieceEnd', () => {
  it('cuts a long text into pieces of at most the piece size that end after a line break, and cover it exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r\n', '😀'), maxLength: 300 }), fc.integer({ min: 8, max: 40 }), (text, piece) => {
        let at = 0;
        while (at < text.length) {
          const next = pieceEnd(text, at, piece);
          expect(next).toBeGreaterThan(at);
          expect(next - at).toBeLessThanOrEqual(piece + 1);
          // Where a line break lies within reach the piece ends right after one: no \r\n or surrogate pair is cut.
          const nl = text.lastIndexOf('\n', at + piece);
          if (next < text.length && nl > at) expect(next).toBe(nl + 1);
          at = next;
        }
        expect(at).toBe(text.length);
      }),
    );
  });
  it('ends a piece just after the last line break within reach', () => {
    expect(pieceEnd('abc\r\ndef\r\nghi', 0, 8)).toBe(5);
    expect(pieceEnd('abc\r\ndef\r\nghi', 5, 4)).toBe(10);
    expect(pieceEnd('abcdefghij', 0, 4)).toBe(4); // no line break: cut at the limit
    expect(pieceEnd('short', 0, 100)).toBe(5);
    expect(pieceEnd('abcd\uD83D\uDE00fg', 0, 5)).toBe(6); // no line break: one further, not inside the pair
    expect(pieceEnd('abcd\r\nfg', 0, 5)).toBe(6);
  });
  it('keeps a piece at least `min` long: a line break before that is passed over', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r\n', '😀'), maxLength: 300 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 20 }), (text, min, extra) => {
        let at = 0;
        while (at < text.length) {
          const next = pieceEnd(text, at, min + extra, min);
          expect(next - at).toBeGreaterThanOrEqual(Math.min(min, text.length - at));
          expect(next - at).toBeLessThanOrEqual(min + extra + 1);
          at = next;
        }
        expect(at).toBe(text.length);
      }),
    );
    expect(pieceEnd('ab\ncd\nefgh', 0, 8, 4)).toBe(6);
    expect(pieceEnd('ab\ncdefghij', 0, 6, 4)).toBe(6);
  });
});

describe('documentView and editorOptions', () => {
  it('a large document is plain text, unwrapped and without indentation guides', () => {
    expect(documentView(LARGE_DOCUMENT + 1, 'notes.md')).toEqual({ language: 'plaintext', wordWrap: 'off', indentationGuides: false });
    expect(documentView(LARGE_DOCUMENT, 'notes.md')).toEqual({ language: 'markdown', wordWrap: 'on', indentationGuides: true });
    expect(documentView(10, null).language).toBe('plaintext');
    expect(languageForName('Main.JAVA')).toBe('java');
    expect(languageForName('report.docx')).toBe('markdown');
  });
  it('the editor starts with the cheap view for a large document and never colours bracket pairs', () => {
    const big = editorOptions(LARGE_DOCUMENT + 1);
    expect(big.wordWrap).toBe('off');
    expect(big.guides).toEqual({ bracketPairs: false, indentation: false });
    const small = editorOptions(100);
    expect(small.wordWrap).toBe('on');
    expect(small.guides).toEqual({ bracketPairs: false, indentation: true });
    expect(small.bracketPairColorization).toEqual({ enabled: false });
    expect(small.tabFocusMode).toBe(true);
  });
});

describe('documentAfterPaste', () => {
  it('replaces the selected offsets, or the whole document when everything is selected', () => {
    expect(documentAfterPaste('hello world', 'big', 6, 11)).toBe('hello big');
    expect(documentAfterPaste('hello world', 'big', 5, 5)).toBe('hellobig world');
    expect(documentAfterPaste('hello', 'big', 0, 5)).toBe('big');
  });
});

describe('chunkAtOffset', () => {
  it('is the chunk that starts last among those holding the offset (the later one inside an overlap)', () => {
    const starts = Int32Array.from([0, 8, 20]);
    const ends = Int32Array.from([10, 18, 30]);
    expect(chunkAtOffset(starts, ends, 3)).toBe(0);
    expect(chunkAtOffset(starts, ends, 9)).toBe(1);
    expect(chunkAtOffset(starts, ends, 18)).toBeNull(); // between chunks
    expect(chunkAtOffset(starts, ends, 29)).toBe(2);
    expect(chunkAtOffset(starts, ends, 30)).toBeNull();
  });
});

describe('paintPlan', () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
  const text = lines.join('\n');
  const model = lineModel(text);
  /** One chunk per line. */
  function perLine(count: number): { starts: Int32Array; ends: Int32Array } {
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    let at = 0;
    for (let i = 0; i < count; i++) {
      starts[i] = at;
      ends[i] = at + lines[i]!.length;
      at += lines[i]!.length + 1;
    }
    return { starts, ends };
  }

  it('paints every chunk up to the limit without asking for the viewport', () => {
    const { starts, ends } = perLine(PAINT_ALL_LIMIT);
    const viewport = vi.fn(() => ({ first: 1, last: 40 }));
    expect(paintPlan(model, starts, ends, viewport)).toEqual({ from: 0, to: PAINT_ALL_LIMIT, lines: null });
    expect(viewport).not.toHaveBeenCalled();
  });

  it('above the limit, paints the chunks on the viewport lines and a margin on each side', () => {
    const { starts, ends } = perLine(5000);
    const plan = paintPlan(model, starts, ends, () => ({ first: 2001, last: 2040 }));
    expect(plan.lines).toEqual({ first: 2001 - WINDOW_MARGIN_LINES, last: 2040 + WINDOW_MARGIN_LINES });
    // Line k holds chunk k - 1.
    expect(plan.from).toBe(2000 - WINDOW_MARGIN_LINES);
    expect(plan.to).toBe(2040 + WINDOW_MARGIN_LINES);
  });

  it('clamps the window to the document, and takes the first 60 lines before the first layout', () => {
    const { starts, ends } = perLine(5000);
    expect(paintPlan(model, starts, ends, () => visibleLines([])).lines).toEqual({ first: 1, last: 60 + WINDOW_MARGIN_LINES });
    expect(paintPlan(model, starts, ends, () => ({ first: 4990, last: 5000 }))).toMatchObject({ to: 5000, lines: { last: 5000 } });
  });

  it('too many chunks around the viewport: only the visible lines; too many there too: a summary band, no decorations', () => {
    // Dense: a chunk per character of every line (line k holds about 8 chunks).
    const starts: number[] = [];
    for (let i = 0; i < text.length; i++) if (text[i] !== '\n') starts.push(i);
    const dense = { starts: Int32Array.from(starts), ends: Int32Array.from(starts, (s) => s + 1) };
    const visible = { first: 2001, last: 2040 };
    const plan = paintPlan(model, dense.starts, dense.ends, () => visible);
    expect(plan.lines).toEqual(visible);
    expect(plan.to - plan.from).toBeLessThanOrEqual(WINDOW_CHUNK_LIMIT);
    expect(plan.summary).toBeUndefined();
    // One long line of 20,000 one-character chunks (the token strategy at size 1 on 20,000 × "a").
    const long = 'a'.repeat(20_000);
    const line = lineModel(long);
    const single = { starts: Int32Array.from({ length: 20_000 }, (_, i) => i), ends: Int32Array.from({ length: 20_000 }, (_, i) => i + 1) };
    const band = paintPlan(line, single.starts, single.ends, () => ({ first: 1, last: 1 }));
    expect(band).toMatchObject({ from: 0, to: 0, summary: { chunks: 20_000, start: 0, end: 20_000 } });
  });

  it('property: a plan never asks for more than WINDOW_CHUNK_LIMIT decorations', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 4900 }), (width, firstVisible) => {
        const starts: number[] = [];
        for (let i = 0; i < text.length; i += width) starts.push(i);
        const s = Int32Array.from(starts);
        const e = Int32Array.from(starts, (x) => Math.min(text.length, x + width));
        const plan = paintPlan(model, s, e, () => ({ first: firstVisible, last: firstVisible + 39 }));
        expect(plan.to - plan.from).toBeLessThanOrEqual(Math.max(WINDOW_CHUNK_LIMIT, 0));
        if (plan.summary) expect(plan.summary.chunks).toBeGreaterThan(WINDOW_CHUNK_LIMIT);
      }),
      { numRuns: 60 },
    );
  });

  it('needsRepaint: only near an edge of the painted window beyond which the document goes on', () => {
    const painted = { first: 1601, last: 2440 };
    const slack = WINDOW_MARGIN_LINES / 2;
    expect(needsRepaint(painted, 2001, 2040, 5000)).toBe(false);
    expect(needsRepaint(painted, painted.first + slack - 1, 2040, 5000)).toBe(true);
    expect(needsRepaint(painted, 2001, painted.last - slack + 1, 5000)).toBe(true);
    // At the top of the document (window starts at line 1) and at its end there is nothing more to paint.
    expect(needsRepaint({ first: 1, last: 440 }, 1, 40, 440)).toBe(false);
  });
});

describe('chunkHover', () => {
  const text = 'First part here. Second part there.';
  const spans: [number, number][] = [
    [0, 20],
    [17, 35],
  ];

  it('an offset inside an overlap shows both chunks, and the hover spans both', () => {
    const result = resultFor(text, spans);
    const hover = chunkHover(result, null, null, 18)!;
    expect(hover.contents).toHaveLength(2);
    expect(hover.contents[0]).toContain('**Chunk #0** · 1st of 2');
    expect(hover.contents[1]).toContain('**Chunk #1** · 2nd of 2');
    expect(hover.contents[0]).toContain('Overlap 3 chars with #1');
    expect(hover.contents[1]).toContain('Overlap 3 chars with #0');
    expect(hover.contents[0]!.split('  \n')).toContain('Offsets 0–20');
    expect([hover.start, hover.end]).toEqual([0, 35]);
    expect(chunkHover(result, null, null, 35)).toBeNull();
  });

  it('sizes in tokens also give chars, and counted tokens of another encoding', () => {
    const result = resultFor(text, spans, 'cl100k_base');
    result.sizes = Float64Array.from([5, 4]);
    const lines = chunkHoverLines(result, { jobId: 1, tokens: Int32Array.from([6, 5]), encoding: 'o200k_base' }, null, 0);
    expect(lines).toContain('Size 5 tokens (cl100k_base) · 20 chars · 6 tokens (o200k_base)');
  });

  it('sizes in bytes also give chars', () => {
    const result = resultFor(text, spans, 'bytes');
    result.sizes = Float64Array.from([22, 15]);
    expect(chunkHoverLines(result, null, null, 0)).toContain('Size 22 bytes (UTF-8) · 20 chars');
  });

  it('heading titles are document text: escaped in the markdown; injected size, pages and parent unit are said', () => {
    const result = resultFor(text, spans);
    result.structure = {
      paths: [['*Intro*', 'A [link](x)']],
      pathIndex: Int32Array.from([0, -1]),
      contentTypes: Uint8Array.from([1, 0]),
      strings: ['Intro\n'],
      prefixIndex: Int32Array.from([0, -1]),
      prefixSizes: Float64Array.from([6, 0]),
      pageFirst: Int32Array.from([2, 0]),
      pageLast: Int32Array.from([3, 0]),
      parents: {
        starts: Int32Array.from([0]),
        ends: Int32Array.from([35]),
        sizes: Float64Array.from([35]),
        levels: Int32Array.from([0]),
        parent: Int32Array.from([-1]),
        pathIndex: Int32Array.from([0]),
      },
      leafParent: Int32Array.from([0, -1]),
      leafLevel: Int32Array.from([1, 1]),
    };
    const lines = chunkHoverLines(result, null, null, 0);
    expect(lines[0]).toBe('**Chunk #0** · 1st of 2 · table');
    expect(lines).toContain('Section `` *Intro* › A [link](x) ``'.replace(/``/g, '`'));
    expect(lines).toContain('Size 20 chars (6 injected)');
    expect(lines).toContain('Pages 2–3');
    expect(lines).toContain('Parent P0 (level 0) · offsets 0–35 · 35 chars');
    expect(chunkHoverLines(result, null, null, 1).some((l) => l.startsWith('Section') || l.startsWith('Parent'))).toBe(false);
  });

  it('semantic results say the embedding model’s token count, and when it truncates', () => {
    const result = resultFor(text, spans);
    result.semantic = { embedder: { label: 'MiniLM (q8)', maxTokens: 256 } } as PaintableResult['semantic'];
    const tokens = { counts: Int32Array.from([300, 12]), truncatedAt: Int32Array.from([15, -1]) };
    expect(chunkHoverLines(result, null, tokens, 0).at(-1)).toBe('Embedder 300 tokens (MiniLM) of 256 — **truncated**: the model never reads the shaded end');
    expect(chunkHoverLines(result, null, tokens, 1).at(-1)).toBe('Embedder 12 tokens (MiniLM) of 256');
    expect(chunkHoverLines(result, null, null, 1).some((l) => l.startsWith('Embedder'))).toBe(false);
  });

  it('document text in a hover renders as its own text: no link, image, HTML or emphasis (property, marked as Monaco uses it)', () => {
    const nasty = fc.constantFrom(
      'https://evil.example/x', 'www.evil.example', 'mailto:a@b.c', 'a@b.example', '[x](javascript:alert(1))', '![i](https://e.example/p.png)',
      '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '**bold**', '`code`', '``', '\\', '&lt;b&gt;', '&#106;avascript:', '<https://e.example>', '[x]: https://e.example',
    );
    const text = fc.array(fc.oneof(nasty, fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' ')).filter((t) => t.trim() !== '');
    fc.assert(
      fc.property(text, (t) => {
        const md = plainInMarkdown(t);
        const tokens = marked.lexer(`Section ${md}`, { gfm: true });
        const kinds: string[] = [];
        let code = '';
        marked.walkTokens(tokens, (token) => {
          kinds.push(token.type);
          if (token.type === 'codespan') code = (token as { text: string }).text;
        });
        for (const kind of ['link', 'image', 'html', 'strong', 'em', 'tag']) expect(kinds, md).not.toContain(kind);
        // The code span shows exactly the text (line breaks as spaces); marked keeps HTML escapes in codespan text.
        const shown = code.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
        expect(shown, md).toBe(t.replace(/[\r\n]+/g, ' '));
      }),
      { numRuns: 400 },
    );
  });

  it('escapeMarkdown leaves no markdown syntax active', () => {
    expect(escapeMarkdown('# <b>x</b> | `y`')).toBe('\\# \\<b\\>x\\</b\\> \\| \\`y\\`');
  });
});

describe('editorSteps', () => {
  const base: EditorState = {
    text: 'abc',
    docVersion: 1,
    docName: null,
    docOrigin: 'external',
    result: null,
    selectedIndex: null,
    selectionSource: 'list',
    hoveredGap: null,
    embedderTokens: null,
    revealGap: null,
  };
  const plain = resultFor('abc', [[0, 3]]);
  const semantic = { ...resultFor('abc', [[0, 3]]), semantic: {} as NonNullable<PaintableResult['semantic']> };

  it('nothing changed: nothing to do', () => {
    expect(editorSteps(base, base)).toEqual([]);
  });
  it('a document from outside the editor is loaded; one typed in it is not', () => {
    expect(editorSteps({ ...base, docVersion: 2, text: 'new', docName: 'a.md' }, base)).toEqual([{ kind: 'load', text: 'new', name: 'a.md' }]);
    expect(editorSteps({ ...base, docVersion: 2, docOrigin: 'editor' }, base)).toEqual([]);
  });
  it('a new result paints; without a curve it also clears the sentence pair', () => {
    expect(editorSteps({ ...base, result: plain }, base)).toEqual([{ kind: 'paint' }, { kind: 'clearPair' }]);
    expect(editorSteps({ ...base, result: semantic }, base)).toEqual([{ kind: 'paint' }]);
  });
  it('a selection from the list is revealed, one from the editor is not', () => {
    expect(editorSteps({ ...base, selectedIndex: 0 }, base)).toEqual([{ kind: 'selection', reveal: true }]);
    expect(editorSteps({ ...base, selectedIndex: 0, selectionSource: 'editor' }, base)).toEqual([{ kind: 'selection', reveal: false }]);
  });
  it('hovering a gap shows its pair in place; clicking one reveals it (each click, the same gap too)', () => {
    expect(editorSteps({ ...base, hoveredGap: 4 }, base)).toEqual([{ kind: 'pair', gap: 4, reveal: false }]);
    const clicked = { ...base, revealGap: { gap: 4, seq: 1 } };
    expect(editorSteps(clicked, base)).toEqual([{ kind: 'pair', gap: 4, reveal: true }]);
    expect(editorSteps({ ...base, revealGap: { gap: 4, seq: 2 } }, clicked)).toEqual([{ kind: 'pair', gap: 4, reveal: true }]);
  });
  it('embedder tokens repaint the truncated ends only when there is a result', () => {
    const tokens = { jobId: 1, counts: new Int32Array(1), truncatedAt: new Int32Array(1) };
    expect(editorSteps({ ...base, embedderTokens: tokens }, base)).toEqual([]);
    expect(editorSteps({ ...base, result: semantic, embedderTokens: tokens }, { ...base, result: semantic })).toEqual([{ kind: 'truncated' }]);
  });
  it('several changes at once keep their order: load, paint, selection, pair, truncated, reveal, clear', () => {
    const tokens = { jobId: 1, counts: new Int32Array(1), truncatedAt: new Int32Array(1) };
    const next = { ...base, docVersion: 2, result: plain, selectedIndex: 0, hoveredGap: 1, embedderTokens: tokens, revealGap: { gap: 2, seq: 1 } };
    expect(editorSteps(next, base).map((s) => s.kind)).toEqual(['load', 'paint', 'selection', 'pair', 'truncated', 'pair', 'clearPair']);
  });
});

describe('ordinal', () => {
  it('gives English ordinals, teens included', async () => {
    const { ordinal } = await import('./editorModel');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 1002].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th', '1,002nd']);
  });
});

describe('PieceLoad (a large document into Monaco, one task per action)', () => {
  it('empties, prepares, then sets the first piece and appends the rest; finish once the text is in', () => {
    const text = 'line of text\n'.repeat(60_000); // 780k characters
    const load = new PieceLoad(text);
    expect(load.next()).toEqual({ kind: 'empty' });
    expect(load.next()).toEqual({ kind: 'prepare' });
    const pieces: { from: number; to: number }[] = [];
    for (let action = load.next(); action.kind === 'piece'; action = load.next()) {
      pieces.push(action);
      load.pieceTook(action.to - action.from, 5);
    }
    expect(pieces.map((p) => text.slice(p.from, p.to)).join('')).toBe(text);
    expect(pieces[0]!.from).toBe(0);
    expect(pieces[0]!.to).toBeLessThanOrEqual(FIRST_LOAD_PIECE + 1);
    pieces.slice(1, -1).forEach((p) => expect(p.to - p.from).toBeGreaterThanOrEqual(MIN_APPEND_PIECE));
    expect(load.fraction).toBe(1);
    expect(load.next()).toEqual({ kind: 'finish' });
  });

  it('sizes each piece from the last one’s time (a slow piece makes the next one smaller)', () => {
    const text = 'x'.repeat(3_000_000);
    /** The third piece's size when every piece takes `ms`. */
    const sizes = (ms: number) => {
      const load = new PieceLoad(text);
      load.next();
      load.next();
      let size = 0;
      for (let i = 0; i < 3; i++) {
        const piece = load.next() as { from: number; to: number };
        size = piece.to - piece.from;
        load.pieceTook(size, ms);
      }
      return size;
    };
    expect(sizes(1)).toBe(nextPieceSize(nextPieceSize(FIRST_LOAD_PIECE, 1), 1));
    expect(sizes(40)).toBe(MIN_APPEND_PIECE);
    expect(sizes(40)).toBeLessThan(sizes(1));
  });

  it('covers any text exactly, never splitting \\r\\n (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'bc', '\r\n', '\n', '\u{1F600}'), { maxLength: 400 }), fc.integer({ min: 1, max: 50 }), (parts, ms) => {
        const text = parts.join('').repeat(600);
        fc.pre(text.length > 0);
        const load = new PieceLoad(text);
        load.next();
        load.next();
        let joined = '';
        for (let action = load.next(); action.kind === 'piece'; action = load.next()) {
          expect(text.slice(action.to - 1, action.to + 1)).not.toBe('\r\n');
          joined += text.slice(action.from, action.to);
          load.pieceTook(action.to - action.from, ms);
        }
        expect(joined).toBe(text);
      }),
      { numRuns: 30 },
    );
  });
});

describe('lab marks in the editor', () => {
  const mark = (start: number, kind: LabMark['kind'], badge?: string): LabMark => ({ start, end: start + 5, kind, ...(badge ? { badge } : {}) });
  const lab = { probe: null, labTab: 'probe', labOpen: true, activeQuestion: null, run: null, comparison: null, golden: [] } as unknown as LabMarksState;

  it('redraws when any lab field it draws from changes, and only then', () => {
    expect(labMarksChanged(lab, { ...lab })).toBe(false);
    for (const field of ['probe', 'labTab', 'labOpen', 'activeQuestion', 'run', 'comparison', 'golden'] as const) {
      expect(labMarksChanged({ ...lab, [field]: {} } as unknown as LabMarksState, lab)).toBe(true);
    }
  });

  it('compares marks by span, kind and badge (not by identity or hover text)', () => {
    expect(sameMarks([mark(1, 'hit', '#1')], [{ ...mark(1, 'hit', '#1'), title: 'other' }])).toBe(true);
    expect(sameMarks([mark(1, 'hit', '#1')], [mark(1, 'hit', '#2')])).toBe(false);
    expect(sameMarks([mark(1, 'hit')], [mark(2, 'hit')])).toBe(false);
    expect(sameMarks([mark(1, 'hit')], [mark(1, 'retrieved')])).toBe(false);
    expect(sameMarks([mark(1, 'hit')], [])).toBe(false);
  });

  it('reveals the first answer (else the first mark) once per query or question, never on the compare tab', () => {
    const probeFocus = labFocus({ labTab: 'probe', probe: { query: 'refunds' } as never, activeQuestion: null });
    expect(probeFocus).toBe('probe\u0000refunds');
    expect(labFocus({ labTab: 'golden', probe: null, activeQuestion: 'q3' })).toBe('golden\u0000q3');
    expect(labFocus({ labTab: 'compare', probe: null, activeQuestion: 'q3' })).toBe('');
    const marks = [mark(10, 'retrieved'), mark(1, 'hit'), mark(40, 'answer')];
    expect(markToReveal(marks, probeFocus, '')).toEqual(mark(40, 'answer'));
    expect(markToReveal([mark(10, 'hit'), mark(1, 'matched')], probeFocus, '')).toEqual(mark(10, 'hit'));
    expect(markToReveal(marks, probeFocus, probeFocus)).toBeNull(); // already revealed for this query
    expect(markToReveal([mark(1, 'only-a')], probeFocus, '')).toBeNull(); // boundaries are not revealed
    expect(markToReveal(marks, '', '')).toBeNull();
  });
});

describe('editIsNewDocument', () => {
  it('a paste over the whole text, or a named document emptied by hand, is a new document', () => {
    expect(editIsNewDocument('pasted', true, 'sample.md')).toBe(true);
    expect(editIsNewDocument('  \n', false, 'sample.md')).toBe(true);
    expect(editIsNewDocument('  \n', false, null)).toBe(false);
    expect(editIsNewDocument('typed', false, 'sample.md')).toBe(false);
  });
});

describe('a leading byte-order mark in the editor', () => {
  it('goes to Monaco as a word joiner of the same length and comes back as U+FEFF, so offsets agree', () => {
    const text = '\ufeff# Notes\n\nBody.\n';
    const shown = toEditorText(text);
    expect(shown.length).toBe(text.length);
    expect(shown.charCodeAt(0)).toBe(0x2060);
    expect(fromEditorText(shown, startsWithBom(text))).toBe(text);
  });

  it('leaves other texts alone, a leading word joiner of the person\'s own included', () => {
    expect(toEditorText('plain')).toBe('plain');
    expect(fromEditorText('\u2060own', false)).toBe('\u2060own');
    expect(fromEditorText('edited', true)).toBe('edited');
  });
});
