import { packLevels, type Level, type MergeParams } from '../merge';
import type { SplitSpan } from '../registry';
import type { Range, Unit } from '../types';
import { inclusiveRange, trimRange } from '../ranges';
import type { OutlineTable } from './markdown';

/**
 * What the markdown and HTML splitters share once each has found its sections and tables: merging tiny sections
 * and deciding whether a table fits once serialized as "column: value" rows.
 */

/**
 * A section smaller than this fraction of `size` is merged with the next section when that one is its sibling
 * (a heading of the same depth) and the two together still fit; merging repeats while the result stays this small.
 * A section that is only a heading line (no body) joins the section after it whatever its depth, always.
 */
export const TINY_SECTION_FRACTION = 1 / 4;

export function mergeTinySections(
  sections: readonly (Range & { depth: number })[],
  size: number,
  sizeOf: (r: Range) => number,
  headingOnly: (r: Range) => boolean,
): Range[] {
  const merged: Range[] = [];
  for (let i = 0; i < sections.length; ) {
    const first = sections[i]!;
    let end = first.end;
    let k = i + 1;
    while (
      k < sections.length &&
      // A heading with no body always joins what follows (the packer then cuts the joined section at its blocks,
      // starting with the heading), so no chunk is a bare heading line.
      (headingOnly({ start: first.start, end }) ||
        (sizeOf({ start: first.start, end }) < size * TINY_SECTION_FRACTION &&
          sections[k]!.depth === first.depth &&
          sizeOf({ start: first.start, end: sections[k]!.end }) <= size))
    ) {
      end = sections[k]!.end;
      k++;
    }
    merged.push({ start: first.start, end });
    i = k;
  }
  return merged;
}

/**
 * With `rowsAsText`, a table alone in its chunk gets serialized content, so it must fit serialized too. Rows are
 * serialized once per table.
 */
export function serializedTables<T extends OutlineTable>(options: { rowsAsText?: boolean; size: number; unit: Unit }) {
  const serialized = new Map<T, string>();
  const serializedRows = (t: T): string => {
    let rows = serialized.get(t);
    if (rows === undefined) {
      rows = rowsAsText(t, inclusiveRange(0, t.rows.length - 1));
      serialized.set(t, rows);
    }
    return rows;
  };
  const fitsSerialized = (t: T, withCaption: boolean): boolean => {
    if (!options.rowsAsText || t.rows.length === 0) return true;
    const rows = serializedRows(t);
    return options.unit.count(withCaption && t.caption ? `${t.caption.text}\n\n${rows}` : rows) <= options.size;
  };
  return { serializedRows, fitsSerialized };
}

/** "column: value" lines for each row, rows separated by a blank line. */
export function rowsAsText(table: OutlineTable, rowIndexes: readonly number[]): string {
  return rowIndexes
    .map((i) => table.cells[i]!.map((value, c) => `${table.columns[c] ?? `column ${c + 1}`}: ${value}`).join('\n'))
    .join('\n\n');
}

/** The default smallest text piece, as a fraction of the size (as for tiny sections): a chunk under size / 4 reads as a fragment. */
export const DEFAULT_MIN_FRAGMENT_FRACTION = 1 / 4;

/** `minFragment` as resolved for a split: the option (0 = off), else size / 4. */
export function minFragmentFor(size: number, minFragment: number | null | undefined): number {
  return minFragment ?? Math.floor(size * DEFAULT_MIN_FRAGMENT_FRACTION);
}

export interface FragmentRules {
  size: number;
  /** Pieces smaller than this (in the unit) are fragments; 0 = keep them. */
  minFragment: number;
  sizeOf(r: Range): number;
  /** A whole structural unit (a code block, a table) or a piece with its own content: never merged or re-cut. */
  whole(s: SplitSpan): boolean;
  /** A heading line alone: it joins what follows, never what precedes. */
  headingOnly(r: Range): boolean;
  /** Whether a cut may fall at this offset (not inside a code block or table kept whole, nor inside a tag). */
  cuttable(at: number): boolean;
}

/**
 * Fragments ("record." after a sentence cut at words, a short last line) join a neighbour packed from the same
 * section (any two neighbours that fit together are joined): the previous piece when the two fit, else the next one; else the cut before the fragment moves back
 * (word by word, up to 200 words) until the fragment holds at least `minFragment` and the piece before it still
 * does. A heading alone only joins the next piece. Whole code blocks and tables are never merged nor re-cut.
 */
export function absorbFragments(text: string, spans: readonly SplitSpan[], rules: FragmentRules): SplitSpan[] {
  if (rules.minFragment <= 0 || spans.length < 2) return [...spans];
  // A moved cut shrinks the piece before a fragment, which may then take the fragment before it: another pass, at
  // most three more, only while cuts move.
  let { spans: current, moved } = absorbOnce(text, spans, rules);
  for (let pass = 0; pass < 3 && moved; pass++) ({ spans: current, moved } = absorbOnce(text, current, rules));
  return current;
}

