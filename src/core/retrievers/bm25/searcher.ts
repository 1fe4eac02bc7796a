import { searcherOf, type LeafSearcher, type RetrieverInput } from '../types';
import { terms, vocabularyOf } from '../tokenize';
import { Bm25Index, BM25_DEFAULTS } from './okapi';

/** BM25's scores: texts sharing no term with the question are not matched (-Infinity). */
export function bm25Searcher({ termIds, settings }: RetrieverInput): LeafSearcher {
  const index = new Bm25Index({ termIds: termIds(), vocabulary: vocabularyOf(settings) }, settings, settings.bm25 ?? BM25_DEFAULTS);
  let scratch: Float64Array | null = null;
  return searcherOf(async (question, { reuse = false } = {}) => {
    if (reuse && scratch?.length !== index.size) scratch = new Float64Array(index.size);
    // The scores themselves, unmatched texts turned to -Infinity in place.
    const scores = index.scores(terms(question, settings), reuse ? scratch! : undefined);
    for (let i = 0; i < scores.length; i++) if (!(scores[i]! > 0)) scores[i] = -Infinity;
    return scores;
  });
}
