import { CHONKIE_TOKEN_PROFILE } from '../../compat/chonkie/profile';
import { LLAMAINDEX_TOKEN_PROFILE } from '../../compat/llamaindex/profile';
import type { StrategyDescription } from '../../registry';

export const token: StrategyDescription<'token'> = {
  id: 'token',
  label: 'Token',
  description: 'Windows of N tokens, each starting `overlap` tokens before the previous one ends (LangChain TokenTextSplitter).',
  defaults: { size: 512, overlap: 64, unit: 'cl100k_base' },
  controls: ['size', 'overlap', 'unit', 'compat', 'headers', 'retrieval'],
  compat: ['langchain', 'llamaindex', 'chonkie'],
  compatProfiles: { llamaindex: LLAMAINDEX_TOKEN_PROFILE, chonkie: CHONKIE_TOKEN_PROFILE },
  compatNote: "Reproduce @langchain/textsplitters 1.x, LlamaIndex TS (@llamaindex/core 0.6.23) or @chonkiejs/core 0.0.11 TokenTextSplitter / TokenChunker exactly, quirks included.",
  langchainTextSplitter: true,
  tokenUnitOnly: true,
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
