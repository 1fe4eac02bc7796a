/**
 * `chunkscope chunk FILE --llm <feature>`: the LLM features from the command line. The endpoint, model and key come
 * from the flags, else OPENAI_BASE_URL / OPENAI_API_KEY; the key lives in this process's memory only. Failures:
 * one stderr line per kind with its count; exit 1 with one line when nothing succeeded or, under --llm-strict, when
 * anything failed. --dry-run prints the estimate and sends nothing.
 */
import type { ChunkHooks } from '../core/chunk';
import type { LlmCache } from '../core/llm/cache';
import { LLM_FEATURE_NAMES } from '../core/llm/features/registry';
import { estimateLlmRun, type LlmOptions, type LlmRunReport } from '../core/llm/run';
import type { Chunk, ChunkOptions } from '../core/types';
import { defaultLlmCacheDir, runLlm } from '../node/llm';
import { DirectoryCache } from '../node/llmCache';
import { CliError, parseDecimal, parseWholeNumber } from './input';

interface LlmIo {
  stderr: (s: string) => void;
  stdout: (s: string) => unknown;
  /** Whether stderr is a terminal (then a progress line is drawn). */
  stderrIsTty?: boolean;
}

const LLM_ONLY = ['llm-provider', 'llm-base-url', 'llm-model', 'llm-api-key-env', 'llm-concurrency', 'llm-timeout', 'llm-cache', 'llm-price-in', 'llm-price-out', 'llm-context-budget', 'llm-section-summaries', 'llm-no-structured-output', 'dry-run', 'llm-strict'];

/** The LLM settings from the flags (null without --llm); a flag of the LLM group without --llm is an error. */
export function llmSettingsFromFlags(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) {
  if (values.llm === undefined) {
    const stray = LLM_ONLY.find((f) => values[f] !== undefined);
    if (stray) throw new CliError(`--${stray} needs --llm <feature> (${LLM_FEATURE_NAMES.join(', ')})`);
    return null;
  }
  const feature = String(values.llm);
  if (!(LLM_FEATURE_NAMES as readonly string[]).includes(feature)) throw new CliError(`unknown --llm feature "${feature}"; use ${LLM_FEATURE_NAMES.join(', ')}`);
  const provider = values['llm-provider'] === undefined ? 'openai-compatible' : String(values['llm-provider']);
  if (provider !== 'openai-compatible') throw new CliError(`--llm-provider ${provider} is not available in the CLI; use openai-compatible`);
  const baseUrl = (values['llm-base-url'] as string | undefined) ?? env.OPENAI_BASE_URL;
  if (!baseUrl) throw new CliError('no endpoint: give --llm-base-url <url> (e.g. http://localhost:11434/v1) or set OPENAI_BASE_URL');
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new CliError(`--llm-base-url must be an http(s) URL (got "${baseUrl}")`);
  const model = values['llm-model'] as string | undefined;
  if (!model) throw new CliError('no model: give --llm-model <name>');
  const keyVar = (values['llm-api-key-env'] as string | undefined) ?? 'OPENAI_API_KEY';
  if (values['llm-api-key-env'] !== undefined && env[keyVar] === undefined) throw new CliError(`--llm-api-key-env ${keyVar}: that environment variable is not set`);
  const number = (flag: string, whole: boolean): number | undefined => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    const n = whole ? parseWholeNumber(`--${flag}`, String(raw)) : parseDecimal(`--${flag}`, String(raw));
    if (n < 0 || (whole && n < 1)) throw new CliError(`--${flag} must be ${whole ? 'at least 1' : 'zero or more'} (got ${raw})`);
    return n;
  };
  const cacheFlag = values['llm-cache'] as string | undefined;
  const cache: LlmCache | undefined = cacheFlag === 'none' ? undefined : new DirectoryCache(cacheFlag ?? defaultLlmCacheDir());
  const timeout = number('llm-timeout', false);
  if (timeout === 0) throw new CliError('--llm-timeout must be more than 0 seconds');
  const budget = number('llm-context-budget', true);
  const llm: LlmOptions = {
    feature,
    provider,
    baseUrl,
    model,
    apiKey: env[keyVar] || undefined,
    cache,
    concurrency: number('llm-concurrency', true),
    policy: timeout === undefined ? {} : { timeoutMs: timeout * 1000 },
    structuredOutput: values['llm-no-structured-output'] !== true,
    settings: { ...(budget ? { contextBudget: budget } : {}), ...(values['llm-section-summaries'] ? { sectionSummaries: true } : {}) },
  };
  const prices = { inputPerMillion: number('llm-price-in', false) ?? 0, outputPerMillion: number('llm-price-out', false) ?? 0 };
  return { llm, prices, dryRun: values['dry-run'] === true, strict: values['llm-strict'] === true };
}

export type LlmCliSettings = NonNullable<ReturnType<typeof llmSettingsFromFlags>>;

/** The estimate as JSON on stdout. */
export async function printEstimate(text: string, options: ChunkOptions, settings: LlmCliSettings, hooks: ChunkHooks, io: LlmIo): Promise<void> {
  const estimate = await estimateLlmRun(text, options, settings.llm, settings.prices, hooks);
  await io.stdout(JSON.stringify({ ...estimate, prices: { inputPerMillion: settings.prices.inputPerMillion, outputPerMillion: settings.prices.outputPerMillion } }, null, 2) + '\n');
}

/**
 * Runs the feature; returns its chunks, or null after printing the one fatal line (nothing succeeded, or --llm-strict
 * and something failed). The per-kind lines and the totals go to stderr either way.
 */
export async function runLlmForCli(text: string, options: ChunkOptions, settings: LlmCliSettings, hooks: ChunkHooks, io: LlmIo): Promise<Chunk[] | null> {
  const started = Date.now();
  const progress = io.stderrIsTty
    ? (done: number, total: number) => io.stderr(`\rchunkscope: llm ${settings.llm.feature}: ${done}/${total} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`)
    : undefined;
  const { chunks, report } = await runLlm(text, options, { ...settings.llm, onRequestDone: progress }, hooks);
  if (progress) io.stderr('\n');
  for (const line of failureLines(report)) io.stderr(`chunkscope: llm: ${line}\n`);
  io.stderr(`chunkscope: llm: ${totalsLine(report, settings.prices)}\n`);
  if (report.requests > 0 && report.succeeded === 0) {
    io.stderr(`chunkscope: llm: nothing succeeded: ${report.failures[0]?.reason ?? 'no answer'}\n`);
    return null;
  }
  if (settings.strict && report.failures.length > 0) {
    io.stderr(`chunkscope: llm: --llm-strict: ${report.failures.length} failure(s), the first: ${report.failures[0]!.reason}\n`);
    return null;
  }
  return chunks;
}

/** One line per kind of failure: its count and the first reason. */
export function failureLines(report: LlmRunReport): string[] {
  return Object.entries(report.failuresByKind).map(([kind, count]) => {
    const first = report.failures.find((f) => f.kind === kind);
    return `${count} × ${kind}: ${first?.reason ?? ''}`;
  });
}

function totalsLine(report: LlmRunReport, prices: LlmCliSettings['prices']): string {
  const money = (report.usage.input * prices.inputPerMillion + report.usage.output * prices.outputPerMillion) / 1e6;
  return (
    `${report.feature}: ${report.requests} requests (${report.cached} cached, ${report.sent} sent), ${report.succeeded} answered, ` +
    `${report.failed} failed; ${report.usage.input} input + ${report.usage.output} output tokens as reported, cost ${money.toFixed(4)}`
  );
}
