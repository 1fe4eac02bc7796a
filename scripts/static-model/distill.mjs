// Pure numeric steps that turn GloVe word vectors into the rows of the built-in static model.
// No I/O here, so the steps can be checked on small hand-made matrices.

/** Characters the BertPreTokenizer of @huggingface/tokenizers treats as punctuation (copied as a character class). */
const PUNCTUATION_CLASS = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const WORD_TOKEN = new RegExp(`^[^\\s${PUNCTUATION_CLASS}]+$`, 'u');
const PUNCTUATION_TOKEN = new RegExp(`^[${PUNCTUATION_CLASS}]$`, 'u');

/**
 * True when the tokenizer we ship can ever produce `word` as one token: the pre-tokenizer splits on
 * whitespace and on every punctuation character, and the normalizer lowercases. GloVe entries such as
 * "u.s." or "n't" could never be looked up, so they would only waste rows.
 */
export function isReachableToken(word) {
  if (word !== word.toLowerCase()) return false;
  return WORD_TOKEN.test(word) || PUNCTUATION_TOKEN.test(word);
}

/**
 * Zipf estimate of a word's unigram probability from its 1-based frequency rank:
 * p(r) = (1/r) / H(totalWords), normalized over the whole source vocabulary.
 * Returns rank -> p(rank), with the harmonic number computed once.
 */
export function zipfEstimator(totalWords) {
  let harmonic = 0;
  for (let r = totalWords; r >= 1; r--) harmonic += 1 / r;
  return (rank) => 1 / rank / harmonic;
}

/** Smooth inverse frequency weight (Arora, Liang & Ma 2017): a / (a + p(w)). */
export function sifWeight(probability, a) {
  return a / (a + probability);
}

/**
 * First principal direction (not centred: the "common component" that SIF removes) of the rows,
 * by power iteration on the dim x dim second-moment matrix  M = sum_r rowWeight[r] * x_r x_r^T.
 * With rowWeight = p(w), M is the second moment of the vectors of words as they occur in running
 * text, which is what SIF's component (computed from sentence embeddings) approximates; without
 * rowWeight every vocabulary entry counts once.
 * @param {Float32Array} rows  rowCount * dim values, row-major
 * @param {ArrayLike<number>} [rowWeight]
 */
export function firstPrincipalComponent(rows, rowCount, dim, rowWeight, iterations = 500) {
  const moment = new Float64Array(dim * dim);
  for (let r = 0; r < rowCount; r++) {
    const base = r * dim;
    const weight = rowWeight ? rowWeight[r] : 1;
    if (weight === 0) continue;
    for (let i = 0; i < dim; i++) {
      const xi = rows[base + i] * weight;
      if (xi === 0) continue;
      const mrow = i * dim;
      for (let j = 0; j < dim; j++) moment[mrow + j] += xi * rows[base + j];
    }
  }
  let v = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(dim);
    for (let i = 0; i < dim; i++) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += moment[i * dim + j] * v[j];
      next[i] = s;
    }
    const norm = Math.hypot(...next);
    if (norm === 0) return v;
    for (let i = 0; i < dim; i++) next[i] /= norm;
    let change = 0;
    for (let i = 0; i < dim; i++) change = Math.max(change, Math.abs(next[i] - v[i]));
    v = next;
    if (change < 1e-12) break;
  }
  return v;
}

/** rows[r] -= (rows[r] . u) u for every row, in place; u must be a unit vector. */
export function removeComponent(rows, rowCount, dim, u) {
  for (let r = 0; r < rowCount; r++) {
    const base = r * dim;
    let dot = 0;
    for (let i = 0; i < dim; i++) dot += rows[base + i] * u[i];
    for (let i = 0; i < dim; i++) rows[base + i] -= dot * u[i];
  }
}

/**
 * Symmetric int8 quantization per row: q = round(x / scale), scale = max|x| / 127.
 * A zero row gets scale 0 (so it stays exactly zero).
 */
export function quantizeRows(rows, rowCount, dim) {
  const values = new Int8Array(rowCount * dim);
  const scales = new Float32Array(rowCount);
  for (let r = 0; r < rowCount; r++) {
    const base = r * dim;
    let max = 0;
    for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(rows[base + i]));
    const scale = max / 127;
    scales[r] = scale;
    if (scale === 0) continue;
    for (let i = 0; i < dim; i++) values[base + i] = Math.max(-127, Math.min(127, Math.round(rows[base + i] / scale)));
  }
  return { values, scales };
}