function absorbOnce(text: string, spans: readonly SplitSpan[], rules: FragmentRules): { spans: SplitSpan[]; moved: boolean } {
  let moved = false;
  const plain = (s: SplitSpan | undefined): s is SplitSpan => s !== undefined && !s.oversize && s.content === undefined && s.prefix === undefined && !rules.whole(s);
  const work = spans.map((s) => ({ ...s }));
  const out: SplitSpan[] = [];
  for (let i = 0; i < work.length; i++) {
    const span = work[i]!;
    const prev = out[out.length - 1];
    // Two pieces that fit together are one (a heading joined with its first words can leave such a pair).
    if (plain(span) && plain(prev) && !rules.headingOnly(prev) && !rules.headingOnly(span) && rules.sizeOf({ start: prev.start, end: span.end }) <= rules.size) {
      prev.end = span.end;
      continue;
    }
    if (!plain(span) || rules.sizeOf(span) >= rules.minFragment) {
      out.push(span);
      continue;
    }
    const next = work[i + 1];
    const heading = rules.headingOnly(span);
    if (!heading && plain(prev) && rules.sizeOf({ start: prev.start, end: span.end }) <= rules.size) {
      prev.end = span.end;
      continue;
    }
    if (plain(next) && rules.sizeOf({ start: span.start, end: next.end }) <= rules.size) {
      next.start = span.start;
      continue;
    }
    if (!heading && plain(prev) && prev.end <= span.start && !rules.headingOnly(prev)) {
      // prev must still end after the piece before it: a cut back into their overlap would leave prev nothing of
      // its own (a chunk inside the one before it).
      const cut = movedCut(text, prev, span, rules, out[out.length - 2]?.end ?? -1);
      if (cut !== null) {
        const before = trimRange(text, { start: prev.start, end: cut });
        const after = trimRange(text, { start: cut, end: span.end });
        prev.end = before.end;
        span.start = after.start;
        moved = true;
      }
    }
    out.push(span);
  }
  return { spans: out, moved };
}

/**
 * The latest whitespace cut in `prev` that leaves both sides at least minFragment and the fragment within size.
 * Word starts up to 200 words back are searched by bisection (the fragment's size only grows as the cut moves
 * back), so a token unit counts a handful of spans, not one per word.
 */
function movedCut(text: string, prev: Range, fragment: Range, rules: FragmentRules, endBefore: number): number | null {
  // Word starts before the fragment, latest first.
  const starts = wordStartsBefore(text, prev.start, fragment.start, 200);
  const tail = (k: number): number => rules.sizeOf({ start: starts[k]!, end: fragment.end });
  // The first (latest) index whose tail holds the minimum.
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tail(mid) >= rules.minFragment) hi = mid;
    else lo = mid + 1;
  }
  for (let k = lo; k < starts.length; k++) {
    if (!rules.cuttable(starts[k]!)) continue;
    if (tail(k) > rules.size) return null;
    // The piece before keeps at least minFragment, more than a heading line, and text past the piece before it.
    const head = trimRange(text, { start: prev.start, end: starts[k]! });
    return rules.sizeOf(head) >= rules.minFragment && !rules.headingOnly(head) && head.end > endBefore ? starts[k]! : null;
  }
  return null;
}

/** A word start: a non-blank character after a blank (`\s` is exactly `isWhitespaceCode`'s set). */
const WORD_START = /(?<=\s)\S/g;

/**
 * The word starts p with from < p < to, latest first, at most `limit`. Searched with a pattern over a window before
 * `to` that grows until it holds `limit` of them or reaches `from` (a loop over characters ran in the interpreter
 * in a fresh process, for every fragment).
 */
export function wordStartsBefore(text: string, from: number, to: number, limit: number): number[] {
  for (let window = 2048; ; window *= 4) {
    const low = Math.max(from + 1, to - window);
    // From one character before `low`: the blank a word start at `low` follows.
    const part = text.slice(low - 1, to);
    const found: number[] = [];
    for (const m of part.matchAll(WORD_START)) found.push(low - 1 + m.index);
    if (found.length >= limit || low === from + 1 || low >= to) return found.reverse().slice(0, limit);
  }
}

export interface HeadingJoinRules {
  /** A heading line alone. */
  headingOnly(r: Range): boolean;
  /** Where headings start (trimmed): a heading never joins another heading. */
  headingStarts: { has(offset: number): boolean };
  /** A block kept whole (a table, a code block): a heading before it stays alone. */
  keptWhole(r: Range): boolean;
  /** The word levels the heading and its body are packed again at (never cutting inside what must stay whole). */
  wordLevels: Level[];
  params: MergeParams;
}

/**
 * A heading left alone before a cut (it and the next block do not fit together) joins the start of its own body:
 * the two are packed again at words, so the heading opens a chunk with the first words of what follows. Markdown
 * and HTML share this.
 */
export function joinLoneHeadings(text: string, spans: readonly SplitSpan[], rules: HeadingJoinRules): SplitSpan[] {
  const joined: SplitSpan[] = [];
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const next = spans[i + 1];
    if (next && rules.headingOnly(span) && !rules.headingStarts.has(trimRange(text, next).start) && !rules.keptWhole(next)) {
      const repacked: SplitSpan[] = [];
      packLevels(text, span.start, next.end, rules.wordLevels, rules.params, repacked);
      if (repacked.length > 0 && !rules.headingOnly(repacked[0]!)) {
        // The repacked tail may be only the overlap the span after `next` already opens with: it adds nothing and
        // would be a chunk inside that one.
        const following = spans[i + 2];
        joined.push(...(following ? repacked.filter((r) => r.start < following.start) : repacked));
        i++;
        continue;
      }
    }
    joined.push(span);
  }
  return joined;
}
