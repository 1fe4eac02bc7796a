import type { StrategyDescription } from '../../registry';

export const paragraph: StrategyDescription<'paragraph'> = {
  id: 'paragraph',
  label: 'Paragraph',
  description: 'Pack whole paragraphs (blank-line separated) up to the size; long ones fall back to sentences, then words.',
  defaults: { size: 512, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'locale', 'headers', 'retrieval'],
  compat: [],
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
