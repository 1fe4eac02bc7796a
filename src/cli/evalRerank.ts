/**
 * `chunkscope eval ... --rerank llm|cross-encoder:<model|folder> [--rerank-candidates N]`: the usual evaluation,
 * plus `rerank` in its JSON: the retriever's N candidates per question reranked to k, recall (and the other ranking
 * metrics) with and without the reranker, the candidates' recall (the most reranking can reach) and the cost (LLM
 * requests sent / cached / failed, tokens the server reported; cross-encoder pairs scored). LLM answers that had to
 * be repaired or fell back to the retriever's order are counted, one stderr line per kind.
 */
import { chunkDocuments, evaluateChunks, prepareQuestions, validateEvalOptions, type EvalDocument, type EvaluateHooks, type GoldenQuestion } from '../core/eval/index';
import { validateOptions } from '../core/options';
import { evaluateReranked } from '../core/rerank/evaluate';
import { llmReranker, type LlmRerankOptions } from '../core/rerank/llm';
import { scoreReranker } from '../core/rerank/scorer';
import type { Reranker } from '../core/rerank/types';
import { loadCrossEncoder } from '../node/rerank/crossEncoder';
import { CliError, parseWholeNumber } from './input';
import { llmSettingsFromFlags } from './llm';

export const DEFAULT_RERANK_CANDIDATES = 50;

export type RerankCliSettings = { candidates: number } & ({ kind: 'llm'; llm: LlmRerankOptions } | { kind: 'cross-encoder'; model: string });

const LLM_FLAGS = ['llm-provider', 'llm-base-url', 'llm-model', 'llm-api-key-env', 'llm-concurrency', 'llm-timeout', 'llm-cache', 'llm-no-structured-output'];

/** The reranking settings of eval (checked before any file is read); a bad one is a CliError (exit 2, one line). */
export function rerankSettings(values: Record<string, unknown>, command: 'eval' | 'sweep', env: NodeJS.ProcessEnv = process.env): RerankCliSettings {
  const spec = values.rerank as string | undefined;
  if (spec === undefined) throw new CliError('--rerank-candidates needs --rerank llm|cross-encoder:<model|folder>');
  if (command !== 'eval') throw new CliError('--rerank works with chunkscope eval (not sweep)');
  if (values.llm !== undefined) throw new CliError('--rerank does not combine with --llm <feature>');
  if (values.index !== undefined) throw new CliError('--rerank does not combine with --index');
  for (const flag of ['dry-run', 'llm-strict', 'llm-retrieval', 'summaries-first']) if (values[flag] !== undefined) throw new CliError(`--${flag} does not apply to --rerank`);
  const raw = values['rerank-candidates'] as string | undefined;
  const candidates = raw === undefined ? DEFAULT_RERANK_CANDIDATES : parseWholeNumber('--rerank-candidates', raw);
  if (candidates < 1) throw new CliError(`--rerank-candidates must be at least 1 (got ${raw})`);
  if (spec === 'llm') {
    // The LLM flags are read as for --llm (endpoint, model, key variable, cache, timeout, concurrency).
    const { llm } = llmSettingsFromFlags({ ...values, llm: 'contextual' }, env)!;
    return { kind: 'llm', candidates, llm: { provider: llm.provider, baseUrl: llm.baseUrl, model: llm.model, apiKey: llm.apiKey, cache: llm.cache, policy: llm.policy, structuredOutput: llm.structuredOutput } };
  }
  if (spec.startsWith('cross-encoder:')) {
    const model = spec.slice('cross-encoder:'.length);
    if (model === '') throw new CliError('--rerank cross-encoder:<model|folder> needs a hub id or a local folder');
    const stray = LLM_FLAGS.find((f) => values[f] !== undefined);
    if (stray) throw new CliError(`--${stray} needs --rerank llm`);
    return { kind: 'cross-encoder', candidates, model };
  }
  throw new CliError(`unknown --rerank "${spec}"; use llm or cross-encoder:<model|folder>`);
}

interface Context {
  documents: readonly EvalDocument[];
  questions: readonly GoldenQuestion[];
  base: Record<string, unknown>;
  hooks: EvaluateHooks;
  settings: RerankCliSettings;
  io: { stdout: (s: string) => void; stderr: (s: string) => void };
}

async function makeReranker(settings: RerankCliSettings): Promise<{ reranker: Reranker; dispose(): Promise<void> }> {
  if (settings.kind === 'llm') return { reranker: llmReranker(settings.llm), dispose: async () => {} };
  let loaded;
  try {
    loaded = await loadCrossEncoder(settings.model);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  return { reranker: scoreReranker(`cross-encoder:${settings.model}`, loaded.scorer), dispose: loaded.dispose };
}

export async function runEvalRerank(ctx: Context): Promise<number> {
  const resolved = validateOptions(ctx.base);
  const settings = validateEvalOptions(ctx.base);
  const { reranker, dispose } = await makeReranker(ctx.settings);
  try {
    const chunked = await chunkDocuments(ctx.documents, ctx.base, { ...ctx.hooks, onProgress: undefined });
    const prepared = prepareQuestions(chunked, ctx.questions);
    // The questions set aside were summed up in one line per cause before (checkQuestions in eval.ts).
    const { timings: _t, ...result } = await evaluateChunks(chunked, prepared, resolved, settings, ctx.hooks);
    void _t;
    const rerank = await evaluateReranked(chunked, prepared, resolved, settings, reranker, { candidates: ctx.settings.candidates, embed: ctx.hooks.embed });
    for (const [kind, n] of Object.entries(rerank.cost.failuresByKind)) ctx.io.stderr(`chunkscope: rerank: ${n} × ${kind}: the retriever's order kept for ${n === 1 ? 'that question' : 'those questions'}\n`);
    if (rerank.cost.repaired > 0) ctx.io.stderr(`chunkscope: rerank: ${rerank.cost.repaired} answer(s) with ids out of range, repeated or missing: repaired\n`);
    ctx.io.stdout(JSON.stringify({ ...result, rerank }, null, 2) + '\n');
  } finally {
    await dispose();
  }
  return 0;
}
