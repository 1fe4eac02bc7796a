export interface Bin {
  x0: number;
  x1: number;
  count: number;
}

/**
 * Count values into bins [t[i], t[i+1]) given ascending thresholds (the last bin also takes its upper edge).
 * A plain loop with a binary search over the few edges: for 25,000 chunk sizes this is about a millisecond,
 * where d3-array's generic bin() took tens of milliseconds on the main thread.
 */
export function countBins(values: ArrayLike<number>, thresholds: readonly number[]): Bin[] {
  const k = thresholds.length - 1;
  if (k < 1) return [];
  const counts = new Array<number>(k).fill(0);
  const lo = thresholds[0]!;
  const hi = thresholds[k]!;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!(v >= lo && v <= hi)) continue;
    let a = 0;
    let b = k - 1;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (thresholds[mid]! <= v) a = mid;
      else b = mid - 1;
    }
    counts[a]!++;
  }
  return counts.map((count, i) => ({ x0: thresholds[i]!, x1: thresholds[i + 1]!, count }));
}
