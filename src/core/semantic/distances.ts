import { dot } from '../vectors';
import { npSum } from './numpy';

/** An embedding: any array of numbers (number[], Float32Array from a model, ...). */
export type Vector = ArrayLike<number>;

/**
 * What a similarity that cannot be computed (a zero vector) becomes: 'nan' leaves the gap without a distance
 * (LlamaIndex's numpy division gives nan; native: no information, so no cut there); 'zero-similarity' makes the
 * distance 1, as LangChain's numpy cosine_similarity replaces nan and inf similarities by 0 (the newest
 * langchain_core raises instead when every similarity of the call is nan, which for SemanticChunker's one-pair
 * calls means any zero vector; with simsimd installed it computes in float32).
 */
export type DegenerateCosine = 'nan' | 'zero-similarity';

/**
 * d[i] = 1 − cos(e_i, e_{i+1}) for each gap between consecutive sentences (length n − 1). A sentence whose window
 * was blank (textOfSentence −1) has no embedding: the gaps on both its sides are NaN, which never cut and are
 * left out of every statistic.
 */
export function cosineDistances(
  embeddings: readonly Vector[],
  textOfSentence: Int32Array,
  degenerate: DegenerateCosine = 'nan',
): Float64Array {
  const n = textOfSentence.length;
  // Each norm once, when a gap first needs it (NaN: not yet): most come out of the same pass as a dot product.
  const norms = new Float64Array(embeddings.length).fill(NaN);
  const out = new Float64Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) {
    const a = textOfSentence[i]!;
    const b = textOfSentence[i + 1]!;
    if (a < 0 || b < 0) {
      out[i] = NaN;
      continue;
    }
    const ea = embeddings[a];
    const eb = embeddings[b];
    if (!ea || !eb) throw new Error(`missing embedding for sentence ${ea ? i + 1 : i}`);
    if (Number.isNaN(norms[a]!)) norms[a] = norm(ea);
    // core's dot runs left to right; numpy's np.dot goes through BLAS, whose order (and fused multiply-adds) depend
    // on the machine, so a distance can differ from LangChain's or LlamaIndex's in the last bit; everything after the
    // distances (percentiles, mean, std, gradient) is reproduced exactly (numpy.ts).
    let product: number;
    if (Number.isNaN(norms[b]!) && canFuse(ea, eb)) {
      product = dotAndNorm(ea, eb);
      norms[b] = fusedNorm;
    } else {
      if (Number.isNaN(norms[b]!)) norms[b] = norm(eb);
      product = dot(ea, eb);
    }
    let similarity = product / (norms[a]! * norms[b]!);
    if (!Number.isFinite(similarity) && degenerate === 'zero-similarity') similarity = 0;
    out[i] = 1 - similarity;
  }
  return out;
}

/** dotAndNorm applies: the same length, an embedding's (8 to 128 values: numpy's eight running sums, no buffer). */
function canFuse(a: Vector, b: Vector): boolean {
  return a.length === b.length && b.length >= 8 && b.length <= 128;
}

/** The norm dotAndNorm computed (a module variable: no object per call). */
let fusedNorm = NaN;

/**
 * dot(a, b), and norm(b) into fusedNorm, in one pass over b: the same products and additions in the same order as
 * the two functions, so the same bits (sentences.test.ts checks the distances against numpy's order).
 */
function dotAndNorm(a: Vector, b: Vector): number {
  const n = b.length;
  let d = 0;
  let r0 = b[0]! * b[0]!, r1 = b[1]! * b[1]!, r2 = b[2]! * b[2]!, r3 = b[3]! * b[3]!;
  let r4 = b[4]! * b[4]!, r5 = b[5]! * b[5]!, r6 = b[6]! * b[6]!, r7 = b[7]! * b[7]!;
  for (let k = 0; k < 8; k++) d += a[k]! * b[k]!;
  const whole = n - (n % 8);
  let i = 8;
  for (; i < whole; i += 8) {
    d += a[i]! * b[i]!;
    d += a[i + 1]! * b[i + 1]!;
    d += a[i + 2]! * b[i + 2]!;
    d += a[i + 3]! * b[i + 3]!;
    d += a[i + 4]! * b[i + 4]!;
    d += a[i + 5]! * b[i + 5]!;
    d += a[i + 6]! * b[i + 6]!;
    d += a[i + 7]! * b[i + 7]!;
    r0 += b[i]! * b[i]!;
    r1 += b[i + 1]! * b[i + 1]!;
    r2 += b[i + 2]! * b[i + 2]!;
    r3 += b[i + 3]! * b[i + 3]!;
    r4 += b[i + 4]! * b[i + 4]!;
    r5 += b[i + 5]! * b[i + 5]!;
    r6 += b[i + 6]! * b[i + 6]!;
    r7 += b[i + 7]! * b[i + 7]!;
  }
  let res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
  for (; i < n; i++) {
    d += a[i]! * b[i]!;
    res += b[i]! * b[i]!;
  }
  fusedNorm = Math.sqrt(0 + res);
  return d;
}

/** Squares of a vector longer than 128 values (one buffer for all: no allocation per vector). */
let squares = new Float64Array(0);

/**
 * The Euclidean norm with numpy's pairwise sum of squares (np.linalg.norm over an axis). Up to 128 values (an
 * embedding) numpy adds them in eight running sums; this squares them in the same loop instead of writing them out
 * first (the same products and additions, so the same bits), which halved the time of a document's distances.
 */
function norm(v: Vector): number {
  const n = v.length;
  if (n > 128) {
    if (squares.length < n) squares = new Float64Array(n);
    for (let i = 0; i < n; i++) squares[i] = v[i]! * v[i]!;
    return Math.sqrt(npSum(squares, 0, n));
  }
  // numpy's eight running sums (embeddings): what dotAndNorm computes for b; below eight, one running sum.
  if (n >= 8) {
    dotAndNorm(v, v);
    return fusedNorm;
  }
  let res = 0;
  for (let i = 0; i < n; i++) res += v[i]! * v[i]!;
  return Math.sqrt(0 + res);
}
