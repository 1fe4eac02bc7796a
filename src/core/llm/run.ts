/**
 * Runs an LLM feature: the base strategy's chunks (core chunk()), the feature's requests, each answered from the
 * cache or sent under the request policy (timeout, Cancel, retries, concurrency), then the feature's chunks. A
 * failed request is recorded with its one-line reason and the run goes on. `estimateLlmRun` counts the same
 * requests without sending any (the CLI's --dry-run).
 */
import { chunk as engineChunk, type ChunkHooks } from '../chunk';
import { validateOptions } from '../options';
import type { Chunk, ChunkOptions } from '../types';
import { getUnit } from '../units';
import { cacheKey, MemoryCache, type LlmCache } from './cache';
import type { Answers, FeatureFailure, FeatureInput, FeatureRequest, FeatureSettings } from './feature';
import { getLlmFeature } from './features/registry';
import { firstJsonValue } from './json';
import { Limiter, sendWithPolicy, type RequestPolicy } from './policy';
import { getLlmProvider } from './providers/registry';
import { fillTemplate, type PromptTemplate } from './templates';
import { LlmError, type AbortSignalLike, type FetchLike, type LlmClient, type LlmErrorKind } from './types';

export interface LlmOptions {
  feature: string;
  /** Default 'openai-compatible'. */
  provider?: string;
  baseUrl?: string;
  model?: string;
  /** In memory only: never in a cache key, an output or a file. */
  apiKey?: string;
  /** Default: a fresh in-memory cache (nothing kept between calls). */
  cache?: LlmCache;
  /** Requests at once (default: the provider's, 4 for endpoints, 1 for the Prompt API). */
  concurrency?: number;
  policy?: RequestPolicy;
  templates?: Partial<Record<string, PromptTemplate>>;
  settings?: FeatureSettings;
  /** Ask for response_format json_schema (default true); false for servers that refuse it. */
  structuredOutput?: boolean;
  fetch?: FetchLike;
  languageModel?: unknown;
  /** Prompt API: the model's download progress in [0, 1]. */
  onDownloadProgress?: (fraction: number) => void;
  /** transformers-js: the text-generation pipeline factory (tests inject a stub). */
  textGeneration?: unknown;
  signal?: AbortSignalLike;
  /** Called after each request with the number done and the total. */
  onRequestDone?: (done: number, total: number) => void;
}

export interface LlmRunReport {
  feature: string;
  provider: string;
  model: string;
  requests: number;
  cached: number;
  sent: number;
  succeeded: number;
  failed: number;
  /** Failures by kind (request failures and the feature's own: unsupported propositions, repaired ids). */
  failuresByKind: Record<string, number>;
  failures: FeatureFailure[];
  counts: Record<string, number>;
  /** As the server reported them (sent requests only). */
  usage: { input: number; output: number };
}

export interface LlmEstimate {
  feature: string;
  provider: string;
  model: string;
  requests: number;
  cached: number;
  /** cl100k tokens of the requests not cached (prompt + system); output: the features' expected answer sizes. */
  inputTokens: number;
  outputTokens: number;
  tokenizer: 'cl100k_base';
  /** At the given prices per million tokens; null when no price was given. */
  cost: number | null;
}

/** A sent request's cache key: who answers, which template version, and the exact input. The key is never in it. */
function keyOf(client: LlmClient, request: FeatureRequest, filled: { system: string; prompt: string }): string {
  return cacheKey({
    provider: client.provider,
    model: client.model,
    templateId: request.template.id,
    templateVersion: request.template.version,
    input: JSON.stringify([filled.system, filled.prompt, request.schema]),
  });
}

/** The prompt as sent: the template filled in; when structured output may be ignored, the schema is in the text. */
function fill(request: FeatureRequest): { system: string; prompt: string } {
  return { system: request.template.system, prompt: fillTemplate(request.template.text, request.values) };
}

async function prepare(source: string, options: ChunkOptions, llm: LlmOptions, hooks: ChunkHooks) {
  const feature = getLlmFeature(llm.feature);
  const provider = getLlmProvider(llm.provider ?? 'openai-compatible');
  const client = provider.create({
    baseUrl: llm.baseUrl,
    model: llm.model,
    apiKey: llm.apiKey,
    fetch: llm.fetch,
    languageModel: llm.languageModel,
    onDownloadProgress: llm.onDownloadProgress,
    textGeneration: llm.textGeneration,
    structuredOutput: llm.structuredOutput,
  });
  const resolved = validateOptions(options);
  const unit = await getUnit(resolved.unit);
  const chunks = feature.usesBaseChunks ? await engineChunk(source, options, hooks) : [];
  const input: FeatureInput = { source, chunks, options: resolved, unit, settings: llm.settings ?? {}, templates: llm.templates };
  return { feature, client, input, requests: feature.requests(input) };
}

