import { loadChonkie, loadLlamaindex } from '../../compat/load';
import { cutFilterFor, mergeParamsFor, packLevels } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import { graphemeLevel } from '../../segment/separators';
import { sentenceSplitter } from '../../segment/sentences';
import { words } from '../../segment/words';

/**
 * Whole sentences (Intl.Segmenter with the chosen locale) packed up to the size; overlap is whole sentences.
 * A sentence larger than the size on its own is cut at words, then at grapheme clusters.
 * Compat mode `llamaindex`: LlamaIndex TS's SentenceSplitter (src/core/compat/llamaindex).
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    if (options.compat === 'chonkie') return loadChonkie().then((m) => m.chonkieSentence(text, ctx));
    if (options.compat === 'llamaindex') return loadLlamaindex().then((m) => m.llamaindexSentenceSplitter(text, ctx));
    const levels = [
      sentenceSplitter(text, options.locale),
      (s: number, e: number) => words(text, s, e),
      // Token units cut a long run without spaces between its tokens only, as recursive does.
      graphemeLevel(text, cutFilterFor(text, ctx.unit)),
    ];
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
  // LlamaIndex's SentenceWindowNodeParser and HierarchicalNodeParser (the profile's `retrieval`).
  compatUnits: (text, ctx) => loadLlamaindex().then((m) => m.llamaindexRetrievalUnits(text, ctx)),
};
