import { openaiCompatible } from './openai-compatible/provider';
import { promptApi } from './prompt-api/provider';
import { transformersJs } from './transformers-js/provider';
import type { LlmProviderDescriptor } from '../types';

/** The providers, one line each (the first is the default). Adding one: a folder with its provider.ts, a line here. */
export const LLM_PROVIDERS = [
  openaiCompatible,
  promptApi,
  transformersJs,
] as const satisfies readonly LlmProviderDescriptor[];

export type LlmProviderName = (typeof LLM_PROVIDERS)[number]['name'];
export const LLM_PROVIDER_NAMES = LLM_PROVIDERS.map((p) => p.name) as readonly LlmProviderName[];

export function getLlmProvider(name: string): LlmProviderDescriptor {
  const found = LLM_PROVIDERS.find((p) => p.name === name);
  if (!found) throw new Error(`unknown LLM provider "${name}"; the providers are ${LLM_PROVIDER_NAMES.join(', ')}`);
  return found;
}
