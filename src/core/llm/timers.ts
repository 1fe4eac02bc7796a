/**
 * The timer and abort globals the layer uses: present in Node 20, browsers and workers, declared here because the
 * engine is built without the DOM lib or Node's types.
 */
import type { AbortSignalLike } from './types';

interface TimerGlobals {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  AbortController: new () => { signal: AbortSignalLike; abort(): void };
}
const platform = globalThis as unknown as TimerGlobals;

export function setTimeout(callback: () => void, ms: number): unknown {
  return platform.setTimeout(callback, ms);
}

export function clearTimeout(handle: unknown): void {
  platform.clearTimeout(handle);
}

/** An abort controller (the platform's). */
export function newAbortController(): { signal: AbortSignalLike; abort(): void } {
  return new platform.AbortController();
}

/** Waits `ms`, or rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(handle);
      reject(abortError());
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): Error {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}
