import type { editor } from 'monaco-editor/editor/editor.api';
import type { Chunk, Range } from '../../core/types';
import type { LlmHover } from '../../state/llmEditor';
import type { PaintableResult } from '../../state/resultsSlice';
import { injectedLine, offsetRange, type DecorationView, type OffsetToPosition } from './decorations';

/**
 * The LLM panel's last run drawn over the source (pure; applied by useChunkDecorations and useLlmMarks). The model's
 * text is untrusted: it goes into Monaco only as injected text (`before.content`, written as text, never HTML) and
 * never into the model, so the editor's text stays the source.
 * - contextual: each chunk's generated context at its first character, drawn as contextual headers are
 *   (cs-injected, plus cs-llm-context), after the chunk's own marks;
 * - propositions: a flag at each passage that has propositions the source does not support;
 * - boundaries: the model's chunks replace the base chunks in the drawing (llmPaintable).
 */

/** Monaco's InjectedTextCursorStops.None and TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges (as in decorations.ts). */
const CURSOR_STOPS_NONE = 3;
const NEVER_GROWS = 1;

function injectedAt(model: OffsetToPosition, offset: number, content: string, inlineClassName: string): editor.IModelDeltaDecoration {
  const at = model.getPositionAt(offset);
  return {
    range: { startLineNumber: at.lineNumber, startColumn: at.column, endLineNumber: at.lineNumber, endColumn: at.column },
    options: { showIfCollapsed: true, stickiness: NEVER_GROWS, before: { content, inlineClassName, cursorStops: CURSOR_STOPS_NONE } },
  };
}

/**
 * The run's injected marks whose offset is in [fromOffset, toOffset] (the editor's painted window), appended to
 * `out` (after the chunks' own marks: Monaco lays out injected texts at one position in the order they come).
 */
export function llmDecorations(
  model: OffsetToPosition,
  run: { feature: string; chunks: readonly Chunk[] },
  fromOffset: number,
  toOffset: number,
  view: DecorationView,
  out: editor.IModelDeltaDecoration[],
): void {
  if (run.feature === 'contextual') {
    for (const c of run.chunks) {
      const context = c.metadata.context;
      if (typeof context !== 'string' || c.start < fromOffset || c.start > toOffset) continue;
      out.push(
        view.injectedCollapsed
          ? injectedAt(model, c.start, '⤷ context ', 'cs-injected cs-injected-collapsed cs-llm-context')
          : injectedAt(model, c.start, `⤷ ${injectedLine(context)} `, 'cs-injected cs-llm-context'),
      );
    }
  } else if (run.feature === 'propositions') {
    for (const [passage, count] of unsupportedByPassage(run.chunks)) {
      if (passage.start < fromOffset || passage.start > toOffset) continue;
      out.push(injectedAt(model, passage.start, `⚠ ${count} unsupported proposition${count === 1 ? '' : 's'} `, 'cs-llm-unsupported'));
    }
  }
}

/** Passages (by their span) with how many of their propositions have no support in the source, in source order. */
export function unsupportedByPassage(chunks: readonly Chunk[]): [Range, number][] {
  const byKey = new Map<string, [Range, number]>();
  for (const c of chunks) {
    if (c.metadata.supportStatus !== 'unsupported') continue;
    const span = (c.metadata.derivedFrom as Range | undefined) ?? { start: c.start, end: c.end };
    const key = `${span.start}:${span.end}`;
    const known = byKey.get(key);
    if (known) known[1]++;
    else byKey.set(key, [span, 1]);
  }
  return [...byKey.values()].sort((a, b) => a[0].start - b[0].start);
}

/**
 * The hovered proposition in the editor: its support spans marked (cs-llm-support), or, for an unsupported one,
 * its passage outlined as holding nothing it says (cs-llm-no-support). `reveal` is the range to bring into view.
 */
export function llmHoverDecorations(model: OffsetToPosition, hover: LlmHover | null, length: number): { decorations: editor.IModelDeltaDecoration[]; reveal: Range | null } {
  if (!hover) return { decorations: [], reveal: null };
  const clamp = (r: Range): Range => ({ start: Math.max(0, Math.min(r.start, length)), end: Math.max(0, Math.min(r.end, length)) });
  const spans = hover.support.map(clamp).filter((r) => r.end > r.start);
  if (spans.length === 0) {
    const passage = clamp(hover.passage);
    return { decorations: [{ range: offsetRange(model, passage.start, passage.end), options: { className: 'cs-llm-no-support', stickiness: NEVER_GROWS } }], reveal: passage };
  }
  return {
    decorations: spans.map((r) => ({ range: offsetRange(model, r.start, r.end), options: { className: 'cs-llm-support', stickiness: NEVER_GROWS } })),
    reveal: spans[0]!,
  };
}

const paintableMemo = new WeakMap<readonly Chunk[], { base: PaintableResult; drawn: PaintableResult }>();

/** The model's chunks (boundaries) in the shape the chunk drawing reads, on the base result's text; memoised per run. */
export function llmPaintable(base: PaintableResult, chunks: readonly Chunk[]): PaintableResult {
  const known = paintableMemo.get(chunks);
  if (known && known.base === base) return known.drawn;
  const n = chunks.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const overlaps = new Int32Array(Math.max(0, n - 1));
  chunks.forEach((c, i) => {
    starts[i] = c.start;
    ends[i] = c.end;
  });
  for (let i = 0; i + 1 < n; i++) overlaps[i] = Math.max(0, ends[i]! - starts[i + 1]!);
  // The base strategy's structure (breadcrumbs, parents) is drawn on its own chunks only.
  const { structure: _structure, ...rest } = base;
  const drawn: PaintableResult = { ...rest, starts, ends, overlaps, oversize: new Uint8Array(n) };
  paintableMemo.set(chunks, { base, drawn });
  return drawn;
}
