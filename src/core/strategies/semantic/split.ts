import { documentCache, embedderKey } from '../../documentCache';
import { RunGuard } from '../../merge';
import type { StrategyImplementation } from '../../registry';
import {
  analyseSemantic,
  prepareSemantic,
  splitSemantic,
  type PrepareOptions,
  type SemanticAnalysis,
  type SemanticCompat,
  type SemanticParams,
  type SemanticPreparation,
} from '../../semantic';
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
    // Validation allows only the semantic description's compat modes (none, langchain, llamaindex).
    compat: options.compat as SemanticCompat,
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

/** A prepared document's estimated bytes: sentence ranges plus the strings embedded (2 bytes per UTF-16 unit). */
function preparationBytes(prep: SemanticPreparation): number {
  let bytes = prep.sentences.length * 48;
  for (const t of prep.inputs.texts) bytes += 40 + t.length * 2;
  return bytes + prep.inputs.textOfSentence.length * 8;
}

/** An analysis's estimated bytes: distances and gradient, and per array its sorted copy and descending order. */
function analysisBytes(analysis: SemanticAnalysis): number {
  return analysis.distances.length * 8 * 6 + 256;
}

interface CachedAnalysis {
  analysis: SemanticAnalysis;
  embedded: number;
  embedMs: number;
}

const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

export const implementation: StrategyImplementation = {
  async split(text: string, ctx: ChunkContext) {
    const { embed, options, unit } = ctx;
    if (!embed) throw new Error('the semantic strategy needs an embedder (pass hooks.embed to chunk())');
    // Sentences and embedding inputs depend on the prepare options only; the analysis also on the embedder. Both are
    // kept in the engine's document cache, so a new breakpoint, amount, target count or min/max size only re-splits.
    const prepareOptions = semanticPrepareOptions(options);
    const prepareKey = `semantic.prepare ${JSON.stringify(prepareOptions)}`;
    const analysisKey = `semantic.analysis ${embedderKey(embed)} ${JSON.stringify(options.embedder ?? null)} ${prepareKey}`;
    let entry = documentCache.get<CachedAnalysis>(text, analysisKey);
    const cached = entry !== undefined;
    let preparation: SemanticPreparation;
    if (entry) {
      preparation = entry.analysis.preparation;
    } else {
      preparation = documentCache.getOrCompute(text, prepareKey, () => prepareSemantic(text, prepareOptions), preparationBytes);
      const texts = preparation.inputs.texts;
      const t0 = now();
      const vectors = texts.length > 0 ? await embed(texts) : [];
      new RunGuard(ctx, text.length).check(); // cancelled while embedding
      const embedMs = now() - t0;
      entry = { analysis: analyseSemantic(preparation, vectors), embedded: texts.length, embedMs };
      documentCache.set(text, analysisKey, entry, analysisBytes(entry.analysis));
    }
    const t1 = now();
    const result = splitSemantic(entry.analysis, semanticSplitParams(options, unit));
    const splitMs = now() - t1;
    for (const note of result.notes) ctx.onNote?.(note);
    ctx.onDetail?.({
      semantic: {
        distances: result.distances,
        values: result.values,
        comparedWith: result.comparedWith,
        threshold: result.threshold,
        breakpoints: result.breakpoints,
        sentences: preparation.sentences,
        notes: result.notes,
        embedded: entry.embedded,
        embedMs: entry.embedMs,
        splitMs,
        cached,
      },
    });
    return result.spans;
  },
};
