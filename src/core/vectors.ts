/**
 * The one dot product and cosine similarity of the project: semantic distances (core/semantic), dense retrieval
 * (core/retrievers), late chunking (embed/late.ts) and the embedding worker's query comparison all use these.
 * Sums run left to right in double precision (what the differential tests against numpy's float64 reproduce).
 */

/** Sum of products, left to right, in double precision; vectors of different dimensions are an error. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Cosine similarity: dot(a, b) / √(dot(a, a) · dot(b, b)); NaN when either vector has no direction (all zeros: a
 * chunk without a known word), so a display can say "no similarity" rather than a made-up 0 (a ranking that needs a
 * number maps NaN to what suits it). Not clamped: rounding may put parallel vectors a hair past 1, as before.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  // One pass for the three sums (dense retrieval ranks every chunk with this): each sum runs left to right, so the
  // result is the same as dot(a, b) / √(dot(a, a) · dot(b, b)) to the last bit.
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  const denominator = Math.sqrt(aa * bb);
  if (!(denominator > 0)) return NaN;
  return ab / denominator;
}
