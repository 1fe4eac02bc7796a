import type { Range, Unit } from '../types';
import { inclusiveRange } from '../ranges';
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
