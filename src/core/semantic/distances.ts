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
  const norms = Float64Array.from(embeddings, norm);
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
    // core's dot runs left to right; numpy's np.dot goes through BLAS, whose order (and fused multiply-adds) depend
    // on the machine, so a distance can differ from LangChain's or LlamaIndex's in the last bit; everything after the
    // distances (percentiles, mean, std, gradient) is reproduced exactly (numpy.ts).
    let similarity = dot(ea, eb) / (norms[a]! * norms[b]!);
    if (!Number.isFinite(similarity) && degenerate === 'zero-similarity') similarity = 0;
    out[i] = 1 - similarity;
  }
  return out;
}

/** Squares of the vector being normed (one buffer for all: no allocation per vector). */
let squares = new Float64Array(0);

/** The Euclidean norm with numpy's pairwise sum of squares (np.linalg.norm over an axis). */
function norm(v: Vector): number {
  if (squares.length < v.length) squares = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) squares[i] = v[i]! * v[i]!;
  return Math.sqrt(npSum(squares, 0, v.length));
}
