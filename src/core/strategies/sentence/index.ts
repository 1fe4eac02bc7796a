import type { StrategyDescription } from '../../registry';
import { recipes } from './copyAsCode';

export const sentence: StrategyDescription<'sentence'> = {
  id: 'sentence',
  label: 'Sentence',
  description: 'Pack whole sentences (any language, via Intl.Segmenter) up to the size; overlap in whole sentences.',
  defaults: { size: 512, overlap: 64, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'locale', 'headers', 'retrieval'],
  compat: [],
  copyAsCode: recipes,
};
