import type { RetrieverDescriptor } from '../types';
import { HYBRID_OPTION_ROWS } from './options';

/** BM25 and dense fused by reciprocal rank fusion (./searcher.ts); loaded on first use. */
export const hybrid = {
  name: 'hybrid',
  label: 'Hybrid (RRF)',
  help: 'hybrid (reciprocal rank fusion, k 60)',
  options: HYBRID_OPTION_ROWS,
  needsEmbeddings: true,
  analyzer: true,
  index: async (input) => (await import('./searcher')).hybridSearcher(input),
} as const satisfies RetrieverDescriptor<'hybrid'>;
