import type { editor, IRange } from 'monaco-editor/editor/editor.api';
import type { PaintableResult } from '../../state/resultsSlice';

/** Monaco's InjectedTextCursorStops.None (the enum value; importing the enum would pull the API into tests). */
const CURSOR_STOPS_NONE = 3;
/** TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges */
const NEVER_GROWS = 1;

export interface OffsetToPosition {
  getPositionAt(offset: number): { lineNumber: number; column: number };
}

function range(model: OffsetToPosition, start: number, end: number): IRange {
  const a = model.getPositionAt(start);
  const b = model.getPositionAt(end);
  return { startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column };
}

/**
 * Every decoration for one result, built in one pass and applied by the caller in ONE batch:
 * - each chunk: a background (cs-chunk-even / cs-chunk-odd, alternating) over exactly [start, end);
 * - each boundary: the chunk's index as injected text (cs-chunk-label) before its first character;
 * - each overlap between neighbours, from the real offsets: a hatched region (cs-overlap).
 * Text between chunks (whitespace a splitter dropped) gets no decoration, so it shows outside every chunk.
 * `from`/`to` limit the work to chunks [from, to) (the editor paints a window around the viewport).
 */
export function buildDecorations(
  model: OffsetToPosition,
  result: PaintableResult,
  from = 0,
  to = result.starts.length,
): editor.IModelDeltaDecoration[] {
  const { starts, ends, overlaps, oversize } = result;
  const n = starts.length;
  const out: editor.IModelDeltaDecoration[] = [];
  for (let i = from; i < to; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    const parity = i % 2 === 0 ? 'cs-chunk-even' : 'cs-chunk-odd';
    out.push({
      range: range(model, start, end),
      options: {
        className: oversize[i] ? `${parity} cs-chunk-oversize` : parity,
        stickiness: NEVER_GROWS,
      },
    });
    const at = model.getPositionAt(start);
    out.push({
      range: { startLineNumber: at.lineNumber, startColumn: at.column, endLineNumber: at.lineNumber, endColumn: at.column },
      options: {
        showIfCollapsed: true,
        stickiness: NEVER_GROWS,
        before: {
          content: String(i),
          inlineClassName: oversize[i] ? 'cs-chunk-label cs-chunk-label-oversize' : 'cs-chunk-label',
          cursorStops: CURSOR_STOPS_NONE,
        },
      },
    });
    if (i < n - 1 && overlaps[i]! > 0) {
      out.push({
        range: range(model, starts[i + 1]!, Math.min(end, ends[i + 1]!)),
        options: { className: 'cs-overlap', stickiness: NEVER_GROWS },
      });
    }
  }
  return out;
}

/** Chunks [from, to) that intersect the offsets [fromOffset, toOffset): binary searches on ordered offsets. */
export function chunkWindow(starts: Int32Array, ends: Int32Array, fromOffset: number, toOffset: number): { from: number; to: number } {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! <= fromOffset) lo = mid + 1;
    else hi = mid;
  }
  const from = lo;
  lo = from;
  hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! < toOffset) lo = mid + 1;
    else hi = mid;
  }
  return { from, to: Math.max(from, lo) };
}
