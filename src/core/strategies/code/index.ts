import type { StrategyDescription } from '../../registry';
import { CODE_LANGUAGE_NAMES, detectCodeLanguage, resolveCodeLanguage } from './languages';

export const code: StrategyDescription<'code'> = {
  id: 'code',
  label: 'Code',
  description: 'Split source code at its syntax (tree-sitter): functions and classes stay whole; content starts with the file path and enclosing signatures.',
  defaults: { size: 1500, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'language', 'path', 'headers', 'retrieval'],
  hasSections: true,
  outsideSectionsLabel: '(top level)',
  documentFormats: ['code'],
  compat: [],
  // The language is a tree-sitter grammar (aliases such as py, ts accepted); without one the path's extension decides.
  language: {
    resolve: resolveCodeLanguage,
    names: CODE_LANGUAGE_NAMES,
    noun: 'code language',
    detect: (options) => detectCodeLanguage(options.path ?? ''),
  },
  // Sentences of source code would be cut through statements.
  refusesRetrieval: { window: 'sentence windows need prose: use parent-child or hierarchical units with the code strategy' },
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
