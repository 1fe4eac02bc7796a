/** The LLM layer: providers, the request policy, the cache, prompt templates, features and the runner. */
export * from './types';
export { firstJsonValue } from './json';
export { Limiter, sendWithPolicy, type RequestPolicy } from './policy';
export { cacheKey, MemoryCache, type CacheKeyParts, type LlmCache } from './cache';
export { DEFAULT_TEMPLATES, fillTemplate, templateFor, type PromptTemplate, type TemplateId } from './templates';
export { alignProposition, FUZZY_THRESHOLD, type Alignment, type SupportStatus } from './align';
export type { FeatureDescriptor, FeatureFailure, FeatureInput, FeatureRequest, FeatureResult, FeatureSettings } from './feature';
export { LLM_FEATURES, LLM_FEATURE_NAMES, getLlmFeature, type LlmFeatureName } from './features/registry';
export { LLM_PROVIDERS, LLM_PROVIDER_NAMES, getLlmProvider, type LlmProviderName } from './providers/registry';
export { repairBoundaryIds, candidatePieces } from './features/boundaries/feature';
export { contextWindow, DEFAULT_CONTEXT_BUDGET } from './features/contextual/feature';
export { summarySpans } from './features/summaries/feature';
export { createAsker, type AskCounts, type AskOptions, type AskRequest, type Asker } from './ask';
export { estimateLlmRun, runLlmFeature, type LlmEstimate, type LlmOptions, type LlmRunReport } from './run';
