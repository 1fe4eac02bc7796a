/**
 * Binary searches over ascending numbers (offsets, piece ends, boundaries): the one pair the engine, the worker and
 * the page use.
 */

/** First index i with a[i] >= x (a.length when none). */
export function lowerBound(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i with a[i] > x (a.length when none). */
export function upperBound(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the ascending array holds x. */
export function sortedIncludes(a: ArrayLike<number>, x: number): boolean {
  const i = lowerBound(a, x);
  return i < a.length && a[i] === x;
}
