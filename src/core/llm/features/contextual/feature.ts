/**
 * Contextual retrieval (Anthropic's recipe): for each chunk of the base strategy, the model writes a short context
 * situating it in the document. The context is prepended to `content` only (drawn as injected text, like a
 * contextual header: `metadata.prefix`); `text`, `start` and `end` stay the source span; `metadata.context` holds
 * it. A document longer than the context budget is not sent whole: the prompt gets the section around the chunk
 * (`metadata.contextScope`, its span) and says so.
 */
import type { Chunk, Range } from '../../../types';
import { answerOf, type FeatureDescriptor, type FeatureFailure, type FeatureInput, type FeatureRequest } from '../../feature';
import { objectSchema, readString } from '../../read';
import { templateFor } from '../../templates';

/** Characters of the document one prompt may hold by default (about 6,000 tokens: fits an 8k-context model). */
export const DEFAULT_CONTEXT_BUDGET = 24_000;

const SCHEMA = objectSchema('context', { type: 'string' });

/** The part of the document the prompt shows for `chunk`: all of it, or `budget` characters centred on the chunk. */
export function contextWindow(source: string, chunk: Range, budget: number): Range {
  if (source.length <= budget) return { start: 0, end: source.length };
  const room = Math.max(0, budget - (chunk.end - chunk.start));
  const start = Math.max(0, Math.min(chunk.start - Math.floor(room / 2), source.length - budget));
  return { start, end: Math.min(source.length, Math.max(chunk.end, start + budget)) };
}

function requests(input: FeatureInput): FeatureRequest[] {
  const template = templateFor('contextual', input.templates);
  const budget = input.settings.contextBudget ?? DEFAULT_CONTEXT_BUDGET;
  return input.chunks.map((chunk) => {
    const scope = contextWindow(input.source, chunk, budget);
    const whole = scope.start === 0 && scope.end === input.source.length;
    return {
      id: String(chunk.index),
      template,
      values: {
        document: input.source.slice(scope.start, scope.end),
        chunk: chunk.text,
        scope: whole ? 'the whole document' : 'an excerpt of a longer document: the section around the chunk',
      },
      schema: SCHEMA,
      expectedOutputTokens: 100,
      maxTokens: 300,
      read: (json) => readString(json, 'context'),
    };
  });
}

export const contextual = {
  name: 'contextual',
  label: 'Contextual retrieval',
  help: "the model writes a short context situating each chunk in the document, prepended to the chunk's content (not its text)",
  usesBaseChunks: true,
  requests,
  async build(input, answers) {
    const failures: FeatureFailure[] = [];
    const budget = input.settings.contextBudget ?? DEFAULT_CONTEXT_BUDGET;
    const chunks: Chunk[] = input.chunks.map((chunk) => {
      const context = answerOf<string>(answers, String(chunk.index), failures, { start: chunk.start, end: chunk.end });
      if (context === undefined) {
        const failure = failures[failures.length - 1];
        return failure?.request === String(chunk.index) ? { ...chunk, metadata: { ...chunk.metadata, llmError: `${failure.kind}: ${failure.reason}` } } : chunk;
      }
      const injected = context + '\n\n';
      const prefix = injected + (chunk.metadata.prefix ?? '');
      const content = injected + chunk.content;
      const scope = contextWindow(input.source, chunk, budget);
      const metadata: Chunk['metadata'] = { ...chunk.metadata, context, prefix, prefixSize: input.unit.count(prefix) };
      if (scope.start !== 0 || scope.end !== input.source.length) metadata.contextScope = scope;
      return { ...chunk, content, size: input.unit.count(content), metadata };
    });
    return { chunks, failures, counts: { contextualised: chunks.filter((c) => c.metadata.context !== undefined).length } };
  },
} as const satisfies FeatureDescriptor<'contextual'>;
