import { mergeParamsFor, packLevels } from '../merge';
import type { SplitSpan, StrategyDefinition } from '../registry';
import { graphemes } from '../segment/graphemes';
import { paragraphs } from '../segment/paragraphs';
import { sentences } from '../segment/sentences';
import { words } from '../segment/words';

/**
 * Paragraphs (separated by blank lines, in \n, \r\n or \r text) packed up to the size; overlap is whole
 * paragraphs. A paragraph larger than the size is cut at sentences, then words, then grapheme clusters.
 */
export const paragraphStrategy: StrategyDefinition = {
  id: 'paragraph',
  label: 'Paragraph',
  description: 'Pack whole paragraphs (blank-line separated) up to the size; long ones fall back to sentences, then words.',
  defaults: { size: 512, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'locale', 'headers', 'retrieval'],
  compat: [],
  split(text, ctx) {
    const { options } = ctx;
    const levels = [
      (s: number, e: number) => paragraphs(text, s, e),
      (s: number, e: number) => sentences(text, s, e, options.locale),
      (s: number, e: number) => words(text, s, e),
      (s: number, e: number) => graphemes(text, s, e),
    ];
    const out: SplitSpan[] = [];
    packLevels(text, 0, text.length, levels, mergeParamsFor(text, ctx), out);
    return out;
  },
};
