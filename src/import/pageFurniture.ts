/**
 * Page furniture: running headers and footers ("ACME Travel Policy", "Page 3 of 9") that a PDF repeats on
 * most pages. Left in, they land in the middle of chunks (a paragraph that crosses a page break gets a footer
 * and a header inside it) and in every embedding. Pure functions on lines, so they are tested without pdfjs.
 */

/** How many non-blank lines at the top and at the bottom of a page can be furniture. */
const ZONE = 2;
/**
 * A line counts as furniture when it recurs in the same zone on at least this share of the pages; a document
 * of up to SMALL pages needs it on every page (two of three pages starting "Chapter 2", "Chapter 3" is content).
 */
const MIN_SHARE = 0.5;
const SMALL = 4;

/** Compare lines regardless of numbers ("Page 3 of 9" = "Page 4 of 9"), case and spacing. */
export function normaliseFurnitureLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ').replace(/\d+/g, '#').toLowerCase();
}

function zoneIndexes(lines: readonly string[], from: 'top' | 'bottom'): number[] {
  const found: number[] = [];
  const order = from === 'top' ? lines.keys() : [...lines.keys()].reverse();
  for (const i of order) {
    if (lines[i]!.trim() === '') continue;
    found.push(i);
    if (found.length === ZONE) break;
  }
  return found;
}

export interface FurnitureResult {
  /** The pages' lines without the furniture (blank lines kept). */
  pages: string[][];
  /** How many lines were dropped, over all pages. */
  dropped: number;
  /** The repeated lines found, as they appear on the first page that has them. */
  examples: string[];
}

/**
 * Drop lines that recur (numbers ignored) in the top or bottom zone of most pages. Needs at least two pages:
 * with one page nothing can be told apart from content.
 */
export function dropPageFurniture(pages: readonly (readonly string[])[]): FurnitureResult {
  const result: FurnitureResult = { pages: pages.map((lines) => [...lines]), dropped: 0, examples: [] };
  if (pages.length < 2) return result;
  const needed = pages.length <= SMALL ? pages.length : Math.max(SMALL, Math.ceil(pages.length * MIN_SHARE));
  for (const zone of ['top', 'bottom'] as const) {
    const pagesWith = new Map<string, number>();
    for (const lines of pages) {
      const seen = new Set(zoneIndexes(lines, zone).map((i) => normaliseFurnitureLine(lines[i]!)));
      for (const key of seen) pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1);
    }
    const repeated = new Set([...pagesWith].filter(([, count]) => count >= needed).map(([key]) => key));
    if (repeated.size === 0) continue;
    result.pages = result.pages.map((lines) => {
      const drop = new Set(zoneIndexes(lines, zone).filter((i) => repeated.has(normaliseFurnitureLine(lines[i]!))));
      for (const i of drop) {
        const example = lines[i]!.trim();
        if (!result.examples.some((e) => normaliseFurnitureLine(e) === normaliseFurnitureLine(example))) result.examples.push(example);
      }
      result.dropped += drop.size;
      return lines.filter((_, i) => !drop.has(i));
    });
  }
  return result;
}
