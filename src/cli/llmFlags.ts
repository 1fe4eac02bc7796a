/**
 * The CLI's LLM flags, one row each (flag, argument, help), from which parseArgs' configuration and --help are made.
 * They are not rows of the option table (src/core/optionRows.ts): those are chunking options that are also URL keys
 * and page controls, and an API key or an endpoint must never be a URL key or shape a chunk id.
 */
import type { ParseArgsConfig } from 'node:util';
import { LLM_FEATURE_NAMES } from '../core/llm/features/registry';
import { LLM_PROVIDER_NAMES } from '../core/llm/providers/registry';

interface LlmFlagRow {
  flag: string;
  arg?: string;
  boolean?: boolean;
  help: string;
}

export const LLM_FLAG_ROWS: readonly LlmFlagRow[] = [
  { flag: 'llm', arg: '<feature>', help: `an LLM feature over the chunks: ${LLM_FEATURE_NAMES.join(' | ')} (see docs/llm.md)` },
  { flag: 'llm-provider', arg: '<name>', help: `${LLM_PROVIDER_NAMES[0]} (default; the CLI has no built-in browser model)` },
  { flag: 'llm-base-url', arg: '<url>', help: 'the OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama (default: $OPENAI_BASE_URL)' },
  { flag: 'llm-model', arg: '<name>', help: 'the model the endpoint runs' },
  { flag: 'llm-api-key-env', arg: '<VAR>', help: 'the environment variable holding the API key (default: OPENAI_API_KEY); the key is never written anywhere' },
  { flag: 'llm-concurrency', arg: '<n>', help: 'requests at once (default 4)' },
  { flag: 'llm-timeout', arg: '<seconds>', help: 'per request (default 60)' },
  { flag: 'llm-cache', arg: '<dir|none>', help: 'where answers are kept, one file each (default: $XDG_CACHE_HOME/chunkscope/llm or ~/.cache/chunkscope/llm); none: keep nothing' },
  { flag: 'llm-price-in', arg: '<x>', help: 'money per million input tokens, for the estimate and the report (default 0: a local model)' },
  { flag: 'llm-price-out', arg: '<y>', help: 'money per million output tokens (default 0)' },
  { flag: 'llm-context-budget', arg: '<chars>', help: 'the most document characters one prompt holds (contextual and summaries: default 24000; boundaries: 16000 per window)' },
  { flag: 'llm-section-summaries', boolean: true, help: 'summaries: also one per top-level section' },
  { flag: 'llm-no-structured-output', boolean: true, help: 'do not send response_format json_schema (for servers that refuse it); JSON is still asked for in the prompt' },
  { flag: 'dry-run', boolean: true, help: 'print the estimate as JSON (requests, cl100k tokens, cached, money) and send nothing' },
  { flag: 'llm-strict', boolean: true, help: 'any failure (a request, an unsupported proposition, a repaired id) is fatal: exit 1' },
];

export const LLM_PARSE_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  LLM_FLAG_ROWS.map((r) => [r.flag, { type: r.boolean ? ('boolean' as const) : ('string' as const) }]),
);
