/**
 * The `chunkscope` library in Node: the engine (src/core) with the Node host filled in, so `chunk()` works for
 * every strategy without hooks — the code strategy's tree-sitter wasm files are read from node_modules.
 */
import { chunk as coreChunk, evaluate as coreEvaluate, sweep as coreSweep, type ChunkHooks } from '../core/index';
import type { EvalDocument, EvaluateHooks, EvaluateOptions, EvalResult, GoldenQuestion, SweepRow } from '../core/eval/index';
import type { Chunk, ChunkOptions } from '../core/types';
import { nodeLoadWasm } from './loadWasm';
import { runLlm, type LibraryLlmOptions } from './llm';

export * from '../core/index';
export * from '../core/llm/index';
export { nodeLoadWasm };
export { DirectoryCache } from './llmCache';
export { runLlm, LlmStrictError, type LibraryLlmOptions } from './llm';
export * from './corpus/index';
export * from '../core/rerank/index'; // reranking (docs/lab.md)
export * from '../core/golden/index';
export { loadCrossEncoder } from './rerank/crossEncoder';

/**
 * core's chunk(), with `hooks.loadWasm` defaulting to the Node loader. With `options.llm` the chunks are an LLM
 * feature's (contextual, propositions, boundaries, summaries: see docs/llm.md) over the base strategy's; without
 * it, exactly core's chunk().
 */
export function chunk(text: string, options: ChunkOptions & { llm?: LibraryLlmOptions | null } = {}, hooks: ChunkHooks = {}): Promise<Chunk[]> {
  const nodeHooks = { ...hooks, loadWasm: hooks.loadWasm ?? nodeLoadWasm };
  if (options.llm === undefined || options.llm === null) return coreChunk(text, options, nodeHooks);
  const { llm, ...chunkOptions } = options;
  return runLlm(text, chunkOptions, llm, nodeHooks).then((run) => run.chunks);
}

/** core's evaluate() (chunk, index, retrieve, measure), with `hooks.loadWasm` defaulting to the Node loader. */
export function evaluate(documents: readonly EvalDocument[], questions: readonly GoldenQuestion[], options: EvaluateOptions = {}, hooks: EvaluateHooks = {}): Promise<EvalResult> {
  return coreEvaluate(documents, questions, options, { ...hooks, loadWasm: hooks.loadWasm ?? nodeLoadWasm });
}

/** core's sweep() (one row per configuration of `grid`), with `hooks.loadWasm` defaulting to the Node loader. */
export function sweep(
  documents: readonly EvalDocument[],
  questions: readonly GoldenQuestion[],
  grid: readonly Record<string, unknown>[],
  base: EvaluateOptions = {},
  hooks: EvaluateHooks & { onRow?: (row: SweepRow, index: number) => void } = {},
): Promise<SweepRow[]> {
  return coreSweep(documents, questions, grid, base, { ...hooks, loadWasm: hooks.loadWasm ?? nodeLoadWasm });
}
