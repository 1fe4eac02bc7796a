import type { EmbedderSummary, EmbedEvents, EmbedMainApi, LateAnswer, LocalModelFiles, SemanticPayload } from '../worker/embedProtocol';
import { rpcClient, type Endpoint, type RpcClient } from '../worker/rpc';
import type { ChunkResult } from './chunkClient';

/**
 * Main-thread client of the embedding worker. Semantic jobs are ordinary chunk jobs (src/bridge/chunkClient.ts: one
 * job counter, newest wins); the chunk worker asks this worker for vectors over a MessagePort that `port()` makes,
 * so vectors never pass through the main thread. This client only starts the worker (on first use: a page that never
 * chooses semantic never loads the runtime), hands it the ports, relays its events (backend, progress, downloads,
 * fallback) and cancels embeddings by job id — the worker is never killed to cancel: loading a model costs seconds.
 * If the worker dies (out of memory), `onCrash` says so and the next use starts a new one.
 */

export type SemanticResult = ChunkResult & { semantic: SemanticPayload };
export type BackendInfo = EmbedEvents['backend'];
export type { EmbedderSummary, LocalModelFiles, SemanticPayload, LateAnswer };
// The model catalogue is static data the page lists; it reaches state and UI through the bridge.
export { embedderCatalogue, findEmbedderModel, formatBytes, type EmbedderModel } from '../embed/hub';

export interface EmbedWorkerLike extends Endpoint {
  terminate(): void;
  onerror: ((event: ErrorEvent) => void) | null;
}

export interface EmbedClientEvents {
  onBackend?: (b: BackendInfo) => void;
  onProgress?: (p: EmbedEvents['progress']) => void;
  onDownload?: (d: EmbedEvents['download']) => void;
  /** A hub model failed; the page should switch to the built-in one. */
  onFallback?: (f: EmbedEvents['fallback']) => void;
  onNotice?: (n: EmbedEvents['notice']) => void;
  /** The worker died: what waited on it failed with `message`; the next use starts a fresh worker. */
  onCrash?: (message: string) => void;
}

export class EmbedClient {
  private worker: EmbedWorkerLike | null = null;
  private rpc: RpcClient<EmbedMainApi> | null = null;
  /** The port for the current chunk worker, until the embedding worker starts and takes it. */
  private waitingPort: MessagePort | null = null;
  /** Backend reported by the worker once a model is loaded. */
  backend: BackendInfo | null = null;
  events: EmbedClientEvents = {};

  constructor(private readonly createWorker: () => EmbedWorkerLike) {}

  get started(): boolean {
    return this.worker !== null;
  }

  /** Start the worker if it is not running (idempotent); a waiting port goes to it. */
  ensure(): RpcClient<EmbedMainApi> {
    if (this.rpc) return this.rpc;
    const worker = this.createWorker();
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.crashed(event.message || 'unknown error');
    };
    this.worker = worker;
    this.rpc = rpcClient<EmbedMainApi>(worker, (name, data) => this.onEvent(name as keyof EmbedEvents, data));
    if (this.waitingPort) this.give(this.waitingPort);
    this.waitingPort = null;
    return this.rpc;
  }

  /**
   * A port for a (re)started chunk worker: its other end is served by the embedding worker, now or when it starts.
   * Messages sent on it before then wait in the port.
   */
  port(): MessagePort {
    const channel = new MessageChannel();
    if (this.rpc) this.give(channel.port2);
    else this.waitingPort = channel.port2;
    return channel.port1;
  }

  /** Stop the embedding job `jobId` (or an earlier one) waits on; the page keeps its last good result. */
  cancel(jobId: number, signal?: AbortSignal): Promise<void> {
    if (!this.rpc) return Promise.resolve();
    return this.rpc.call('cancel', { jobId }, { signal });
  }

  /** Late chunking: each chunk's similarity with `query`, naive and late-chunked (the text travels, not vectors). */
  late(input: Parameters<EmbedMainApi['late']>[0], signal?: AbortSignal): Promise<LateAnswer> {
    return this.ensure().call('late', input, { signal });
  }

  /** Hand a picked model folder to the worker; resolves with the embedder id to select ("local/<name>"). */
  addLocalModel(model: LocalModelFiles, signal?: AbortSignal): Promise<{ id: string; message: string }> {
    return this.ensure().call('addLocalModel', model, { signal });
  }

  private give(port: MessagePort): void {
    this.rpc!.call('connect', { port }, { transfer: [port] }).catch(() => {});
  }

  private onEvent(name: keyof EmbedEvents, data: unknown): void {
    const e = this.events;
    switch (name) {
      case 'backend':
        this.backend = data as BackendInfo;
        e.onBackend?.(this.backend);
        return;
      case 'progress':
        e.onProgress?.(data as EmbedEvents['progress']);
        return;
      case 'download':
        e.onDownload?.(data as EmbedEvents['download']);
        return;
      case 'fallback':
        e.onFallback?.(data as EmbedEvents['fallback']);
        return;
      case 'notice':
        e.onNotice?.(data as EmbedEvents['notice']);
        return;
    }
  }

  private crashed(reason: string): void {
    const worker = this.worker;
    const rpc = this.rpc;
    this.worker = null;
    this.rpc = null;
    if (worker) {
      worker.onerror = null;
      worker.terminate();
    }
    const message = /memory/i.test(reason)
      ? 'The embedding worker ran out of memory; showing the last good result.'
      : `The embedding worker stopped (${reason}); showing the last good result.`;
    rpc?.close(new Error(message));
    this.events.onCrash?.(message);
  }
}
