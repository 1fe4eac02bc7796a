/**
 * The LLM as a listwise reranker: one request per question holding the question and the numbered candidates; the
 * answer is `{"ranking": [ids best first]}`. Through the LLM layer: its providers, request policy (timeout,
 * retries) and answer cache (key: provider, model, template id and version, the prompt as sent). A bad answer never
 * loses the question: invalid JSON or a failed request → the retriever's order (counted as failed); ids out of range,
 * repeated or missing → repaired (valid ids first, then the rest in the retriever's order) and counted.
 */
import { cacheKey, MemoryCache, type LlmCache } from '../llm/cache';
import { firstJsonValue } from '../llm/json';
import { sendWithPolicy, type RequestPolicy } from '../llm/policy';
import { getLlmProvider } from '../llm/providers/registry';
import { fillTemplate, type PromptTemplate } from '../llm/templates';
import { LlmError, type AbortSignalLike, type FetchLike } from '../llm/types';
import { emptyCost, repairRanking, type Reranker } from './types';

export const RERANK_TEMPLATE: PromptTemplate = {
  id: 'rerank-listwise',
  version: 1,
  system: 'You rank passages by how well they answer a question. Answer with JSON only.',
  text:
    '<rerank-question>\n{question}\n</rerank-question>\n<rerank-passages>\n{passages}\n</rerank-passages>\n' +
    'Rank the passages above by how well each answers the question, most relevant first. ' +
    'Answer as JSON with every passage id exactly once: {"ranking": [id, ...]}',
};

const SCHEMA = {
  type: 'object',
  properties: { ranking: { type: 'array', items: { type: 'integer' } } },
  required: ['ranking'],
  additionalProperties: false,
};

export interface LlmRerankOptions {
  /** Default 'openai-compatible'. */
  provider?: string;
  baseUrl?: string;
  model?: string;
  /** In memory only: never in a cache key or an output. */
  apiKey?: string;
  cache?: LlmCache;
  policy?: RequestPolicy;
  structuredOutput?: boolean;
  fetch?: FetchLike;
  template?: PromptTemplate;
  /** The most characters of each passage put in the prompt (default 1,000). */
  passageChars?: number;
  signal?: AbortSignalLike;
}

/** The candidates as the prompt lists them: `<p id="i">text</p>`, each cut to `chars`. */
export function listPassages(passages: readonly string[], chars: number): string {
  return passages.map((p, i) => `<p id="${i}">${p.length > chars ? p.slice(0, chars) + '…' : p}</p>`).join('\n');
}

export function llmReranker(options: LlmRerankOptions): Reranker {
  const client = getLlmProvider(options.provider ?? 'openai-compatible').create({
    baseUrl: options.baseUrl,
    model: options.model,
    apiKey: options.apiKey,
    fetch: options.fetch,
    structuredOutput: options.structuredOutput,
  });
  const cache = options.cache ?? new MemoryCache();
  const template = options.template ?? RERANK_TEMPLATE;
  const chars = options.passageChars ?? 1000;
  const cost = emptyCost();
  const fail = (error: LlmError) => {
    cost.failed++;
    cost.failuresByKind[error.kind] = (cost.failuresByKind[error.kind] ?? 0) + 1;
  };
  const read = (text: string): unknown[] => {
    const json = firstJsonValue(text) as { ranking?: unknown } | undefined;
    if (!json || !Array.isArray(json.ranking)) throw new LlmError('invalid-json', `the answer holds no {"ranking": [...]} (${text.slice(0, 60).replace(/\s+/g, ' ')})`);
    return json.ranking;
  };
  return {
    name: 'llm',
    async rerank(question, passages) {
      cost.questions++;
      const identity = passages.map((_, i) => i);
      if (passages.length <= 1) return identity;
      cost.requests++;
      const prompt = fillTemplate(template.text, { question, passages: listPassages(passages, chars) });
      const key = cacheKey({ provider: client.provider, model: client.model, templateId: template.id, templateVersion: template.version, input: JSON.stringify([template.system, prompt, SCHEMA]) });
      let ranking: unknown[] | undefined;
      const hit = await cache.get(key);
      if (hit !== undefined) {
        try {
          ranking = read(hit);
          cost.cached++;
        } catch {
          // a cached answer that no longer reads: ask again
        }
      }
      if (!ranking) {
        try {
          cost.sent++;
          const sent = await sendWithPolicy(client, { system: template.system, prompt, schema: SCHEMA, maxTokens: 16 + 6 * passages.length }, options.policy, options.signal);
          if (sent.usage) {
            cost.tokens.input += sent.usage.input;
            cost.tokens.output += sent.usage.output;
          }
          ranking = read(sent.text);
          await cache.set(key, sent.text);
        } catch (err) {
          if ((err as Error)?.name === 'AbortError') throw err;
          fail(err instanceof LlmError ? err : new LlmError('network', (err as Error)?.message ?? String(err)));
          return identity;
        }
      }
      const { order, repaired } = repairRanking(ranking, passages.length);
      if (repaired) cost.repaired++;
      return order;
    },
    cost: () => ({ ...cost, failuresByKind: { ...cost.failuresByKind }, tokens: { ...cost.tokens } }),
  };
}
