import type { RetrieverDescriptor } from '../types';

/** BM25 and dense fused by reciprocal rank fusion (./searcher.ts); loaded on first use. */
export const hybrid = {
  name: 'hybrid',
  label: 'Hybrid (RRF)',
  help: 'hybrid (reciprocal rank fusion, k 60)',
  options: ['hybridWeight'],
  needsEmbeddings: true,
  analyzer: true,
  index: async (input) => (await import('./searcher')).hybridSearcher(input),
} as const satisfies RetrieverDescriptor<'hybrid'>;
