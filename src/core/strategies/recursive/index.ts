import { CHONKIE_RECURSIVE_PROFILE } from '../../compat/chonkie/profile';
import type { StrategyDescription } from '../../registry';

/** Blank line, line, space, character. */
export const DEFAULT_RECURSIVE_SEPARATORS = ['\n\n', '\n', ' ', ''];

export const recursive: StrategyDescription<'recursive'> = {
  id: 'recursive',
  label: 'Recursive',
  description: 'Cut at the coarsest separator that works (paragraphs, lines, words, characters) and pack up to the size.',
  defaults: { size: 512, overlap: 64, unit: 'chars', separators: DEFAULT_RECURSIVE_SEPARATORS, keepSeparator: 'start' },
  controls: ['size', 'overlap', 'unit', 'separators', 'keepSeparator', 'language', 'compat', 'headers', 'retrieval'],
  compat: ['langchain', 'chonkie'],
  compatProfiles: { chonkie: CHONKIE_RECURSIVE_PROFILE },
  compatNote: "Reproduce @langchain/textsplitters 1.x (RecursiveCharacterTextSplitter) or @chonkiejs/core 0.0.11 (RecursiveChunker) exactly, quirks included.",
  langchainTextSplitter: true,
  separatorHierarchy: true,
  needsSeparators: true,
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
