import { boundaries } from './boundaries/feature';
import { contextual } from './contextual/feature';
import { propositions } from './propositions/feature';
import { summaries } from './summaries/feature';
import type { FeatureDescriptor } from '../feature';

/** The LLM features, one line each. Adding one: a folder with its feature.ts (./../feature.ts), a line here. */
export const LLM_FEATURES = [
  contextual,
  propositions,
  boundaries,
  summaries,
] as const satisfies readonly FeatureDescriptor[];

export type LlmFeatureName = (typeof LLM_FEATURES)[number]['name'];
export const LLM_FEATURE_NAMES = LLM_FEATURES.map((f) => f.name) as readonly LlmFeatureName[];

export function getLlmFeature(name: string): FeatureDescriptor {
  const found = LLM_FEATURES.find((f) => f.name === name);
  if (!found) throw new Error(`unknown LLM feature "${name}"; the features are ${LLM_FEATURE_NAMES.join(', ')}`);
  return found;
}
