/**
 * How every request is sent: a timeout per attempt, the caller's AbortSignal (Cancel), bounded retries with
 * exponential backoff on 429 (honouring Retry-After) and 5xx, and a concurrency limit shared by one run.
 */
import { abortError as abortErrorOf, clearTimeout, newAbortController, setTimeout, sleep } from './timers';
import { LlmError, type AbortSignalLike, type LlmAnswer, type LlmClient, type LlmRequest } from './types';

export interface RequestPolicy {
  /** Per attempt, in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429 and 5xx (default 3). */
  retries?: number;
  /** The first backoff, doubled each retry (default 500 ms); Retry-After overrides it when longer. */
  backoffMs?: number;
  /** The longest wait between attempts (default 30 000 ms). */
  maxBackoffMs?: number;
}

const RETRYABLE = new Set(['http-429', 'http-5xx']);

/** At most `limit` tasks at once; the others wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError('concurrency must be at least 1');
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** One request under the policy: the answer, or an LlmError (an AbortError when `signal` aborts). */
export async function sendWithPolicy(
  client: LlmClient,
  request: LlmRequest,
  policy: RequestPolicy = {},
  signal?: AbortSignalLike,
  onRetry?: (error: LlmError, attempt: number) => void,
): Promise<LlmAnswer> {
  const retries = policy.retries ?? 3;
  const backoff = policy.backoffMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(client, request, policy.timeoutMs ?? 60_000, signal);
    } catch (err) {
      if (!(err instanceof LlmError) || !RETRYABLE.has(err.kind) || attempt >= retries) throw err;
      onRetry?.(err, attempt + 1);
      const wait = Math.min(policy.maxBackoffMs ?? 30_000, Math.max(backoff * 2 ** attempt, err.retryAfterMs ?? 0));
      await sleep(wait, signal);
    }
  }
}

async function attemptOnce(client: LlmClient, request: LlmRequest, timeoutMs: number, outer?: AbortSignalLike): Promise<LlmAnswer> {
  if (outer?.aborted) throw abortErrorOf();
  const controller = newAbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  try {
    return await client.complete(request, controller.signal);
  } catch (err) {
    if (timedOut) throw new LlmError('timeout', `no answer within ${(timeoutMs / 1000).toLocaleString('en-US')} s`);
    if (outer?.aborted) throw abortErrorOf();
    throw err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}
