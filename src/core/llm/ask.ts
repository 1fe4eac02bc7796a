/**
 * One-off structured requests outside the feature runner (which builds chunks): the listwise reranker and the
 * golden-question generator ask one JSON answer at a time. Same layer: a provider from the registry, the request
 * policy (timeout, retries), the answer cache (key: provider, model, template id and version, the request as sent;
 * never the API key), counted the same way as a feature run (requests, cached, sent, failed by kind, tokens).
 */
import { cacheKey, MemoryCache, type LlmCache } from './cache';
import { firstJsonValue } from './json';
import { sendWithPolicy, type RequestPolicy } from './policy';
import { getLlmProvider } from './providers/registry';
import { fillTemplate, type PromptTemplate } from './templates';
import { LlmError, type AbortSignalLike, type FetchLike } from './types';

export interface AskOptions {
  /** Default 'openai-compatible'. */
  provider?: string;
  baseUrl?: string;
  model?: string;
  /** In memory only: never in a cache key or an output. */
  apiKey?: string;
  /** Default: a fresh in-memory cache. */
  cache?: LlmCache;
  policy?: RequestPolicy;
  structuredOutput?: boolean;
  fetch?: FetchLike;
  signal?: AbortSignalLike;
}

export interface AskCounts {
  requests: number;
  cached: number;
  sent: number;
  failed: number;
  failuresByKind: Record<string, number>;
  /** As the server reported them (sent requests only). */
  tokens: { input: number; output: number };
}

export interface AskRequest<T> {
  template: PromptTemplate;
  values: Record<string, string>;
  schema: Record<string, unknown>;
  maxTokens?: number;
  /** Checks the parsed JSON; throws an LlmError (invalid-json) when it is not the answer asked for. */
  read(json: unknown): T;
}

export interface Asker {
  readonly provider: string;
  readonly model: string;
  /** The answer read, or the error (counted). Rejects only on Cancel. */
  ask<T>(request: AskRequest<T>): Promise<{ value: T } | { error: LlmError }>;
  counts(): AskCounts;
}

export function createAsker(options: AskOptions): Asker {
  const client = getLlmProvider(options.provider ?? 'openai-compatible').create({
    baseUrl: options.baseUrl,
    model: options.model,
    apiKey: options.apiKey,
    fetch: options.fetch,
    structuredOutput: options.structuredOutput,
  });
  const cache = options.cache ?? new MemoryCache();
  const counts: AskCounts = { requests: 0, cached: 0, sent: 0, failed: 0, failuresByKind: {}, tokens: { input: 0, output: 0 } };
  const readText = <T>(request: AskRequest<T>, text: string): T => {
    const json = firstJsonValue(text);
    if (json === undefined) throw new LlmError('invalid-json', `the answer holds no JSON (${text.slice(0, 60).replace(/\s+/g, ' ')})`);
    return request.read(json);
  };
  return {
    provider: client.provider,
    model: client.model,
    async ask<T>(request: AskRequest<T>) {
      counts.requests++;
      const { template } = request;
      const prompt = fillTemplate(template.text, request.values);
      const key = cacheKey({ provider: client.provider, model: client.model, templateId: template.id, templateVersion: template.version, input: JSON.stringify([template.system, prompt, request.schema]) });
      const hit = await cache.get(key);
      if (hit !== undefined) {
        try {
          const value = readText(request, hit);
          counts.cached++;
          return { value };
        } catch {
          // a cached answer that no longer reads: ask again
        }
      }
      try {
        counts.sent++;
        const sent = await sendWithPolicy(client, { system: template.system, prompt, schema: request.schema, maxTokens: request.maxTokens }, options.policy, options.signal);
        if (sent.usage) {
          counts.tokens.input += sent.usage.input;
          counts.tokens.output += sent.usage.output;
        }
        const value = readText(request, sent.text);
        await cache.set(key, sent.text);
        return { value };
      } catch (err) {
        if ((err as Error)?.name === 'AbortError') throw err;
        const error = err instanceof LlmError ? err : new LlmError('network', (err as Error)?.message ?? String(err));
        counts.failed++;
        counts.failuresByKind[error.kind] = (counts.failuresByKind[error.kind] ?? 0) + 1;
        return { error };
      }
    },
    counts: () => ({ ...counts, failuresByKind: { ...counts.failuresByKind }, tokens: { ...counts.tokens } }),
  };
}
