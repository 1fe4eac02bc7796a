import { CHONKIE_SENTENCE_PROFILE } from '../../compat/chonkie/profile';
import { LLAMAINDEX_SENTENCE_PROFILE } from '../../compat/llamaindex/profile';
import type { StrategyDescription } from '../../registry';

export const sentence: StrategyDescription<'sentence'> = {
  id: 'sentence',
  label: 'Sentence',
  description: 'Pack whole sentences (any language, via Intl.Segmenter) up to the size; overlap in whole sentences.',
  defaults: { size: 512, overlap: 64, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'locale', 'compat', 'headers', 'retrieval'],
  compat: ['llamaindex', 'chonkie'],
  compatProfiles: { llamaindex: LLAMAINDEX_SENTENCE_PROFILE, chonkie: CHONKIE_SENTENCE_PROFILE },
  compatNote:
    "Reproduce LlamaIndex TS's SentenceSplitter (@llamaindex/core 0.6.23; with sentence windows or hierarchical levels, its SentenceWindowNodeParser or HierarchicalNodeParser) or @chonkiejs/core 0.0.11's SentenceChunker exactly, quirks included.",
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
