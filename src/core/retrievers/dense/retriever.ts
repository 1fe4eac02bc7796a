import type { RetrieverDescriptor } from '../types';

/** Cosine similarity of the embedder's vectors (./embeddings.ts); loaded on first use. */
export const dense = {
  name: 'dense',
  label: 'Dense (embedder)',
  help: "dense (cosine over the --embedder's embeddings of chunk content)",
  options: [],
  needsEmbeddings: true,
  analyzer: false,
  index: async (input) => (await import('./searcher')).denseSearcher(input),
} as const satisfies RetrieverDescriptor<'dense'>;
