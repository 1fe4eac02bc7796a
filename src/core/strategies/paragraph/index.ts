import type { StrategyDescription } from '../../registry';
import { recipes } from './copyAsCode';

declare module '../../types' {
  /** This strategy's id (see StrategyIds in src/core/types.ts). */
  interface StrategyIds {
    paragraph: true;
  }
}

export const paragraph: StrategyDescription<'paragraph'> = {
  id: 'paragraph',
  label: 'Paragraph',
  description: 'Pack whole paragraphs (blank-line separated) up to the size; long ones fall back to sentences, then words.',
  defaults: { size: 512, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'locale', 'headers', 'retrieval'],
  compat: [],
  copyAsCode: recipes,
};
