/**
 * `chunkscope eval|sweep ... --llm <feature>`: each configuration's chunks go through the LLM feature (answers from
 * the cache when it holds them), then are scored on source characters (core/eval/derived.ts) beside the same
 * configuration without the feature (baseline). The JSON gives the LLM requests (sent, cached, failed), the tokens
 * the server reported, their money, and the cl100k estimate of the whole feature (what it costs with nothing cached)
 * beside recall. --dry-run prints the estimate and sends nothing. Failures: one stderr line per kind; exit 1 when
 * nothing succeeded or, under --llm-strict, when anything failed.
 */
import { ChunkOptionsError } from '../core/optionTable';
import { optionsKey } from '../core/chunk';
import { validateOptions } from '../core/options';
import { MemoryCache } from '../core/llm/cache';
import { estimateLlmRun, type LlmRunReport } from '../core/llm/run';
import type { ChunkOptions } from '../core/types';
import type { IndexedDocument } from '../core/retrievers';
import { chunkDocuments, evaluateChunks, evaluateDerived, METRIC_NAMES, prepareQuestions, validateEvalOptions, type DerivedRetrieval, type EvalDocument, type EvaluateHooks, type GoldenQuestion, type IndexCost, type MeanMetrics } from '../core/eval/index';
import { runLlm } from '../node/llm';
import { CliError, parseWholeNumber } from './input';
import { failureLines, llmSettingsFromFlags, type LlmCliSettings } from './llm';

export interface EvalLlmSettings extends LlmCliSettings {
  retrieval: DerivedRetrieval;
  summariesFirst: number;
}

interface EvalLlmIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stderrIsTty?: boolean;
}

/** The LLM settings of eval/sweep (null without --llm); a bad or stray flag is a CliError (exit 2, one line). */
export function evalLlmSettings(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): EvalLlmSettings | null {
  const settings = llmSettingsFromFlags(values, env);
  const givenRetrieval = values['llm-retrieval'] as string | undefined;
  const givenFirst = values['summaries-first'] as string | undefined;
  if (!settings) {
    const stray = givenRetrieval !== undefined ? 'llm-retrieval' : givenFirst !== undefined ? 'summaries-first' : null;
    if (stray) throw new CliError(`--${stray} needs --llm summaries`);
    return null;
  }
  const summaries = settings.llm.feature === 'summaries';
  if (givenRetrieval !== undefined && givenRetrieval !== 'flat' && givenRetrieval !== 'two-stage') throw new CliError(`--llm-retrieval must be flat or two-stage (got "${givenRetrieval}")`);
  const retrieval: DerivedRetrieval = (givenRetrieval as DerivedRetrieval | undefined) ?? (summaries ? 'two-stage' : 'flat');
  if (retrieval === 'two-stage' && !summaries) throw new CliError('--llm-retrieval two-stage needs --llm summaries (the summaries choose the spans)');
  const summariesFirst = givenFirst === undefined ? 1 : parseWholeNumber('--summaries-first', givenFirst);
  if (summariesFirst < 1) throw new CliError(`--summaries-first must be at least 1 (got ${givenFirst})`);
  if (givenFirst !== undefined && retrieval !== 'two-stage') throw new CliError('--summaries-first needs two-stage retrieval (--llm summaries)');
  // One cache for the whole command (in memory under --llm-cache none): configurations over the same chunks ask once.
  settings.llm.cache ??= new MemoryCache();
  return { ...settings, retrieval, summariesFirst };
}

/** A configuration's LLM figures, as printed beside its recall. */
export interface LlmFigures {
  feature: string;
  provider: string;
  model: string;
  retrieval: DerivedRetrieval;
  requests: number;
  sent: number;
  cached: number;
  succeeded: number;
  failed: number;
  failuresByKind: Record<string, number>;
  /** Tokens the server reported for this run's sent requests, and their money at the given prices. */
  tokens: { input: number; output: number };
  cost: number;
  /** The whole feature with nothing cached: cl100k input tokens, expected output tokens, money. */
  estimate: { inputTokens: number; outputTokens: number; cost: number; tokenizer: 'cl100k_base' };
}

interface Context {
  documents: readonly EvalDocument[];
  questions: readonly GoldenQuestion[];
  base: Record<string, unknown>;
  grid: readonly Record<string, unknown>[];
  hooks: EvaluateHooks;
  format: string;
  settings: EvalLlmSettings;
  io: EvalLlmIo;
}

interface Row {
  values: Record<string, unknown>;
  configuration: Record<string, unknown> | null;
  means: MeanMetrics | null;
  llm: LlmFigures | null;
  baseline: { means: MeanMetrics; index: IndexCost } | null;
  measured: number;
  index: IndexCost | null;
  error?: string;
}

const money = (input: number, output: number, prices: LlmCliSettings['prices']) => (input * prices.inputPerMillion + output * prices.outputPerMillion) / 1e6;

