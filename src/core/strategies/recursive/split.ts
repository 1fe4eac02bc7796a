import { loadChonkie, loadLangchain } from '../../compat/load';
import { cutFilterFor, mergeParamsFor, packLevels } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import { separatorLevels } from '../../segment/separators';

/**
 * A separator hierarchy, coarsest first (default: blank line, line, space, character; or a language preset): the
 * text is cut at the first separator, pieces that fit are packed with overlap, and a piece too large is cut again
 * at the next separator. "" cuts between grapheme clusters. Without "" in the list a piece that no separator can
 * cut stays one chunk, flagged oversize. With a token unit, a long run without spaces (a giant pre-token piece) is
 * cut only between its tokens, so counting its chunks needs no re-encoding (quadratic otherwise).
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    if (options.compat === 'langchain') return loadLangchain().then((m) => m.langchainRecursive(text, ctx));
    if (options.compat === 'chonkie') return loadChonkie().then((m) => m.chonkieRecursive(text, ctx));
    const levels = separatorLevels(text, options.separators, options.separatorsAreRegex, options.keepSeparator, cutFilterFor(text, ctx.unit));
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
};
