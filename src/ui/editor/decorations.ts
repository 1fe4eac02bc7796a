import type { editor, IRange } from 'monaco-editor/editor/editor.api';
import type { PaintableResult } from '../../state/resultsSlice';
import { breadcrumbText } from '../../state/selectors';
import { lowerBound, upperBound } from '../../core/describe';

/** Monaco's InjectedTextCursorStops.None (the enum value; importing the enum would pull the API into tests). */
const CURSOR_STOPS_NONE = 3;
/** TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges */
const NEVER_GROWS = 1;

export interface OffsetToPosition {
  getPositionAt(offset: number): { lineNumber: number; column: number };
}

/** The Monaco range of the offsets [start, end). */
export function offsetRange(model: OffsetToPosition, start: number, end: number): IRange {
  const a = model.getPositionAt(start);
  const b = model.getPositionAt(end);
  return { startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column };
}

/** Longest injected prefix drawn inline; the list shows the whole of it. */
const MAX_INJECTED_CHARS = 160;
const CONTENT_TYPE_LABELS = ['', 'table', 'code'];

function collapsedAt(model: OffsetToPosition, offset: number): IRange {
  const at = model.getPositionAt(offset);
  return { startLineNumber: at.lineNumber, startColumn: at.column, endLineNumber: at.lineNumber, endColumn: at.column };
}

/** Injected text is one line: line breaks of a prefix become a visible mark. */
export function injectedLine(text: string): string {
  const flat = text.replace(/(\r?\n)+$/, '').replace(/(\r?\n)+/g, ' ↵ ');
  return flat.length > MAX_INJECTED_CHARS ? `${flat.slice(0, MAX_INJECTED_CHARS - 1)}…` : flat;
}

/** A repeated breadcrumb stays short: it only reminds which section the chunk is in (the hover has the path). */
const SHORT_TITLE_CHARS = 32;
function shortTitle(title: string): string {
  return title.length > SHORT_TITLE_CHARS ? `${title.slice(0, SHORT_TITLE_CHARS - 1)}…` : title;
}

function injected(content: string, inlineClassName: string): editor.IModelDecorationOptions {
  return { showIfCollapsed: true, stickiness: NEVER_GROWS, before: { content, inlineClassName, cursorStops: CURSOR_STOPS_NONE } };
}

/**
 * Every decoration for one result, built in one pass and applied by the caller in ONE batch:
 * - each chunk: a background (cs-chunk-even / cs-chunk-odd, alternating) over exactly [start, end);
 * - each boundary: the chunk's index as injected text (cs-chunk-label) before its first character, with
 *   "table" / "code" for such chunks;
 * - each overlap between neighbours, from the real offsets: a hatched region (cs-overlap).
 * Structure-aware results add, at a chunk's first character and in this order after the label, its heading path
 * (cs-breadcrumb; the chunks after the first of a section show "› innermost title"; left out where the injected
 * prefix already spells the path out) and its injected prefix (cs-injected: a contextual header or a repeated table header, text that
 * is embedded but is not in the source); retrieval units add their enclosing units as bands (cs-parent: a bar in
 * the line-decorations gutter and a faint whole-line band, a rule and a label at the unit's first line).
 * Monaco lays out injected texts at one position in the order their decorations come, so the order is kept.
 * Text between chunks (whitespace a splitter dropped) gets no decoration, so it shows outside every chunk.
 * `from`/`to` limit the work to chunks [from, to) (the editor paints a window around the viewport).
 */
/** How many marks the editor draws at once (projector mode draws fewer). */
export interface DecorationView {
  /** Breadcrumbs only where the section changes (not the "› title" repeat on each later chunk of a section). */
  breadcrumbsOnChange?: boolean;
  /** Injected text drawn as a short "⤷ header" mark instead of in full (its size is still in the hover). */
  injectedCollapsed?: boolean;
}

