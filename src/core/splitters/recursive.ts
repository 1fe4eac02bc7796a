import { mergeParamsFor, packLevels } from '../merge';
import type { SplitSpan, StrategyDefinition } from '../registry';
import { separatorLevels } from '../segment/separators';

export const DEFAULT_RECURSIVE_SEPARATORS = ['\n\n', '\n', ' ', ''];

/**
 * A separator hierarchy, coarsest first (default: blank line, line, space, character; or a language preset): the
 * text is cut at the first separator, pieces that fit are packed with overlap, and a piece too large is cut again
 * at the next separator. "" cuts between grapheme clusters. Without "" in the list a piece that no separator can
 * cut stays one chunk, flagged oversize.
 */
export const recursiveStrategy: StrategyDefinition = {
  id: 'recursive',
  label: 'Recursive',
  description: 'Cut at the coarsest separator that works (paragraphs, lines, words, characters) and pack up to the size.',
  defaults: { size: 512, overlap: 64, unit: 'chars', separators: DEFAULT_RECURSIVE_SEPARATORS, keepSeparator: 'start' },
  controls: ['size', 'overlap', 'unit', 'separators', 'keepSeparator', 'language', 'compat', 'headers', 'retrieval'],
  compat: ['langchain'],
  split(text, ctx) {
    const { options } = ctx;
    const levels = separatorLevels(text, options.separators, options.separatorsAreRegex, options.keepSeparator);
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
};
