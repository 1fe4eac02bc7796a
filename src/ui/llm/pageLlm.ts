import { LlmController } from '../../state/llmController';
import { IdbLlmCache } from '../../state/llmIdbCache';
import { useStore } from '../../state/store';

/** The page's one LLM controller (answers cached in IndexedDB), made on first use. */
let controller: LlmController | null = null;

export function pageLlm(): LlmController {
  controller ??= new LlmController({ store: useStore, cache: new IdbLlmCache() });
  return controller;
}