/** Whether the text at `start` is a markdown heading line (or an HTML h1–h6) that names `title`. */
function opensWithHeading(text: string, start: number, title: string): boolean {
  const lineEnd = text.indexOf('\n', start);
  const line = text.slice(start, lineEnd < 0 ? Math.min(text.length, start + 400) : Math.min(lineEnd, start + 400));
  return /^\s*(#{1,6}\s|<h[1-6][\s>])/i.test(line) && line.includes(title);
}

/** The view for projector mode and the "injected text" toggle (null: collapsed in projector mode only). */
export function decorationViewFor(projector: boolean, injectedShown: boolean | null): DecorationView {
  return { breadcrumbsOnChange: projector, injectedCollapsed: injectedShown === null ? projector : !injectedShown };
}

export function buildDecorations(
  model: OffsetToPosition,
  result: PaintableResult,
  from = 0,
  to = result.starts.length,
  view: DecorationView = {},
): editor.IModelDeltaDecoration[] {
  const { starts, ends, overlaps, oversize, structure } = result;
  const n = starts.length;
  const out: editor.IModelDeltaDecoration[] = [];
  if (structure?.parents && to > from) parentDecorations(model, result, starts[from]!, ends[to - 1]!, out);
  const types = structure?.contentTypes;
  // Sentence windows: one chunk per sentence, so a breadcrumb is drawn only where the path changes.
  const pathOnChangeOnly = structure?.windowStarts !== undefined || view.breadcrumbsOnChange === true;
  for (let i = from; i < to; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    const parity = i % 2 === 0 ? 'cs-chunk-even' : 'cs-chunk-odd';
    out.push({
      range: offsetRange(model, start, end),
      options: {
        className: oversize[i] ? `${parity} cs-chunk-oversize` : parity,
        stickiness: NEVER_GROWS,
      },
    });
    const type = types ? types[i]! : 0;
    let labelClass = oversize[i] ? 'cs-chunk-label cs-chunk-label-oversize' : 'cs-chunk-label';
    if (type) labelClass += ` cs-chunk-label-${CONTENT_TYPE_LABELS[type]}`;
    const at = collapsedAt(model, start);
    out.push({ range: at, options: injected(type ? `${i} · ${CONTENT_TYPE_LABELS[type]}` : String(i), labelClass) });
    if (structure) {
      const p = structure.pathIndex[i]!;
      const path = p >= 0 ? structure.paths[p]! : null;
      const sameAsPrevious = i > 0 && structure.pathIndex[i - 1] === p;
      const q = structure.prefixIndex ? structure.prefixIndex[i]! : -1;
      const prefix = q >= 0 ? structure.strings[q]! : '';
      // A contextual header that already spells out the path (the default "{path}" header) stands in for it.
      const shownByPrefix = prefix !== '' && path !== null && path.length > 0 && prefix.includes(path.join(' > '));
      // Projector view: a chunk that opens with its own heading needs only the headings above it.
      const crumbPath = path && view.breadcrumbsOnChange && opensWithHeading(result.text, start, path[path.length - 1]!) ? path.slice(0, -1) : path;
      if (crumbPath && crumbPath.length && !shownByPrefix && !(pathOnChangeOnly && sameAsPrevious)) {
        // The whole path where a section's chunks begin; its next chunks repeat only the innermost title.
        const crumb = sameAsPrevious ? `› ${shortTitle(crumbPath[crumbPath.length - 1]!)}` : breadcrumbText(crumbPath);
        out.push({ range: at, options: injected(`${crumb} `, sameAsPrevious ? 'cs-breadcrumb cs-breadcrumb-same' : 'cs-breadcrumb') });
      }
      if (prefix) {
        out.push({
          range: at,
          options: view.injectedCollapsed ? injected('⤷ header ', 'cs-injected cs-injected-collapsed') : injected(`⤷ ${injectedLine(prefix)} `, 'cs-injected'),
        });
      }
    }
    if (i < n - 1 && overlaps[i]! > 0) {
      out.push({
        range: offsetRange(model, starts[i + 1]!, Math.min(end, ends[i + 1]!)),
        options: { className: 'cs-overlap', stickiness: NEVER_GROWS },
      });
    }
  }
  return out;
}

/**
 * Enclosing retrieval units that intersect [fromOffset, toOffset): each one a band over its whole lines (bar in
 * the gutter at its level's position, faint background on alternate units) plus a rule and a label ("P3") on
 * its first line. Parents are few (one per section or block), so a linear scan is cheap.
 */
function parentDecorations(model: OffsetToPosition, result: PaintableResult, fromOffset: number, toOffset: number, out: editor.IModelDeltaDecoration[]): void {
  const parents = result.structure!.parents!;
  for (let k = 0; k < parents.starts.length; k++) {
    const start = parents.starts[k]!;
    const end = parents.ends[k]!;
    if (end <= fromOffset || start >= toOffset) continue;
    const level = Math.min(parents.levels[k]!, 3);
    const parity = k % 2 === 0 ? 'even' : 'odd';
    const r = offsetRange(model, start, Math.max(start, end - 1));
    out.push({
      range: r,
      options: {
        isWholeLine: true,
        className: `cs-parent-band cs-parent-band-l${level} cs-parent-band-${parity}`,
        linesDecorationsClassName: `cs-parent cs-parent-l${level} cs-parent-${parity}`,
        stickiness: NEVER_GROWS,
      },
    });
    out.push({
      range: { startLineNumber: r.startLineNumber, startColumn: 1, endLineNumber: r.startLineNumber, endColumn: 1 },
      options: { isWholeLine: true, className: `cs-parent-start cs-parent-start-l${level}`, stickiness: NEVER_GROWS },
    });
    out.push({ range: collapsedAt(model, start), options: injected(`P${k}`, `cs-parent-label cs-parent-label-l${level}`) });
  }
}

/** Chunks [from, to) that intersect the offsets [fromOffset, toOffset): binary searches (exact for ordered chunks; a superset that still holds every intersecting chunk when leaves are out of order). */
export function chunkWindow(starts: Int32Array, ends: Int32Array, fromOffset: number, toOffset: number): { from: number; to: number } {
  const { reach, floor } = searchableBounds(starts, ends);
  const from = upperBound(reach, fromOffset);
  return { from, to: Math.max(from, lowerBound(floor, toOffset)) };
}

/**
 * Leaves are in document order, but a compat mode's overlapping levels can put a leaf's start before the previous
 * one's (LlamaIndex's hierarchical leaves). Searching the running maximum of ends and the running minimum of starts
 * from the right keeps every intersecting chunk inside the window; for ordered chunks they are the arrays themselves.
 */
const boundsMemo = new WeakMap<Int32Array, { ends: Int32Array; reach: Int32Array; floor: Int32Array }>();
function searchableBounds(starts: Int32Array, ends: Int32Array): { reach: Int32Array; floor: Int32Array } {
  const known = boundsMemo.get(starts);
  if (known && known.ends === ends) return known;
  let ordered = true;
  for (let i = 1; i < starts.length && ordered; i++) ordered = starts[i]! >= starts[i - 1]! && ends[i]! >= ends[i - 1]!;
  let reach = ends;
  let floor = starts;
  if (!ordered) {
    reach = new Int32Array(ends.length);
    floor = new Int32Array(starts.length);
    for (let i = 0, max = -Infinity; i < ends.length; i++) reach[i] = max = Math.max(max, ends[i]!);
    for (let i = starts.length - 1, min = Infinity; i >= 0; i--) floor[i] = min = Math.min(min, starts[i]!);
  }
  const bounds = { ends, reach, floor };
  boundsMemo.set(starts, bounds);
  return bounds;
}

/** Semantic results: the end of each chunk that the embedding model never reads (cs-truncated). */
/**
 * The stand-in for decorations when the visible lines hold too many chunks to draw (PaintPlan.summary): one band
 * over those lines, its first line saying how many chunks it stands for. Text as injected text: never markup.
 */
export function summaryBandDecorations(model: OffsetToPosition, summary: { chunks: number; start: number; end: number }): editor.IModelDeltaDecoration[] {
  const count = summary.chunks.toLocaleString('en-US');
  return [
    {
      range: offsetRange(model, summary.start, summary.end),
      options: {
        className: 'cs-summary-band',
        isWholeLine: true,
        before: { content: `${count} chunks on these lines: too many to draw one by one (the chunk list shows each) `, inlineClassName: 'cs-summary-label' },
        stickiness: 1,
      },
    },
  ];
}

export function truncatedDecorations(model: OffsetToPosition, truncatedAt: Int32Array, ends: Int32Array): editor.IModelDeltaDecoration[] {
  const out: editor.IModelDeltaDecoration[] = [];
  for (let i = 0; i < truncatedAt.length; i++) {
    const at = truncatedAt[i]!;
    if (at >= 0 && at < ends[i]!) out.push({ range: offsetRange(model, at, ends[i]!), options: { className: 'cs-truncated', stickiness: NEVER_GROWS } });
  }
  return out;
}

/** Decorations plus where to scroll and put the cursor when they are revealed. */
export interface Revealable {
  decorations: editor.IModelDeltaDecoration[];
  /** The range to bring into view. */
  reveal: IRange;
  /** The cursor's position after revealing. */
  position: { lineNumber: number; column: number };
}

/**
 * The two sentences on each side of a gap of the similarity curve (cs-pair-before, cs-pair-after); revealing
 * shows both and puts the cursor at the second. Null when there is no such gap.
 */
export function pairView(
  model: OffsetToPosition,
  sentences: { sentenceStarts: Int32Array; sentenceEnds: Int32Array },
  gap: number | null,
): Revealable | null {
  const { sentenceStarts: starts, sentenceEnds: ends } = sentences;
  if (gap === null || gap < 0 || gap + 1 >= starts.length) return null;
  const first = offsetRange(model, starts[gap]!, ends[gap]!);
  const second = offsetRange(model, starts[gap + 1]!, ends[gap + 1]!);
  return {
    decorations: [
      { range: first, options: { className: 'cs-pair-before', stickiness: NEVER_GROWS } },
      { range: second, options: { className: 'cs-pair-after', stickiness: NEVER_GROWS } },
    ],
    reveal: offsetRange(model, Math.min(starts[gap]!, starts[gap + 1]!), Math.max(ends[gap]!, ends[gap + 1]!)),
    position: model.getPositionAt(starts[gap + 1]!),
  };
}

/** The selected chunk (cs-chunk-selected); revealing puts the cursor at its start. Null when none is selected. */
export function selectionView(model: OffsetToPosition, starts: Int32Array, ends: Int32Array, index: number | null): Revealable | null {
  if (index === null || index >= starts.length) return null;
  const range = offsetRange(model, starts[index]!, ends[index]!);
  return {
    decorations: [{ range, options: { className: 'cs-chunk-selected', isWholeLine: false } }],
    reveal: range,
    position: model.getPositionAt(starts[index]!),
  };
}

/** Sentence windows: the window of chunk `index` (cs-window); none for other results or a chunk without one. */
export function windowDecorations(model: OffsetToPosition, result: PaintableResult, index: number | null): editor.IModelDeltaDecoration[] {
  const starts = result.structure?.windowStarts;
  const ends = result.structure?.windowEnds;
  if (!starts || !ends || index === null || index >= result.starts.length || starts[index]! < 0) return [];
  return [{ range: offsetRange(model, starts[index]!, ends[index]!), options: { className: 'cs-window', stickiness: NEVER_GROWS } }];
}
