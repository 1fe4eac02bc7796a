import type { StrategyDescription } from '../../registry';

export const semantic: StrategyDescription<'semantic'> = {
  id: 'semantic',
  label: 'Semantic',
  description: 'Cut where the meaning changes: between sentences whose embeddings are far apart (built-in offline model or a hub model).',
  defaults: { unit: 'chars' },
  controls: ['unit', 'compat', 'locale', 'breakpoint', 'amount', 'chunks', 'buffer', 'minSize', 'maxSize', 'embedder', 'sentences'],
  compat: ['langchain', 'llamaindex'],
  compatNote: "Reproduce LangChain's SemanticChunker or LlamaIndex's SemanticSplitterNodeParser given the same embeddings.",
  // A semantic chunk is as long as its topic: a size that silently did nothing would mislead.
  refuses: {
    size: 'size does not apply to the semantic strategy; use maxSize (--max-size) to cap chunks',
    overlap: 'the semantic strategy has no overlap (its chunks are whole groups of sentences)',
  },
  needsEmbeddings: true,
  unsized: () => true,
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