/** Every document through the feature with the configuration's options; the reports added up. */
async function runFeature(ctx: Context, options: ChunkOptions, onRequest?: (done: number, total: number) => void) {
  const docs: IndexedDocument[] = [];
  let total: LlmRunReport | null = null;
  for (const doc of ctx.documents) {
    const { chunks, report } = await runLlm(doc.text, { ...options, documentId: doc.id, path: options.path ?? doc.path }, { ...ctx.settings.llm, onRequestDone: onRequest }, ctx.hooks);
    docs.push({ id: doc.id, text: doc.text, chunks });
    total = total ? addReports(total, report) : report;
  }
  return { docs, report: total! };
}

function addReports(a: LlmRunReport, b: LlmRunReport): LlmRunReport {
  const byKind = { ...a.failuresByKind };
  for (const [k, n] of Object.entries(b.failuresByKind)) byKind[k] = (byKind[k] ?? 0) + n;
  const counts = { ...a.counts };
  for (const [k, n] of Object.entries(b.counts)) counts[k] = (counts[k] ?? 0) + n;
  return {
    ...a,
    requests: a.requests + b.requests,
    cached: a.cached + b.cached,
    sent: a.sent + b.sent,
    succeeded: a.succeeded + b.succeeded,
    failed: a.failed + b.failed,
    failuresByKind: byKind,
    failures: [...a.failures, ...b.failures],
    counts,
    usage: { input: a.usage.input + b.usage.input, output: a.usage.output + b.usage.output },
  };
}

