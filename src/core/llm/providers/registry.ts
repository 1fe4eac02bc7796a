import { openaiCompatible } from './openai-compatible/provider';
import { promptApi } from './prompt-api/provider';
import { transformersJs } from './transformers-js/provider';
import { LLM_PROVIDER_NAMES, type LlmProviderName } from './names';
import type { LlmProviderDescriptor } from '../types';

/**
 * The providers, one line each (the first is the default). Adding one: a folder with its provider.ts, a line here,
 * its name in ./names.ts (the page's settings read the names without the providers' code).
 */
export const LLM_PROVIDERS = [
  openaiCompatible,
  promptApi,
  transformersJs,
] as const satisfies readonly LlmProviderDescriptor<LlmProviderName>[];

/** The descriptors' names, in order: the same list as ./names.ts (checked when this file compiles). */
type NamesOf<T> = { readonly [K in keyof T]: T[K] extends { name: infer N } ? N : never };
type RegistryNames = NamesOf<typeof LLM_PROVIDERS>;
type SameList<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const NAMES_MATCH: SameList<RegistryNames, typeof LLM_PROVIDER_NAMES> = true;
void NAMES_MATCH;

export { LLM_PROVIDER_NAMES, type LlmProviderName };

export function getLlmProvider(name: string): LlmProviderDescriptor {
  const found = LLM_PROVIDERS.find((p) => p.name === name);
  if (!found) throw new Error(`unknown LLM provider "${name}"; the providers are ${LLM_PROVIDER_NAMES.join(', ')}`);
  return found;
}
