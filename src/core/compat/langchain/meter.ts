import type { Unit } from '../../types';

/**
 * LangChain's `lengthFunction`, on source ranges. LangChain measures the same piece several times (once to
 * decide whether it needs splitting, again in mergeSplits, again when dropping it from the overlap) and measures
 * everything again when a slider moves. Here a piece is measured once per document: the count of a range of a
 * given document never changes, so it is remembered by (start, end) for the last document seen with each unit.
 */
export interface Meter {
  length(start: number, end: number): number;
}

interface DocumentCounts {
  source: string;
  counts: Map<number, number>;
}

/** Bound on remembered ranges per unit; past it the memo starts over (a pathological document, not a leak). */
const MAX_REMEMBERED = 4_000_000;

const lastDocumentByUnit = new WeakMap<Unit, DocumentCounts>();

export function meterFor(source: string, unit: Unit): Meter {
  // LangChain's default length function is `text.length` (UTF-16 units): no need to look at the text at all.
  if (unit.name === 'chars') return { length: (start, end) => end - start };

  let memo = lastDocumentByUnit.get(unit);
  if (!memo || memo.source !== source) {
    memo = { source, counts: new Map() };
    lastDocumentByUnit.set(unit, memo);
  }
  const counts = memo.counts;
  const stride = source.length + 1;
  return {
    length(start, end) {
      const key = start * stride + end;
      let n = counts.get(key);
      if (n === undefined) {
        n = unit.count(source.slice(start, end));
        if (counts.size >= MAX_REMEMBERED) counts.clear();
        counts.set(key, n);
      }
      return n;
    },
  };
}
