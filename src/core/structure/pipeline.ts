import { meterFor } from '../measure';
import { cutFilterFor, packLevels, type Level, type MergeParams, type RunGuard } from '../merge';
import { lastStartingAtOrBefore, trimRange } from '../ranges';
import type { SplitSpan } from '../registry';
import { separatorLevels } from '../segment/separators';
import type { Range, Unit } from '../types';
import type { OutlineTable } from './markdown';
import { absorbFragments, joinLoneHeadings, mergeTinySections, minFragmentFor, type FragmentRules } from './sections';

/**
 * The one pipeline of the structure-aware splitters. A format (markdown; HTML; DOCX, which is imported as markdown)
 * only reads its document into a `StructureOutline` — sections, where headings are, what must stay whole, its own
 * packing levels — and says how a piece's content reads (`StructureFormat`). This loop does the rest, the same for
 * every format: tiny sections merged, oversize sections packed at the format's levels then the fallback separators
 * without cutting inside atomic ranges, lone headings joined to their body, fragments absorbed, oversize tables
 * cut into row groups.
 */

export type StructureContentType = 'text' | 'table' | 'code';

/** A chunk span of a structure-aware splitter: exact source offsets plus breadcrumbs and what the chunk holds. */
export interface StructureSpan extends SplitSpan {
  /** Ancestor heading titles at the span's first non-blank character, outermost first. */
  headingPath: string[];
  contentType: StructureContentType;
  /** Table chunks: the table's caption text, when it has one. */
  caption?: string;
}

/** What one split measures with: the size, its meter (through `params`) and the guard, shared by every step. */
export interface StructureRun {
  text: string;
  size: number;
  /** The option as given (null/undefined: size / 4; 0: fragments are kept). */
  minFragment: number | null | undefined;
  unit: Unit;
  params: MergeParams;
  /** A range's size in the unit, trimmed (0 for whitespace only). */
  sizeOf(r: Range): number;
  fits(r: Range): boolean;
}

export function structureRun(
  text: string,
  options: { size: number; overlap: number; unit: Unit; minFragment?: number | null },
  guard: RunGuard,
): StructureRun {
  const meter = meterFor(options.unit, text);
  const params: MergeParams = { size: options.size, overlap: options.overlap, meter, guard };
  const sizeOf = (r: Range): number => {
    const t = trimRange(text, r);
    return t.start >= t.end ? 0 : meter.exact(t.start, t.end);
  };
  return {
    text,
    size: options.size,
    minFragment: options.minFragment,
    unit: options.unit,
    params,
    sizeOf,
    fits: (r) => sizeOf(r) <= options.size,
  };
}

/** A span that is exactly one code block or one table (its trimmed range). */
export interface WholeBlock<T extends OutlineTable> {
  range: Range;
  type: 'code' | 'table';
  table?: T;
}

/** What a format reads from its document: everything the pipeline needs to know about its structure. */
export interface StructureOutline<T extends OutlineTable> {
  /** Sections covering what is split, in order; depth 0 is the text before the first heading. */
  sections: readonly (Range & { depth: number })[];
  /** A heading's trimmed start → the end of its heading line (a section that ends there is a heading alone). */
  headingEnds: ReadonlyMap<number, number>;
  /** Every code block, sorted by start: a piece inside one is code, and no fragment's cut moves into one. */
  code: readonly Range[];
  /** Ranges no cut may fall inside (code blocks and tables that fit, tags...), sorted and disjoint. */
  atomic: readonly Range[];
  /** The format's own packing levels, outermost first; the fallback separators follow them. */
  blockLevels: readonly Level[];
  /** Spans that hold exactly one code block or table; for one range, the last listed wins. */
  wholeBlocks: readonly WholeBlock<T>[];
  /** Ranges never packed, sorted and disjoint: a table among them is cut into row groups, the rest is skipped. */
  holes: readonly (Range & { table?: T })[];
}

/** How a format's pieces read. */
export interface StructureFormat<T extends OutlineTable> {
  headingPathAt(offset: number): string[];
  /** The piece's content (the format's text for it), set on `span`; `table` when it is exactly one table. */
  describe(span: StructureSpan, table: T | undefined): void;
  /** The described pieces packed from one stretch of a section, as they go out (default: unchanged). */
  settle?(pieces: StructureSpan[]): StructureSpan[];
  /** A table too large for one chunk, cut into groups of rows. */
  rowGroups(table: T): StructureSpan[];
}

/** Inside an oversize section, after the format's levels: blank lines, lines, words, grapheme clusters. */
const FALLBACK_SEPARATORS = ['\n\n', '\n', ' ', ''];

