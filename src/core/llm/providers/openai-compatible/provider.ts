/**
 * OpenAI-compatible chat completions: Ollama (http://localhost:11434/v1), LM Studio, llama.cpp's server, vLLM or a
 * hosted API. POST {baseUrl}/chat/completions; structured output through response_format json_schema when a schema
 * is given (servers that ignore it still get the schema described in the prompt by the feature).
 */
import { LlmError, type AbortSignalLike, type FetchLike, type LlmAnswer, type LlmClient, type LlmProviderDescriptor, type LlmProviderSettings, type LlmRequest } from '../../types';

export const openaiCompatible = {
  name: 'openai-compatible',
  label: 'OpenAI-compatible endpoint',
  help: 'any server with POST /chat/completions: Ollama, LM Studio, llama.cpp, vLLM, a hosted API',
  sendsText: true,
  create: (settings: LlmProviderSettings): LlmClient => new OpenAiCompatibleClient(settings),
} as const satisfies LlmProviderDescriptor<'openai-compatible'>;

interface ChatCompletion {
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

class OpenAiCompatibleClient implements LlmClient {
  readonly provider = 'openai-compatible';
  readonly model: string;
  readonly defaultConcurrency = 4;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly fetch: FetchLike;
  private readonly structured: boolean;

  constructor(settings: LlmProviderSettings) {
    // Settings errors, not request failures: plain Errors, thrown before anything is sent.
    if (!settings.baseUrl) throw new Error('no base URL: give one (e.g. http://localhost:11434/v1 for Ollama)');
    if (!settings.model) throw new Error('no model name: give the model the server should run');
    this.url = settings.baseUrl.replace(/\/+$/, '') + '/chat/completions';
    this.model = settings.model;
    this.apiKey = settings.apiKey || undefined;
    const fetch = settings.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (!fetch) throw new LlmError('unsupported', 'no fetch in this runtime');
    this.fetch = fetch;
    this.structured = settings.structuredOutput ?? true;
  }

  async complete(request: LlmRequest, signal: AbortSignalLike): Promise<LlmAnswer> {
    const messages = [...(request.system ? [{ role: 'system', content: request.system }] : []), { role: 'user', content: request.prompt }];
    const body: Record<string, unknown> = { model: this.model, messages, temperature: 0 };
    if (request.maxTokens) body.max_tokens = request.maxTokens;
    if (request.schema && this.structured) body.response_format = { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: request.schema } };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response;
    try {
      response = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw networkError(this.url, err);
    }
    const raw = await response.text().catch(() => '');
    if (!response.ok) throw this.scrubbed(httpError(response.status, response.statusText, raw, response.headers.get('retry-after')));
    let parsed: ChatCompletion;
    try {
      parsed = JSON.parse(raw) as ChatCompletion;
    } catch {
      throw new LlmError('invalid-json', `the server's reply is not a chat completion (${raw.slice(0, 60).replace(/\s+/g, ' ')}...)`);
    }
    const choice = parsed.choices?.[0];
    const text = choice?.message?.content ?? '';
    if (choice?.finish_reason === 'length') throw new LlmError('truncated', 'the answer was cut at the model\'s length limit');
    if (text.trim() === '') throw new LlmError('empty', 'the model answered nothing');
    const usage = parsed.usage ? { input: parsed.usage.prompt_tokens ?? 0, output: parsed.usage.completion_tokens ?? 0 } : undefined;
    return usage ? { text, usage } : { text };
  }

  /** A server may echo the key in its error message: never let it reach a report, stderr or a file. */
  private scrubbed(error: LlmError): LlmError {
    if (!this.apiKey || !error.message.includes(this.apiKey)) return error;
    return new LlmError(error.kind, error.message.split(this.apiKey).join('***'), error.retryAfterMs);
  }
}

/** fetch's TypeError: in Node the cause says refused/DNS; in a page a CORS refusal looks the same and has none. */
function networkError(url: string, err: unknown): LlmError {
  const cause = (err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })?.cause;
  const code = cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
  if (code) return new LlmError('network', `cannot reach ${url}: ${code}`);
  if (cause?.message) return new LlmError('unreachable', `cannot reach ${url}: ${cause.message}`);
  return new LlmError(
    'unreachable',
    `cannot reach ${url} (network or CORS: a local server must allow this page's origin, e.g. OLLAMA_ORIGINS, LM Studio's CORS switch, llama.cpp's --cors)`,
  );
}

function httpError(status: number, statusText: string, body: string, retryAfter: string | null): LlmError {
  const detail = serverMessage(body) ?? statusText;
  const line = `HTTP ${status}${detail ? ': ' + detail : ''}`;
  if (status === 401 || status === 403) return new LlmError('http-401', `${line} (check the API key)`);
  if (status === 429) return new LlmError('http-429', line, retryAfterMs(retryAfter));
  if (status >= 500) return new LlmError('http-5xx', line, retryAfterMs(retryAfter));
  return new LlmError('http-4xx', line);
}

/** The error message OpenAI-style servers put in {error: {message}} (or {error: "..."}), one line, short. */
function serverMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    return message ? message.split('\n')[0]!.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (an HTTP date is rare from these servers: ignored). */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.round(Number(value) * 1000);
}
