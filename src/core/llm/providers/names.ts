/**
 * The providers' names, in the registry's order (the first is the default). The page checks a stored or linked
 * provider name against them before its first paint, without the providers' code: ./registry.ts, which imports the
 * providers, does not compile when its descriptors' names differ from these (one missing, one more, another order).
 */
export const LLM_PROVIDER_NAMES = ['openai-compatible', 'prompt-api', 'transformers-js'] as const;

export type LlmProviderName = (typeof LLM_PROVIDER_NAMES)[number];
