/**
 * The LLM as a listwise reranker: one request per question holding the question and the numbered candidates; the
 * answer is `{"ranking": [ids best first]}`. Through the LLM layer (core/llm/ask.ts: provider, request policy,
 * answer cache). A bad answer never loses the question: invalid JSON or a failed request → the retriever's order
 * (counted as failed, by kind); ids out of range, repeated or missing → repaired (valid ids first, then the rest in
 * the retriever's order) and counted.
 */
import { createAsker, type AskOptions } from '../llm/ask';
import type { PromptTemplate } from '../llm/templates';
import { LlmError } from '../llm/types';
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

export interface LlmRerankOptions extends AskOptions {
  template?: PromptTemplate;
  /** The most characters of each passage put in the prompt (default 1,000). */
  passageChars?: number;
}

/** The candidates as the prompt lists them: `<p id="i">text</p>`, each cut to `chars`. */
export function listPassages(passages: readonly string[], chars: number): string {
  return passages.map((p, i) => `<p id="${i}">${p.length > chars ? p.slice(0, chars) + '…' : p}</p>`).join('\n');
}

function readRanking(json: unknown): unknown[] {
  const ranking = (json as { ranking?: unknown } | null)?.ranking;
  if (!Array.isArray(ranking)) throw new LlmError('invalid-json', 'the answer holds no {"ranking": [...]}');
  return ranking;
}

export function llmReranker(options: LlmRerankOptions): Reranker {
  const asker = createAsker(options);
  const template = options.template ?? RERANK_TEMPLATE;
  const chars = options.passageChars ?? 1000;
  let questions = 0;
  let repairedCount = 0;
  return {
    name: 'llm',
    async rerank(question, passages) {
      questions++;
      const identity = passages.map((_, i) => i);
      if (passages.length <= 1) return identity;
      const answer = await asker.ask({ template, values: { question, passages: listPassages(passages, chars) }, schema: SCHEMA, maxTokens: 16 + 6 * passages.length, read: readRanking });
      if ('error' in answer) return identity;
      const { order, repaired } = repairRanking(answer.value, passages.length);
      if (repaired) repairedCount++;
      return order;
    },
    cost: () => ({ ...emptyCost(), ...asker.counts(), questions, repaired: repairedCount }),
  };
}
