/**
 * The LLM layer's shared types: what a provider is asked (a prompt, optionally a JSON schema for the answer), what
 * it answers, and how it fails. A leaf: every other file of src/core/llm imports it; it imports nothing.
 */

/** Why a request failed, one kind per cause a user can act on. */
export type LlmErrorKind =
  | 'network' // the host did not answer (refused, DNS, reset)
  | 'unreachable' // fetch failed without a network cause: CORS in a page, or a blocked host
  | 'http-401' // the key is missing or wrong
  | 'http-4xx' // any other client error (bad model name, bad request)
  | 'http-5xx' // the server failed
  | 'http-429' // rate limited, still after the retries
  | 'timeout' // no answer within the timeout
  | 'aborted' // the caller cancelled
  | 'invalid-json' // the answer holds no JSON value of the shape asked for
  | 'empty' // the answer is empty
  | 'truncated' // the model stopped at its length limit
  | 'unsupported'; // the provider is not there (no LanguageModel in this browser)

/** A failed request: `message` is one line that says why; `kind` counts it. */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  /** 429 and 503: the server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;
  constructor(kind: LlmErrorKind, message: string, retryAfterMs?: number) {
    super(message.split('\n')[0]);
    this.name = 'LlmError';
    this.kind = kind;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** The AbortSignal fields the layer reads (core is built without the DOM lib). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** One request to a model: a system line, the user prompt, and, when the answer must be JSON, its schema. */
export interface LlmRequest {
  system?: string;
  prompt: string;
  /** A JSON schema for the answer (structured output where the provider has it; else the prompt asks for JSON). */
  schema?: Record<string, unknown>;
  /** The most tokens the answer may take. */
  maxTokens?: number;
}

export interface LlmAnswer {
  text: string;
  /** Token counts as the server reports them, when it does. */
  usage?: { input: number; output: number };
}

/** A provider ready to answer: made by a descriptor's `create` from its settings. */
export interface LlmClient {
  /** The provider's name and the model: part of every cache key. */
  readonly provider: string;
  readonly model: string;
  /** Concurrent requests allowed by default (4 for endpoints, 1 for the in-browser model). */
  readonly defaultConcurrency: number;
  complete(request: LlmRequest, signal: AbortSignalLike): Promise<LlmAnswer>;
}

/** The fetch the layer needs (globalThis.fetch in Node 20 and browsers; tests may pass their own). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignalLike },
) => Promise<{ ok: boolean; status: number; statusText: string; headers: { get(name: string): string | null }; text(): Promise<string> }>;

/** Settings any provider may read; each descriptor says which it needs. */
export interface LlmProviderSettings {
  baseUrl?: string;
  model?: string;
  /** Kept in memory only: never part of a cache key, an output or a file. */
  apiKey?: string;
  fetch?: FetchLike;
  /** Prompt API: the LanguageModel object (globalThis.LanguageModel in Chrome; a stub in tests). */
  languageModel?: unknown;
  /** Prompt API: the model's download progress in [0, 1] while the browser fetches it. */
  onDownloadProgress?: (fraction: number) => void;
  /** transformers-js: a factory from model id to a text-generation pipeline (default: @huggingface/transformers). */
  textGeneration?: unknown;
  /** Ask for structured output (response_format json_schema); default true. */
  structuredOutput?: boolean;
}

/** A provider: one folder under ./providers, one line in ./providers/registry.ts. */
export interface LlmProviderDescriptor<Name extends string = string> {
  name: Name;
  label: string;
  help: string;
  /** Whether text leaves the machine when the endpoint is not on loopback (false for in-browser models). */
  sendsText: boolean;
  create(settings: LlmProviderSettings): LlmClient;
}
