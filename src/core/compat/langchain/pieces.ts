/**
 * Pieces of the source as LangChain's `splitOnSeparator` makes them, but as UTF-16 ranges instead of strings,
 * so every chunk built from them keeps exact offsets (no indexOf look-ups afterwards).
 */
export interface Pieces {
  starts: number[];
  ends: number[];
}

/** `undefined` stands for LangChain's "no separator left" (its `separators[-1]`), which splits like "". */
export type Separator = string | undefined;

/**
 * Split `source[start, end)` the way LangChain JS does, dropping empty pieces:
 * - "" (or no separator): one piece per UTF-16 unit, so an emoji is cut into its two surrogates;
 * - keepSeparator: split before every occurrence of the separator (a lookahead split), occurrences may overlap
 *   ("\n\n\n" on "\n\n" splits at 1 and 2) and an occurrence at the very start is not a split point; the separator
 *   stays at the start of the following piece, so the pieces tile the range;
 * - otherwise: split on non-overlapping occurrences from the left; the separators are dropped.
 */
export function splitOnSeparator(
  source: string,
  start: number,
  end: number,
  separator: Separator,
  keepSeparator: boolean,
): Pieces {
  const starts: number[] = [];
  const ends: number[] = [];
  if (!separator) {
    for (let i = start; i < end; i++) {
      starts.push(i);
      ends.push(i + 1);
    }
    return { starts, ends };
  }
  const sub = source.slice(start, end);
  const len = sub.length;
  if (keepSeparator) {
    let from = 0;
    let at = sub.indexOf(separator, 1);
    while (at !== -1) {
      starts.push(start + from);
      ends.push(start + at);
      from = at;
      at = sub.indexOf(separator, at + 1);
    }
    if (from < len) {
      starts.push(start + from);
      ends.push(start + len);
    }
    return { starts, ends };
  }
  let from = 0;
  let at = sub.indexOf(separator);
  while (at !== -1) {
    if (at > from) {
      starts.push(start + from);
      ends.push(start + at);
    }
    from = at + separator.length;
    at = sub.indexOf(separator, from);
  }
  if (from < len) {
    starts.push(start + from);
    ends.push(start + len);
  }
  return { starts, ends };
}

/** `text.includes(separator)` on a range of the source, without scanning past its end. */
export function rangeIncludes(source: string, start: number, end: number, separator: string): boolean {
  if (separator.length > end - start) return false;
  return source.slice(start, end).includes(separator);
}
