/** Test helpers: embeddings that give chosen distances, and a toy deterministic embedder. */

/**
 * Unit 2-D vectors whose consecutive cosine distances are `distances` (each in [0, 2]): every vector is the
 * previous one turned by acos(1 − d). Computed distances equal the wanted ones to about 1e-15.
 */
export function vectorsWithDistances(distances: readonly number[]): number[][] {
  let angle = 0;
  const out = [[1, 0]];
  for (const d of distances) {
    angle += Math.acos(1 - d);
    out.push([Math.cos(angle), Math.sin(angle)]);
  }
  return out;
}

const TOPIC_WORDS = ['alpha', 'beta', 'gamma', 'delta'];

/** A bag-of-words toy embedder: one dimension per topic word (zero vector when none occurs). */
export function topicEmbedding(text: string): number[] {
  const v = TOPIC_WORDS.map(() => 0);
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const k = TOPIC_WORDS.indexOf(word);
    if (k >= 0) v[k]! += 1;
  }
  return v;
}
