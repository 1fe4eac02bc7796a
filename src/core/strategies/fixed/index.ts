import type { StrategyDescription } from '../../registry';
import { recipes } from './copyAsCode';

export const fixed: StrategyDescription<'fixed'> = {
  id: 'fixed',
  label: 'Fixed size',
  description: 'Windows of exactly N units (characters, words or tokens) with overlap, ignoring the text structure.',
  defaults: { size: 512, overlap: 64, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'headers', 'retrieval'],
  compat: [],
  copyAsCode: recipes,
};
