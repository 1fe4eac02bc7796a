import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { llamaindexHierarchical } from './hierarchical';
import { splitSentenceLlamaindex } from './sentenceSplitter';
import { llamaindexSentenceWindows } from './sentenceWindow';
import { splitTokenLlamaindex } from './tokenTextSplitter';

export { splitLlamaindexTsMarkdown, type LlamaindexTsMarkdownNode } from './markdown';
export { llamaindexSentences } from './sentences';
export { SENTENCE_SPLITTER_DEFAULTS } from './sentenceSplitter';
export { TOKEN_TEXT_SPLITTER_DEFAULTS } from './tokenTextSplitter';
export { SENTENCE_WINDOW_DEFAULTS } from './sentenceWindow';
export { HIERARCHICAL_DEFAULTS } from './hierarchical';

/*
 * Exact reproduction of LlamaIndex TS (@llamaindex/core 0.6.23, its node-parser module) for the sentence, token and
 * markdown strategies in compat mode `llamaindex`: the same strings as `splitText` (markdown: the nodes' texts) in
 * the same order, with the best matching source span in start/end and the package's string in `content` where it
 * is not that span. Pure: the package is only the reference in the tests. The unit is the tokenizer (the package's
 * default, cl100k_base through js-tiktoken, is the mode's default unit). See DIFFERENCES.md.
 */

/** SentenceSplitter({ chunkSize: size, chunkOverlap: overlap }).splitText(text). */
export function llamaindexSentenceSplitter(text: string, ctx: ChunkContext): SplitSpan[] {
  return splitSentenceLlamaindex(text, ctx, { chunkSize: ctx.options.size, chunkOverlap: ctx.options.overlap });
}

/** TokenTextSplitter({ chunkSize: size, chunkOverlap: overlap }).splitText(text). */
export function llamaindexTokenTextSplitter(text: string, ctx: ChunkContext): SplitSpan[] {
  return splitTokenLlamaindex(text, ctx, { chunkSize: ctx.options.size, chunkOverlap: ctx.options.overlap });
}

/**
 * The sentence strategy's retrieval units in compat mode: SentenceWindowNodeParser({ windowSize: window }) for
 * `window`, HierarchicalNodeParser (chunk sizes = levels, SentenceSplitter overlap = overlap) for `hierarchical`.
 */
export function llamaindexRetrievalUnits(text: string, ctx: ChunkContext): SplitSpan[] {
  const o = ctx.options;
  if (o.retrieval === 'window') return llamaindexSentenceWindows(text, ctx, o.window ?? 3);
  if (o.retrieval === 'hierarchical') return llamaindexHierarchical(text, ctx, o.levels ?? [2048, 512, 128], o.overlap);
  throw new Error(`LlamaIndex compatibility has no ${o.retrieval} units`);
}
