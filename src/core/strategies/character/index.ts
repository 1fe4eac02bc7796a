import type { StrategyDescription } from '../../registry';

export const character: StrategyDescription<'character'> = {
  id: 'character',
  label: 'Character',
  description: 'Split on one separator (default: a blank line), then pack the pieces up to the size.',
  defaults: { size: 512, overlap: 64, unit: 'chars', separators: ['\n\n'], keepSeparator: 'none' },
  controls: ['size', 'overlap', 'unit', 'separators', 'keepSeparator', 'compat', 'headers', 'retrieval'],
  compat: ['langchain'],
  langchainTextSplitter: true,
  needsSeparators: true,
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
