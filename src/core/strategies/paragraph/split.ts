import { cutFilterFor, mergeParamsFor, packLevels } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import { graphemeLevel } from '../../segment/separators';
import { paragraphs } from '../../segment/paragraphs';
import { sentenceSplitter } from '../../segment/sentences';
import { words } from '../../segment/words';

/**
 * Paragraphs (separated by blank lines, in \n, \r\n or \r text) packed up to the size; overlap is whole
 * paragraphs. A paragraph larger than the size is cut at sentences, then words, then grapheme clusters.
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    const levels = [
      (s: number, e: number) => paragraphs(text, s, e),
      sentenceSplitter(text, options.locale),
      (s: number, e: number) => words(text, s, e),
      // Token units cut a long run without spaces between its tokens only, as recursive does.
      graphemeLevel(text, cutFilterFor(text, ctx.unit)),
    ];
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
};