/** What a run would send: requests, cached ones, tokens and money. Sends nothing. */
export async function estimateLlmRun(
  source: string,
  options: ChunkOptions,
  llm: LlmOptions,
  prices?: { inputPerMillion: number; outputPerMillion: number },
  hooks: ChunkHooks = {},
): Promise<LlmEstimate> {
  const { feature, client, requests } = await prepare(source, options, llm, hooks);
  const cl100k = await getUnit('cl100k_base');
  let cached = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const request of requests) {
    const filled = fill(request);
    if (llm.cache && (await llm.cache.get(keyOf(client, request, filled))) !== undefined) {
      cached++;
      continue;
    }
    inputTokens += cl100k.count(filled.system) + cl100k.count(filled.prompt);
    outputTokens += request.expectedOutputTokens;
  }
  const cost = prices ? (inputTokens * prices.inputPerMillion + outputTokens * prices.outputPerMillion) / 1e6 : null;
  return { feature: feature.name, provider: client.provider, model: client.model, requests: requests.length, cached, inputTokens, outputTokens, tokenizer: 'cl100k_base', cost };
}

/** Runs the feature; resolves with its chunks and the report (failures included). Rejects only on Cancel. */
export async function runLlmFeature(source: string, options: ChunkOptions, llm: LlmOptions, hooks: ChunkHooks = {}): Promise<{ chunks: Chunk[]; report: LlmRunReport }> {
  const { feature, client, input, requests } = await prepare(source, options, llm, hooks);
  const cache = llm.cache ?? new MemoryCache();
  const limiter = new Limiter(llm.concurrency ?? client.defaultConcurrency);
  const answers = new Map<string, { value: unknown } | { error: LlmError }>();
  const report: LlmRunReport = {
    feature: feature.name,
    provider: client.provider,
    model: client.model,
    requests: requests.length,
    cached: 0,
    sent: 0,
    succeeded: 0,
    failed: 0,
    failuresByKind: {},
    failures: [],
    counts: {},
    usage: { input: 0, output: 0 },
  };
  let done = 0;
  await Promise.all(
    requests.map((request) =>
      limiter.run(async () => {
        const outcome = await answer(client, request, cache, llm, report);
        answers.set(request.id, outcome);
        llm.onRequestDone?.(++done, requests.length);
      }),
    ),
  );
  const built = await feature.build(input, answers as Answers);
  report.failures = built.failures;
  report.counts = built.counts;
  for (const failure of built.failures) report.failuresByKind[failure.kind] = (report.failuresByKind[failure.kind] ?? 0) + 1;
  return { chunks: built.chunks, report };
}

/** One request: cached answer, else sent (the raw text is cached only when it reads as the answer asked for). */
async function answer(client: LlmClient, request: FeatureRequest, cache: LlmCache, llm: LlmOptions, report: LlmRunReport): Promise<{ value: unknown } | { error: LlmError }> {
  const filled = fill(request);
  const key = keyOf(client, request, filled);
  const hit = await cache.get(key);
  if (hit !== undefined) {
    try {
      const value = readAnswer(request, hit);
      report.cached++;
      report.succeeded++;
      return { value };
    } catch {
      // a cached answer that no longer reads (the feature's check changed): ask again
    }
  }
  try {
    report.sent++;
    const sent = await sendWithPolicy(client, { system: filled.system, prompt: filled.prompt, schema: request.schema, maxTokens: request.maxTokens }, llm.policy, llm.signal);
    if (sent.usage) {
      report.usage.input += sent.usage.input;
      report.usage.output += sent.usage.output;
    }
    const value = readAnswer(request, sent.text);
    await cache.set(key, sent.text);
    report.succeeded++;
    return { value };
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    report.failed++;
    return { error: err instanceof LlmError ? err : new LlmError('network', (err as Error)?.message ?? String(err)) };
  }
}

function readAnswer(request: FeatureRequest, text: string): unknown {
  const json = firstJsonValue(text);
  if (json === undefined) throw new LlmError('invalid-json', `the answer holds no JSON (${text.slice(0, 60).replace(/\s+/g, ' ')})`);
  return request.read(json);
}

export type { LlmErrorKind };