/** Split a structured document read into `outline`: see the module comment. */
export function splitStructured<T extends OutlineTable>(run: StructureRun, outline: StructureOutline<T>, format: StructureFormat<T>): StructureSpan[] {
  const { text, params } = run;
  const { atomic, code } = outline;
  const headingOnly = (r: Range): boolean => {
    const t = trimRange(text, r);
    return (outline.headingEnds.get(t.start) ?? -1) >= t.end;
  };
  const merged = mergeTinySections(outline.sections, run.size, run.sizeOf, headingOnly);
  const levels = [...outline.blockLevels, ...separatorLevels(text, FALLBACK_SEPARATORS, false, 'start', cutFilterFor(text, run.unit))].map((level) =>
    withoutCutsInside(level, atomic),
  );

  // start -> end -> block (numbers, not "start:end" strings: this is asked for every piece and every fragment check).
  const kinds = new Map<number, Map<number, WholeBlock<T>>>();
  for (const block of outline.wholeBlocks) {
    const { start, end } = block.range;
    let ends = kinds.get(start);
    if (!ends) kinds.set(start, (ends = new Map()));
    ends.set(end, block);
  }
  const kindOf = (r: Range): WholeBlock<T> | undefined => kinds.get(r.start)?.get(r.end);
  // A piece of a code block too large to keep whole is code too: no heading joins it, no fragment moves it.
  const insideCode = (r: Range): boolean => {
    const around = code[lastStartingAtOrBefore(code, r.start)];
    return around !== undefined && r.end <= around.end;
  };
  const keptWhole = (r: Range): boolean => kindOf(r) !== undefined || insideCode(r);

  // A heading left alone before a cut joins its body's first words (joinLoneHeadings), never cutting inside what
  // must stay whole.
  const wordLevels = separatorLevels(text, ['\\s+', ''], true, 'start').map((level) => withoutCutsInside(level, atomic));
  const joinHeadings = (spans: SplitSpan[]): SplitSpan[] =>
    joinLoneHeadings(text, spans, { headingOnly, headingStarts: outline.headingEnds, keptWhole, wordLevels, params });

  // Fragments join a neighbour; code blocks and tables (whole, or pieces of one too large) are left as they are.
  const fragments: FragmentRules = {
    size: run.size,
    minFragment: minFragmentFor(run.size, run.minFragment),
    sizeOf: run.sizeOf,
    whole: keptWhole,
    headingOnly,
    cuttable: (at) => !insideAny(atomic, at) && !insideAny(code, at),
  };

  const out: StructureSpan[] = [];
  const pushText = (spans: SplitSpan[]): void => {
    const pieces: StructureSpan[] = [];
    for (const span of absorbFragments(text, joinHeadings(spans), fragments)) {
      const kind = kindOf(span);
      const contentType = kind?.type ?? (insideCode(span) ? 'code' : 'text');
      const described: StructureSpan = { ...span, headingPath: format.headingPathAt(span.start), contentType };
      if (kind?.table?.caption) described.caption = kind.table.caption.text;
      format.describe(described, kind?.table);
      pieces.push(described);
    }
    out.push(...(format.settle ? format.settle(pieces) : pieces));
  };
  const pack = (start: number, end: number): void => {
    const spans: SplitSpan[] = [];
    if (end > start) packLevels(text, start, end, levels, params, spans);
    pushText(spans);
  };

  const { holes } = outline;
  let nextHole = 0;
  for (const section of merged) {
    params.guard.check();
    let from = section.start;
    while (nextHole < holes.length && holes[nextHole]!.start < section.end) {
      const hole = holes[nextHole++]!;
      pack(from, hole.start);
      if (hole.table) out.push(...format.rowGroups(hole.table));
      from = Math.max(from, hole.end);
    }
    pack(from, section.end);
  }
  return out;
}

/** Whether `at` lies strictly inside one of `ranges` (sorted by start, not overlapping). */
export function insideAny(ranges: readonly Range[], at: number): boolean {
  const i = lastStartingAtOrBefore(ranges, at - 1);
  return i >= 0 && at < ranges[i]!.end;
}

/** A level whose cuts strictly inside an atomic range are undone (the pieces on both sides are joined). */
function withoutCutsInside(level: Level, atomic: readonly Range[]): Level {
  if (atomic.length === 0) return level;
  return (start, end) => {
    const out: Range[] = [];
    for (const p of level(start, end)) {
      const prev = out[out.length - 1];
      // Atomic ranges fit the size, so they are never the range being cut here: a cut inside one is undone.
      if (prev && prev.end === p.start && insideAny(atomic, p.start)) prev.end = p.end;
      else out.push({ start: p.start, end: p.end });
    }
    return out;
  };
}
