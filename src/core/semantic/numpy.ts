/**
 * The few numpy routines the reference semantic splitters use, reproduced to the bit for float64 input so a compat
 * run cuts at exactly the same gaps (thresholds are compared with a strict `>`, so a last-bit difference would move
 * a boundary on ties). Checked against numpy 2.4 while writing (see numpy.test.ts for the values).
 */

/** numpy's pairwise summation (add.reduce on a contiguous float64 array): exact order of the additions. */
export function npSum(values: ArrayLike<number>, from = 0, to = values.length): number {
  return 0 + pairwise(values, from, to - from);
}

function pairwise(a: ArrayLike<number>, at: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[at + i]!;
    return res;
  }
  if (n <= 128) {
    // Eight running sums, as numpy's unrolled loop (locals, not an array: no allocation per call).
    let r0 = a[at]!, r1 = a[at + 1]!, r2 = a[at + 2]!, r3 = a[at + 3]!;
    let r4 = a[at + 4]!, r5 = a[at + 5]!, r6 = a[at + 6]!, r7 = a[at + 7]!;
    let i = 8;
    const whole = n - (n % 8);
    for (; i < whole; i += 8) {
      const k = at + i;
      r0 += a[k]!;
      r1 += a[k + 1]!;
      r2 += a[k + 2]!;
      r3 += a[k + 3]!;
      r4 += a[k + 4]!;
      r5 += a[k + 5]!;
      r6 += a[k + 6]!;
      r7 += a[k + 7]!;
    }
    let res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < n; i++) res += a[at + i]!;
    return res;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwise(a, at, half) + pairwise(a, at + half, n - half);
}

/** np.mean: the pairwise sum divided by the count. NaN for an empty array (numpy warns and returns nan). */
export function npMean(values: ArrayLike<number>): number {
  return npSum(values) / values.length;
}

/** np.std with ddof 0 (population): sqrt(mean((x - mean)²)), in numpy's order of operations. */
export function npStd(values: ArrayLike<number>): number {
  const n = values.length;
  const mean = npMean(values);
  const squares = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = values[i]! - mean;
    squares[i] = x * x;
  }
  return Math.sqrt(npSum(squares) / n);
}

/**
 * np.percentile(values, p) with the default 'linear' method, on values already sorted ascending:
 * virtual index (n − 1)·p/100, then numpy's _lerp, which interpolates from the upper neighbour when the fraction is
 * at least 0.5 (b − (b − a)·(1 − t)), not from the lower one.
 */
export function npPercentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const q = p / 100;
  const virtual = (n - 1) * q;
  if (virtual >= n - 1) return sorted[n - 1]!;
  if (virtual < 0) return sorted[0]!;
  const below = Math.floor(virtual);
  const t = virtual - below;
  const a = sorted[below]!;
  const b = sorted[below + 1]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** np.percentile on unsorted values (sorts a copy). */
export function npPercentile(values: ArrayLike<number>, p: number): number {
  return npPercentileSorted(sortedCopy(values), p);
}

/** Ascending Float64Array copy. */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  const out = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  out.sort();
  return out;
}

/**
 * np.gradient(f, range(len(f))) (unit spacing, edge_order 1): central differences (f[i+1] − f[i−1]) / 2 inside,
 * one-sided differences at the two ends. numpy refuses fewer than 2 values; so does this (returns an empty array).
 */
export function npGradient(f: ArrayLike<number>): Float64Array {
  const n = f.length;
  const out = new Float64Array(n < 2 ? 0 : n);
  if (n < 2) return out;
  for (let i = 1; i < n - 1; i++) out[i] = (f[i + 1]! - f[i - 1]!) / 2;
  out[0] = f[1]! - f[0]!;
  out[n - 1] = f[n - 1]! - f[n - 2]!;
  return out;
}
