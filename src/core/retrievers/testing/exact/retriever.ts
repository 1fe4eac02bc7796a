import type { RowValues } from '../../../types';
import { searcherOf, type RetrieverDescriptor, type RetrieverSettings } from '../../types';
import { EXACT_OPTION_ROWS } from './options';

/**
 * A fixture retriever for the "add a retriever" recipe (./README.md), registered only by
 * ../../addRetriever.test.ts: a text matches when it holds the whole question (case ignored unless its own setting
 * `matchCase`, ./options.ts, says otherwise); earlier texts rank first. Real retrievers load their code lazily in
 * index(); this one is a few lines.
 */
export const exact = {
  name: 'exact',
  label: 'Exact match',
  help: 'exact (the chunks holding the whole question)',
  options: EXACT_OPTION_ROWS,
  needsEmbeddings: false,
  analyzer: false,
  index: async ({ texts, settings }) => {
    const { matchCase } = settings as RetrieverSettings & RowValues<typeof EXACT_OPTION_ROWS>;
    const fold = (s: string) => (matchCase ? s : s.toLowerCase());
    const folded = texts.map(fold);
    return searcherOf(async (question) => {
      const q = fold(question.trim());
      return Float64Array.from(folded, (t, i) => (q !== '' && t.includes(q) ? 1 / (1 + i) : -Infinity));
    });
  },
} as const satisfies RetrieverDescriptor<'exact'>;
