import { bm25Searcher } from '../bm25/searcher';
import { denseSearcher } from '../dense/searcher';
import type { RowValues } from '../../types';
import { searcherOf, topOfScores, type LeafSearcher, type RetrieverInput, type RetrieverSettings } from '../types';
import type { HYBRID_OPTION_ROWS } from './options';
import { reciprocalRankFusion, RRF_K } from './fusion';

/**
 * The dense and BM25 rankings fused (weights w and 1 − w, settings.hybridWeight): a text either ranking holds is
 * matched at its fused score.
 */
export async function hybridSearcher(input: RetrieverInput): Promise<LeafSearcher> {
  const lexical = bm25Searcher(input);
  const dense = await denseSearcher(input);
  // Its own row (./options.ts), validated before it gets here.
  const { hybridWeight: w } = input.settings as RetrieverSettings & RowValues<typeof HYBRID_OPTION_ROWS>;
  return searcherOf(async (question) => {
    const lexicalRanking = topOfScores(await lexical.scores(question), Infinity);
    const denseRanking = await dense.ranking(question);
    const out = new Float64Array(input.texts.length).fill(-Infinity);
    const fused = reciprocalRankFusion(
      [
        { ranking: denseRanking, weight: w },
        { ranking: lexicalRanking, weight: 1 - w },
      ],
      RRF_K,
    );
    for (const f of fused) if (f.score > 0) out[f.index] = f.score;
    return out;
  });
}
