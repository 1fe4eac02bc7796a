import type { RetrieverDescriptor } from '../types';

/** Okapi BM25 over the analyzer's terms (./okapi.ts); loaded on first use. */
export const bm25 = {
  name: 'bm25',
  label: 'BM25',
  help: 'bm25 (Okapi, k1 1.2, b 0.75)',
  options: [],
  needsEmbeddings: false,
  analyzer: true,
  index: async (input) => (await import('./searcher')).bm25Searcher(input),
} as const satisfies RetrieverDescriptor<'bm25'>;
