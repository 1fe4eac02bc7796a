import { RunGuard } from '../../merge';
import type { StrategyImplementation } from '../../registry';
import { chunkSemantic, type PrepareOptions, type SemanticParams } from '../../semantic';
import type { ChunkContext, ResolvedOptions, Unit } from '../../types';

/**
 * Semantic chunking: cut where the distance between neighbouring sentences (their embeddings, with `buffer`
 * neighbours joined) is high. The splitter itself is src/core/semantic (pure functions of sentences and vectors);
 * this file maps the resolved options onto it. The embeddings come from `ctx.embed`, supplied by the caller (the
 * CLI's embedder, the page's embedding worker): core never loads a model.
 */

/** The prepare step's options for resolved options (what decides the sentences and the strings embedded). */
export function semanticPrepareOptions(options: ResolvedOptions): PrepareOptions {
  return {
    compat: options.compat,
    bufferSize: options.buffer ?? 1,
    locale: options.locale,
    regexSentences: options.sentences === 'regex',
  };
}

/** The split step's options for resolved options (what decides the cuts for given distances). */
export function semanticSplitParams(options: ResolvedOptions, unit: Unit): SemanticParams {
  return {
    breakpoint: options.breakpoint ?? 'percentile',
    amount: options.amount ?? undefined,
    chunks: options.chunks ?? undefined,
    minSize: options.minSize ?? undefined,
    maxSize: options.maxSize ?? undefined,
    unit,
  };
}

export const implementation: StrategyImplementation = {
  async split(text: string, ctx: ChunkContext) {
    const { embed, options, unit } = ctx;
    if (!embed) throw new Error('the semantic strategy needs an embedder (pass hooks.embed to chunk())');
    const result = await chunkSemantic(text, embed, { ...semanticPrepareOptions(options), ...semanticSplitParams(options, unit) });
    new RunGuard(ctx, text.length).check(); // cancelled while embedding
    for (const note of result.notes) ctx.onNote?.(note);
    return result.spans;
  },
};
