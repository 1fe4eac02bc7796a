import { loadLangchain } from '../../compat/load';
import { mergeParamsFor, packLevels } from '../../merge';
import type { SplitSpan, StrategyImplementation } from '../../registry';
import { separatorLevels } from '../../segment/separators';

/**
 * Split on ONE separator (the first in the list), then pack the pieces up to the size with overlap. A piece that
 * is larger than the size on its own stays one chunk, flagged oversize (`recursive` cuts such pieces further).
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    if (options.compat === 'langchain') return loadLangchain().then((m) => m.langchainCharacter(text, ctx));
    const first = options.separators.slice(0, 1);
    const levels = separatorLevels(text, first, options.separatorsAreRegex, options.keepSeparator);
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
};
