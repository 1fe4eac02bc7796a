import type { StrategyDescription } from '../../registry';
import { CHONKIE_FAST_PROFILE } from '../../compat/chonkie/profile';

export const fixed: StrategyDescription<'fixed'> = {
  id: 'fixed',
  label: 'Fixed size',
  description: 'Windows of exactly N units (characters, words, UTF-8 bytes or tokens) with overlap, ignoring the text structure.',
  defaults: { size: 512, overlap: 64, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'compat', 'headers', 'retrieval'],
  compat: ['chonkie'],
  compatProfiles: { chonkie: CHONKIE_FAST_PROFILE },
  compatNote: 'Reproduce @chonkiejs/core 0.0.11 (FastChunker: UTF-8 byte windows cut after the last newline, period or question mark) exactly.',
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
