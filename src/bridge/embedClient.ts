import type { ChunkOptions } from '../core/types';
import type { ExportFormat } from '../worker/protocol';
import type { EmbedderSummary, EmbedRequest, EmbedResponse, EmbedSettings, LocalModelFiles, SemanticPayload } from '../worker/embedProtocol';
import { StaleJobError, type ChunkResult } from './chunkClient';

/**
 * Main-thread client of the embedding worker. Like the chunk client, every request has a job id and the newest
 * wins (an older promise rejects with StaleJobError; its result, if it still comes, is dropped). Unlike it, the
 * worker is never killed to cancel: loading a model costs seconds, so `cancel()` stops the running embedding by id.
 * If the worker dies (out of memory), the running job fails with a clear message and the next job starts a new one.
 */

export type SemanticResult = ChunkResult & { semantic: SemanticPayload };
export type BackendInfo = Pick<EmbedderSummary, 'backend' | 'threads' | 'isolated'>;
export type { EmbedderSummary, LocalModelFiles, SemanticPayload };
// The model catalogue is static data the page lists; it reaches state and UI through the bridge.
export { embedderCatalogue, findEmbedderModel, formatBytes, type EmbedderModel } from '../embed/hub';

export interface EmbedWorkerLike {
  postMessage(message: EmbedRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<EmbedResponse>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

export class EmbedJobError extends Error {
  override readonly name = 'EmbedJobError';
  constructor(
    message: string,
    readonly jobId: number,
    readonly invalidOptions: boolean,
    readonly cancelled: boolean,
  ) {
    super(message);
  }
}

export interface SemanticCallbacks {
  onProgress?: (stage: 'embedding' | 'loading', fraction: number) => void;
  onDownload?: (file: string, loaded: number, total: number) => void;
  /** A hub model failed; the page should switch to the built-in one. */
  onFallback?: (message: string) => void;
}

interface Job extends SemanticCallbacks {
  jobId: number;
  resolve: (r: SemanticResult) => void;
  reject: (e: Error) => void;
}

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export class EmbedClient {
  private worker: EmbedWorkerLike | null = null;
  /** Ids apart from the chunk client's (which start at 1), so a painted job id names one job of one worker. */
  private nextJobId = 1_000_001;
  private nextRequestId = 1;
  private current: Job | null = null;
  private document: { version: number; text: string } | null = null;
  private readonly tokenRequests = new Map<number, Pending<{ tokens: Int32Array; encoding: string }>>();
  private readonly exportRequests = new Map<number, Pending<string>>();
  private readonly lateRequests = new Map<number, Pending<{ naive: Float64Array; late: Float64Array; note: string | null }>>();
  private readonly localModelWaiters: Pending<{ id: string; message: string }>[] = [];
  /** Backend reported by the worker once a model is loaded. */
  backend: BackendInfo | null = null;
  onBackend: ((b: BackendInfo) => void) | null = null;
  /** Embedder token counts of a job's chunks, sent after its result. */
  onEmbedderTokens: ((t: { jobId: number; counts: Int32Array; truncatedAt: Int32Array }) => void) | null = null;

  constructor(private readonly createWorker: () => EmbedWorkerLike) {}

  get latestJobId(): number {
    return this.nextJobId - 1;
  }

  /** The worker starts on first use: a page that never chooses semantic never loads the runtime. */
  private ensure(): EmbedWorkerLike {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.onmessage = (event) => this.onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.crashed(event.message || 'unknown error');
    };
    this.worker = worker;
    if (this.document) worker.postMessage({ type: 'document', ...this.document });
    return worker;
  }

  setDocument(version: number, text: string): void {
    this.document = { version, text };
    // Only a started worker needs it now; a later start sends it.
    this.worker?.postMessage({ type: 'document', version, text });
  }

  semantic(options: ChunkOptions, settings: EmbedSettings, callbacks: SemanticCallbacks = {}): Promise<SemanticResult> {
    const worker = this.ensure();
    const jobId = this.nextJobId++;
    const version = this.document?.version ?? -1;
    if (this.current) {
      this.current.reject(new StaleJobError(this.current.jobId));
      this.current = null;
    }
    return new Promise<SemanticResult>((resolve, reject) => {
      this.current = { jobId, resolve, reject, ...callbacks };
      worker.postMessage({ type: 'semantic', jobId, version, options, settings });
    });
  }

  /** Stop the running embedding (the page keeps its last good result). */
  cancel(): void {
    if (this.current && this.worker) this.worker.postMessage({ type: 'cancel', jobId: this.current.jobId });
  }

  tokens(jobId: number): Promise<{ tokens: Int32Array; encoding: string }> {
    const worker = this.ensure();
    return new Promise((resolve, reject) => {
      this.tokenRequests.set(jobId, { resolve, reject });
      worker.postMessage({ type: 'tokens', jobId });
    });
  }

  exportChunks(jobId: number, version: number, format: ExportFormat): Promise<string> {
    const worker = this.ensure();
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.exportRequests.set(requestId, { resolve, reject });
      worker.postMessage({ type: 'export', requestId, jobId, version, format });
    });
  }

  late(jobId: number, query: string): Promise<{ naive: Float64Array; late: Float64Array; note: string | null }> {
    const worker = this.ensure();
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.lateRequests.set(requestId, { resolve, reject });
      worker.postMessage({ type: 'late', requestId, jobId, query });
    });
  }

  /** Hand a picked model folder to the worker; resolves with the embedder id to select ("local/<name>"). */
  addLocalModel(model: LocalModelFiles): Promise<{ id: string; message: string }> {
    const worker = this.ensure();
    return new Promise((resolve, reject) => {
      this.localModelWaiters.push({ resolve, reject });
      worker.postMessage({ type: 'local-model', model });
    });
  }

  private crashed(reason: string): void {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
    }
    const message = /memory/i.test(reason)
      ? 'The embedding worker ran out of memory; showing the last good result.'
      : `The embedding worker stopped (${reason}); showing the last good result.`;
    const job = this.current;
    this.current = null;
    job?.reject(new EmbedJobError(message, job.jobId, false, false));
    const failure = new Error(message);
    for (const map of [this.tokenRequests, this.exportRequests, this.lateRequests] as Map<number, Pending<never>>[]) {
      for (const [, p] of map) p.reject(failure);
      map.clear();
    }
    for (const w of this.localModelWaiters.splice(0)) w.reject(failure);
  }

  private onMessage(message: EmbedResponse): void {
    const job = this.current;
    switch (message.type) {
      case 'ready':
        return;
      case 'backend':
        this.backend = { backend: message.backend, threads: message.threads, isolated: message.isolated };
        this.onBackend?.(this.backend);
        return;
      case 'progress':
        if (job?.jobId === message.jobId) job.onProgress?.(message.stage, message.fraction);
        return;
      case 'download':
        if (job?.jobId === message.jobId) job.onDownload?.(message.file, message.loaded, message.total);
        return;
      case 'fallback':
        if (job?.jobId === message.jobId) job.onFallback?.(message.message);
        return;
      case 'result':
      case 'error': {
        if (!job || job.jobId !== message.jobId) return; // superseded: never painted
        this.current = null;
        if (message.type === 'result') {
          const { type: _type, ...result } = message;
          job.resolve(result);
        } else {
          job.reject(new EmbedJobError(message.message, job.jobId, message.invalidOptions, message.cancelled ?? false));
        }
        return;
      }
      case 'embedder-tokens':
        this.onEmbedderTokens?.({ jobId: message.jobId, counts: message.counts, truncatedAt: message.truncatedAt });
        return;
      case 'tokens': {
        const p = this.tokenRequests.get(message.jobId);
        this.tokenRequests.delete(message.jobId);
        p?.resolve({ tokens: message.tokens, encoding: message.encoding });
        return;
      }
      case 'exported':
      case 'export-error': {
        const p = this.exportRequests.get(message.requestId);
        this.exportRequests.delete(message.requestId);
        if (message.type === 'exported') p?.resolve(message.text);
        else p?.reject(new Error(message.message));
        return;
      }
      case 'late':
      case 'late-error': {
        const p = this.lateRequests.get(message.requestId);
        this.lateRequests.delete(message.requestId);
        if (message.type === 'late') p?.resolve({ naive: message.naive, late: message.late, note: message.note });
        else p?.reject(new Error(message.message));
        return;
      }
      case 'local-model': {
        const w = this.localModelWaiters.shift();
        if (message.ok) w?.resolve({ id: message.id, message: message.message });
        else w?.reject(new Error(message.message));
        return;
      }
    }
  }
}
