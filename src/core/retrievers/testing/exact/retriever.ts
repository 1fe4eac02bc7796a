import { searcherOf, type RetrieverDescriptor } from '../../types';

/**
 * A fixture retriever for the "add a retriever" recipe (./README.md), registered only by
 * ../../addRetriever.test.ts: a text matches when it holds the whole question (case ignored); earlier texts rank
 * first. Real retrievers load their code lazily in index(); this one is a few lines.
 */
export const exact = {
  name: 'exact',
  label: 'Exact match',
  help: 'exact (the chunks holding the whole question)',
  options: [],
  needsEmbeddings: false,
  analyzer: false,
  index: async ({ texts }) => {
    const lower = texts.map((t) => t.toLowerCase());
    return searcherOf(async (question) => {
      const q = question.trim().toLowerCase();
      return Float64Array.from(lower, (t, i) => (q !== '' && t.includes(q) ? 1 / (1 + i) : -Infinity));
    });
  },
} as const satisfies RetrieverDescriptor<'exact'>;