/** The feature's cost with nothing cached (cl100k), summed over the documents. */
async function fullEstimate(ctx: Context, options: ChunkOptions, cached: boolean) {
  const out = { requests: 0, cached: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
  for (const doc of ctx.documents) {
    const llm = cached ? ctx.settings.llm : { ...ctx.settings.llm, cache: undefined };
    const e = await estimateLlmRun(doc.text, { ...options, documentId: doc.id, path: options.path ?? doc.path }, llm, ctx.settings.prices, ctx.hooks);
    out.requests += e.requests;
    out.cached += e.cached;
    out.inputTokens += e.inputTokens;
    out.outputTokens += e.outputTokens;
    out.cost += e.cost ?? 0;
  }
  return out;
}

/** The chunk options' key: configurations with equal keys make the same chunks, so the same LLM requests. */
const chunkKey = (options: ChunkOptions) => optionsKey(validateOptions(options));

async function dryRun(command: 'eval' | 'sweep', ctx: Context): Promise<number> {
  const seen = new Map<string, number>();
  const rows: Record<string, unknown>[] = [];
  const totals = { requests: 0, cached: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
  for (let i = 0; i < ctx.grid.length; i++) {
    const options = { ...ctx.base, ...ctx.grid[i] } as ChunkOptions;
    let key: string;
    try {
      key = chunkKey(options);
    } catch (err) {
      if (!(err instanceof ChunkOptionsError) || command === 'eval') throw err;
      rows.push({ values: ctx.grid[i], error: err.message });
      continue;
    }
    if (seen.has(key)) {
      rows.push({ values: ctx.grid[i], sameRequestsAs: seen.get(key) });
      continue;
    }
    seen.set(key, i);
    const e = await fullEstimate(ctx, options, true);
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += e[k];
    rows.push({ values: ctx.grid[i], ...e });
  }
  const { llm, prices } = ctx.settings;
  const head = { feature: llm.feature, provider: llm.provider ?? 'openai-compatible', model: llm.model, ...totals, tokenizer: 'cl100k_base', prices };
  ctx.io.stdout(JSON.stringify(command === 'eval' ? head : { ...head, rows }, null, 2) + '\n');
  return 0;
}

/** Runs eval or sweep with the feature; returns the exit code. */
export async function runEvalWithLlm(command: 'eval' | 'sweep', ctx: Context): Promise<number> {
  if (ctx.settings.dryRun) return dryRun(command, ctx);
  const prepared = prepareQuestions(ctx.documents, ctx.questions);
  if (command === 'eval') for (const s of prepared.skipped) ctx.io.stderr(`chunkscope: note: question ${s.index + 1} skipped: ${s.reason}\n`);
  const started = Date.now();
  const progress = ctx.io.stderrIsTty
    ? (done: number, total: number) => ctx.io.stderr(`\rchunkscope: llm ${ctx.settings.llm.feature}: ${done}/${total} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`)
    : undefined;
  const rows: Row[] = [];
  const estimates = new Map<string, LlmFigures['estimate']>();
  let all: LlmRunReport | null = null;
  let last: Awaited<ReturnType<typeof evaluateDerived>> | null = null;
  for (const values of ctx.grid) {
    const options = { ...ctx.base, ...values } as ChunkOptions & Record<string, unknown>;
    let resolved, evalSettings;
    try {
      resolved = validateOptions(options);
      evalSettings = validateEvalOptions(options);
    } catch (err) {
      if (!(err instanceof ChunkOptionsError) || command === 'eval') throw err;
      rows.push({ values, configuration: null, means: null, llm: null, baseline: null, measured: 0, index: null, error: err.message });
      continue;
    }
    const { docs, report } = await runFeature(ctx, options, progress);
    if (progress) ctx.io.stderr('\n');
    all = all ? addReports(all, report) : report;
    if (report.requests > 0 && report.succeeded === 0) {
      for (const line of failureLines(report)) ctx.io.stderr(`chunkscope: llm: ${line}\n`);
      ctx.io.stderr(`chunkscope: llm: nothing succeeded: ${report.failures[0]?.reason ?? 'no answer'}\n`);
      return 1;
    }
    const key = chunkKey(options);
    if (!estimates.has(key)) {
      const e = await fullEstimate(ctx, options, false);
      estimates.set(key, { inputTokens: e.inputTokens, outputTokens: e.outputTokens, cost: e.cost, tokenizer: 'cl100k_base' });
    }
    const result = await evaluateDerived(docs, prepared, resolved, evalSettings, ctx.hooks, { retrieval: ctx.settings.retrieval, summariesFirst: ctx.settings.summariesFirst });
    const plain = await evaluateChunks(await chunkDocuments(ctx.documents, options, { ...ctx.hooks, onProgress: undefined }), prepared, resolved, evalSettings, ctx.hooks);
    const llm: LlmFigures = {
      feature: report.feature,
      provider: report.provider,
      model: report.model,
      retrieval: ctx.settings.retrieval,
      requests: report.requests,
      sent: report.sent,
      cached: report.cached,
      succeeded: report.succeeded,
      failed: report.failed,
      failuresByKind: report.failuresByKind,
      tokens: { ...report.usage },
      cost: money(report.usage.input, report.usage.output, ctx.settings.prices),
      estimate: estimates.get(key)!,
    };
    rows.push({ values, configuration: result.configuration, means: result.means, llm, baseline: { means: plain.means, index: plain.index }, measured: result.measured, index: result.index });
    last = result;
  }
  if (all) {
    for (const line of failureLines(all)) ctx.io.stderr(`chunkscope: llm: ${line}\n`);
    ctx.io.stderr(`chunkscope: llm: ${all.feature}: ${all.requests} requests (${all.cached} cached, ${all.sent} sent), ${all.succeeded} answered, ${all.failed} failed; ${all.usage.input} input + ${all.usage.output} output tokens as reported, cost ${money(all.usage.input, all.usage.output, ctx.settings.prices).toFixed(4)}\n`);
    if (ctx.settings.strict && all.failures.length > 0) {
      ctx.io.stderr(`chunkscope: llm: --llm-strict: ${all.failures.length} failure(s), the first: ${all.failures[0]!.reason}\n`);
      return 1;
    }
  }
  if (command === 'eval') {
    const row = rows[0]!;
    const { timings: _t, configuration, k, means, ...rest } = last!;
    void _t;
    ctx.io.stdout(JSON.stringify({ configuration, k, means, llm: row.llm, baseline: row.baseline, ...rest }, null, 2) + '\n');
  } else ctx.io.stdout(ctx.format === 'csv' ? rowsCsv(rows, ctx.grid) : JSON.stringify(rows, null, 2) + '\n');
  return 0;
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The sweep as CSV: the grid's values, the means, the index, the baseline's recall and the LLM figures. */
function rowsCsv(rows: Row[], grid: readonly Record<string, unknown>[]): string {
  const keys = Object.keys(grid[0] ?? {});
  const llmColumns = ['requests', 'sent', 'cached', 'failed'] as const;
  const head = [...keys, ...METRIC_NAMES, 'chunks', 'indexed', 'embeddingTokens', 'baselineRecall', ...llmColumns.map((c) => `llm${c[0]!.toUpperCase()}${c.slice(1)}`), 'llmInputTokens', 'llmOutputTokens', 'llmCost', 'llmEstimatedCost', 'error'];
  const lines = [head.join(',')];
  for (const r of rows) {
    const cells = [
      ...keys.map((k) => r.values[k]),
      ...METRIC_NAMES.map((m) => r.means?.[m] ?? null),
      r.index?.chunks ?? null,
      r.index?.indexed ?? null,
      r.index?.embeddingTokens ?? null,
      r.baseline?.means.recall ?? null,
      ...llmColumns.map((c) => r.llm?.[c] ?? null),
      r.llm?.tokens.input ?? null,
      r.llm?.tokens.output ?? null,
      r.llm?.cost ?? null,
      r.llm?.estimate.cost ?? null,
      r.error ?? '',
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return lines.join('\n') + '\n';
}
