/**
 * One typed request/response helper for every worker boundary (page ↔ chunk worker, page ↔ embedding worker, chunk
 * worker ↔ embedding worker over a MessagePort). A call gets an id; its answer settles that call's promise; every call
 * takes an AbortSignal (aborting rejects at once with an AbortError and tells the other side, whose handler sees its
 * own signal turn aborted); the serving side can send one-way events. No pending maps anywhere else.
 *
 * `M` is an interface of methods, each taking one input and returning a promise: `{ chunk(i: In): Promise<Out> }`.
 */

/** What a Worker, a worker's `self` and a MessagePort have in common. */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  start?: () => void;
}

type Method = (input: never) => Promise<unknown>;
export type Input<F> = F extends (input: infer I) => Promise<unknown> ? I : never;
export type Output<F> = F extends (input: never) => Promise<infer O> ? O : never;

export interface CallContext {
  /** Aborted when the caller aborts (or gives up on) this call. */
  signal: AbortSignal;
}
export type Handlers<M> = { [K in keyof M]: (input: Input<M[K]>, ctx: CallContext) => Promise<Output<M[K]>> | Output<M[K]> };

export interface CallOptions {
  signal?: AbortSignal;
  transfer?: Transferable[];
}

type Wire =
  | { rpc: 'call'; id: number; method: string; input: unknown }
  | { rpc: 'ok'; id: number; value: unknown }
  | { rpc: 'err'; id: number; error: { name: string; message: string; data?: Record<string, unknown> } }
  | { rpc: 'cancel'; id: number }
  | { rpc: 'event'; name: string; data: unknown };

/** An error thrown by the other side: its name, message and own fields (e.g. `field`, `cancelled`) survive. */
export class RemoteError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function abortError(message = 'aborted'): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

const transfers = new WeakMap<object, Transferable[]>();
/** Mark a handler's return value (or an event's data) to be sent with these buffers transferred, not copied. */
export function withTransfer<T extends object>(value: T, list: Transferable[]): T {
  transfers.set(value, list);
  return value;
}

function errorData(error: unknown): { name: string; message: string; data?: Record<string, unknown> } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(error)) if (typeof v !== 'function' && typeof v !== 'object') data[k] = v;
  return { name: error.name, message: error.message, data };
}

/** The calling side of `endpoint`. `close()` rejects every pending call (the worker was terminated or crashed). */
export function rpcClient<M>(endpoint: Endpoint, onEvent?: (name: string, data: unknown) => void) {
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const listener = (event: MessageEvent) => {
    const m = event.data as Wire;
    if (m?.rpc === 'event') onEvent?.(m.name, m.data);
    if (m?.rpc !== 'ok' && m?.rpc !== 'err') return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.rpc === 'ok') p?.resolve(m.value);
    else p?.reject(new RemoteError(m.error.name, m.error.message, m.error.data));
  };
  endpoint.addEventListener('message', listener);
  endpoint.start?.();
  /** The call, its answer delivered to `done` synchronously when the message arrives (no promise tick between). */
  function send<K extends keyof M & string>(
    method: K,
    input: Input<M[K]>,
    done: (error: Error | null, value?: Output<M[K]>) => void,
    options: CallOptions = {},
  ): void {
    const { signal } = options;
    if (signal?.aborted) return done(abortError());
    const id = nextId++;
    const onAbort = () => {
      if (!pending.delete(id)) return;
      endpoint.postMessage({ rpc: 'cancel', id } satisfies Wire);
      done(abortError());
    };
    const clean = () => signal?.removeEventListener('abort', onAbort);
    pending.set(id, {
      resolve: (v) => (clean(), done(null, v as Output<M[K]>)),
      reject: (e) => (clean(), done(e)),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    endpoint.postMessage({ rpc: 'call', id, method, input } satisfies Wire, options.transfer ?? []);
  }
  return {
    send,
    call<K extends keyof M & string>(method: K, input: Input<M[K]>, options: CallOptions = {}): Promise<Output<M[K]>> {
      return new Promise<Output<M[K]>>((resolve, reject) => send(method, input, (error, value) => (error ? reject(error) : resolve(value!)), options));
    },
    /** Calls not yet answered. */
    get pending(): number {
      return pending.size;
    },
    close(reason: Error): void {
      endpoint.removeEventListener('message', listener);
      const calls = [...pending.values()];
      pending.clear();
      for (const p of calls) p.reject(reason);
    },
  };
}
export type RpcClient<M> = ReturnType<typeof rpcClient<M>>;

/** The serving side: runs `handlers[method]` for each call on `endpoint`; `emit` sends an event to the caller. */
export function rpcServe<M>(endpoint: Endpoint, handlers: Handlers<M>) {
  const running = new Map<number, AbortController>();
  const reply = (message: Wire, value?: unknown) => {
    const list = value && typeof value === 'object' ? transfers.get(value) : undefined;
    endpoint.postMessage(message, list ?? []);
  };
  endpoint.addEventListener('message', (event: MessageEvent) => {
    const m = event.data as Wire;
    if (m?.rpc === 'cancel') running.get(m.id)?.abort();
    if (m?.rpc !== 'call') return;
    const handler = (handlers as Record<string, (input: unknown, ctx: CallContext) => unknown>)[m.method];
    const controller = new AbortController();
    running.set(m.id, controller);
    void (async () => {
      try {
        if (!handler) throw new Error(`no method ${m.method}`);
        const value = await handler(m.input, { signal: controller.signal });
        reply({ rpc: 'ok', id: m.id, value }, value);
      } catch (error) {
        reply({ rpc: 'err', id: m.id, error: errorData(error) });
      } finally {
        running.delete(m.id);
      }
    })();
  });
  endpoint.start?.();
  return {
    emit(name: string, data: unknown): void {
      reply({ rpc: 'event', name, data }, data);
    },
  };
}
