/**
 * What a feature is: a pure description of the requests it needs over (source, base chunks) and of the chunks it
 * builds from the answers. The runner (./run.ts) sends the requests (cache, policy, concurrency) or only counts
 * them (the estimate); a feature never sends anything itself, so each is testable without a server and the dry run
 * needs no special path.
 */
import type { Chunk, Range, ResolvedOptions, Unit } from '../types';
import type { PromptTemplate } from './templates';
import type { LlmError, LlmErrorKind } from './types';

/** One request a feature needs: `id` is the feature's own name for it (a chunk index, "document", ...). */
export interface FeatureRequest {
  id: string;
  template: PromptTemplate;
  /** The template's placeholders. */
  values: Record<string, string>;
  /** The answer's JSON schema (structured output; also how the answer is checked). */
  schema: Record<string, unknown>;
  /** The answer's expected size in tokens, for the estimate. */
  expectedOutputTokens: number;
  maxTokens?: number;
  /** Checks the parsed JSON and returns the value the feature builds from; throws an LlmError (invalid-json) if not. */
  read(json: unknown): unknown;
}

/** What the feature receives: the source, the base strategy's chunks, the resolved options and their unit. */
export interface FeatureInput {
  source: string;
  chunks: readonly Chunk[];
  options: ResolvedOptions;
  unit: Unit;
  settings: FeatureSettings;
  templates?: Partial<Record<string, PromptTemplate>>;
}

/** Per-feature knobs (each feature reads its own). */
export interface FeatureSettings {
  /** contextual: the most characters of the document put in one prompt; beyond it, the section around the chunk. */
  contextBudget?: number;
  /** summaries: also one summary per top-level section (markdown/html headings). */
  sectionSummaries?: boolean;
  /** boundaries: number sentences or paragraphs. */
  pieces?: 'sentences' | 'paragraphs';
}

/** A request's outcome: the value `read` returned, or the error. */
export type Answers = ReadonlyMap<string, { value: unknown } | { error: LlmError }>;

/** One failure, on its chunk or passage: the request, the source span it concerns, the kind and the one-line reason. */
export interface FeatureFailure {
  request: string;
  span?: Range;
  kind: LlmErrorKind | 'unsupported-proposition' | 'repaired-ids';
  reason: string;
}

export interface FeatureResult {
  chunks: Chunk[];
  failures: FeatureFailure[];
  /** Counts the feature reports (boundaries: ids repaired; propositions: by support status). */
  counts: Record<string, number>;
}

export interface FeatureDescriptor<Name extends string = string> {
  name: Name;
  label: string;
  help: string;
  /** Whether the base strategy's chunks are the input (contextual, propositions) or only the source (boundaries). */
  usesBaseChunks: boolean;
  requests(input: FeatureInput): FeatureRequest[];
  /** Builds the chunks; async only because a feature may re-split through the engine (boundaries). */
  build(input: FeatureInput, answers: Answers): Promise<FeatureResult>;
}

/** The answer value of request `id`, or undefined with the failure recorded. */
export function answerOf<T>(answers: Answers, id: string, failures: FeatureFailure[], span?: Range): T | undefined {
  const answer = answers.get(id);
  if (!answer) return undefined;
  if ('error' in answer) {
    failures.push({ request: id, ...(span ? { span } : {}), kind: answer.error.kind, reason: answer.error.message });
    return undefined;
  }
  return answer.value as T;
}

/** A derived chunk's id: the feature, the document and what makes it unique. */
export { hashString } from '../ids';
