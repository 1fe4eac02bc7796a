import type { ChunkOptions } from '../core/types';
import type { ChunkResultPayload, ExportFormat, WorkerRequest, WorkerResponse } from '../worker/protocol';

/**
 * Main-thread client of the chunk worker.
 * - Every chunk request gets a job id; the newest request wins. A superseded or aborted request rejects with
 *   a StaleJobError and its result, if it still arrives, is dropped: it can never be painted.
 * - At most one job runs in the worker; a newer request waits for it, unless the running job has taken longer
 *   than `restartAfterMs`: then the worker is terminated (the only way to stop synchronous work) and restarted
 *   with the current document.
 */

export type ChunkResult = ChunkResultPayload;

/** The part of a Worker the client uses (a real Worker in the page, a fake in tests). */
export interface WorkerLike {
  postMessage(message: WorkerRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<WorkerResponse>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

export class StaleJobError extends Error {
  override readonly name = 'StaleJobError';
  constructor(readonly jobId: number) {
    super(`job ${jobId} was superseded`);
  }
}

/** The engine refused the options (or failed); `invalidOptions` marks a one-line validation message. */
export class ChunkJobError extends Error {
  override readonly name = 'ChunkJobError';
  constructor(
    message: string,
    readonly jobId: number,
    readonly invalidOptions: boolean,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface ChunkCallOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

interface Job {
  jobId: number;
  version: number;
  options: ChunkOptions;
  onProgress?: (fraction: number) => void;
  resolve: (result: ChunkResult) => void;
  reject: (error: Error) => void;
  sentAt: number;
  cleanup: () => void;
}

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export interface ChunkClientOptions {
  /** A running job older than this is killed (worker restarted) when a newer request arrives. */
  restartAfterMs?: number;
  now?: () => number;
}

export class ChunkClient {
  private worker: WorkerLike;
  private nextJobId = 1;
  private nextRequestId = 1;
  private running: Job | null = null;
  private queued: Job | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private document: { version: number; text: string } | null = null;
  private readonly tokenRequests = new Map<number, Pending<{ tokens: Int32Array; encoding: string }>>();
  private readonly exportRequests = new Map<number, Pending<string>>();
  private readonly restartAfterMs: number;
  private readonly now: () => number;
  /** How many times the worker was restarted to cancel work (shown in tests and diagnostics). */
  restarts = 0;

  constructor(
    private readonly createWorker: () => WorkerLike,
    options: ChunkClientOptions = {},
  ) {
    this.restartAfterMs = options.restartAfterMs ?? 250;
    this.now = options.now ?? (() => performance.now());
    this.worker = this.spawn();
  }

  /** The newest job id handed out (the one whose result may be painted next). */
  get latestJobId(): number {
    return this.nextJobId - 1;
  }

  setDocument(version: number, text: string): void {
    this.document = { version, text };
    this.worker.postMessage({ type: 'document', version, text });
  }

  /** Chunk the current document. Supersedes every earlier call. */
  chunk(options: ChunkOptions, call: ChunkCallOptions = {}): Promise<ChunkResult> {
    const jobId = this.nextJobId++;
    const version = this.document?.version ?? -1;
    return new Promise<ChunkResult>((resolve, reject) => {
      if (call.signal?.aborted) {
        reject(new StaleJobError(jobId));
        return;
      }
      const onAbort = () => this.drop(job);
      const job: Job = {
        jobId,
        version,
        options,
        onProgress: call.onProgress,
        resolve,
        reject,
        sentAt: 0,
        cleanup: () => call.signal?.removeEventListener('abort', onAbort),
      };
      call.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.queued) this.settle(this.queued, new StaleJobError(this.queued.jobId));
      if (this.running) {
        this.queued = job;
        this.scheduleRestartCheck();
      } else {
        this.send(job);
      }
    });
  }

  /** Token counts of a finished job's chunks (for tooltips). */
  tokens(jobId: number): Promise<{ tokens: Int32Array; encoding: string }> {
    return new Promise((resolve, reject) => {
      this.tokenRequests.set(jobId, { resolve, reject });
      this.worker.postMessage({ type: 'tokens', jobId });
    });
  }

  /**
   * formatChunks output for a job's chunks. The worker recomputes them if it no longer holds them and the
   * document is still at `version` (the version that job ran on); otherwise the export fails.
   */
  exportChunks(jobId: number, version: number, options: ChunkOptions, format: ExportFormat): Promise<string> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.exportRequests.set(requestId, { resolve, reject });
      this.worker.postMessage({ type: 'export', requestId, jobId, version, options, format });
    });
  }

  dispose(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.worker.terminate();
    this.failAll(new Error('chunk client disposed'));
  }

  private spawn(): WorkerLike {
    const worker = this.createWorker();
    worker.onmessage = (event) => this.onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.restart(new Error(`chunk worker failed: ${event.message || 'unknown error'}`));
    };
    return worker;
  }

  private send(job: Job): void {
    // The worker abandons token counts for older jobs once a newer job arrives: settle those requests now.
    for (const [jobId, pending] of this.tokenRequests) {
      if (jobId < job.jobId) {
        pending.reject(new StaleJobError(jobId));
        this.tokenRequests.delete(jobId);
      }
    }
    this.running = job;
    job.sentAt = this.now();
    this.worker.postMessage({ type: 'chunk', jobId: job.jobId, version: job.version, options: job.options });
  }

  private settle(job: Job, outcome: Error | ChunkResult): void {
    job.cleanup();
    if (this.queued === job) this.queued = null;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }

  /** Abort: a queued job never starts; a running job's result will be ignored. */
  private drop(job: Job): void {
    if (this.queued === job) {
      this.settle(job, new StaleJobError(job.jobId));
    } else if (this.running === job) {
      // Keep `running` set so the worker is not handed a second job; its answer is discarded on arrival.
      job.cleanup();
      job.reject(new StaleJobError(job.jobId));
      job.resolve = () => {};
      job.reject = () => {};
    }
  }

  private scheduleRestartCheck(): void {
    if (this.restartTimer || !this.running) return;
    const age = this.now() - this.running.sentAt;
    const wait = Math.max(0, this.restartAfterMs - age);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.running && this.queued && this.now() - this.running.sentAt >= this.restartAfterMs) {
        this.restart(new StaleJobError(this.running.jobId));
      }
    }, wait);
  }

  /** Kill the worker (cancelling whatever it runs), start a fresh one with the document, run the queued job. */
  private restart(reason: Error): void {
    this.restarts++;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
    const running = this.running;
    this.running = null;
    if (running) {
      running.cleanup();
      running.reject(reason instanceof StaleJobError ? new StaleJobError(running.jobId) : reason);
    }
    for (const [, pending] of this.tokenRequests) pending.reject(new Error('chunk worker restarted'));
    this.tokenRequests.clear();
    for (const [, pending] of this.exportRequests) pending.reject(new Error('chunk worker restarted; try again'));
    this.exportRequests.clear();
    this.worker = this.spawn();
    if (this.document) this.worker.postMessage({ type: 'document', ...this.document });
    const next = this.queued;
    this.queued = null;
    if (next) this.send(next);
  }

  private finishRunning(): void {
    this.running = null;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    const next = this.queued;
    this.queued = null;
    if (next) this.send(next);
  }

  private onMessage(message: WorkerResponse): void {
    switch (message.type) {
      case 'ready':
        return;
      case 'progress':
        if (this.running?.jobId === message.jobId && !this.queued) this.running.onProgress?.(message.fraction);
        return;
      case 'result':
      case 'error': {
        const job = this.running;
        if (!job || job.jobId !== message.jobId) return; // an answer for a job we already gave up on
        const superseded = this.queued !== null;
        this.finishRunning();
        job.cleanup();
        if (superseded) {
          job.reject(new StaleJobError(job.jobId));
        } else if (message.type === 'result') {
          const { type: _type, ...result } = message;
          job.resolve(result);
        } else {
          job.reject(new ChunkJobError(message.message, job.jobId, message.invalidOptions, message.field));
        }
        return;
      }
      case 'tokens': {
        const pending = this.tokenRequests.get(message.jobId);
        this.tokenRequests.delete(message.jobId);
        pending?.resolve({ tokens: message.tokens, encoding: message.encoding });
        return;
      }
      case 'exported':
      case 'export-error': {
        const pending = this.exportRequests.get(message.requestId);
        this.exportRequests.delete(message.requestId);
        if (message.type === 'exported') pending?.resolve(message.text);
        else pending?.reject(new Error(message.message));
        return;
      }
    }
  }

  private failAll(error: Error): void {
    if (this.running) this.settle(this.running, error);
    if (this.queued) this.settle(this.queued, error);
    this.running = null;
    this.queued = null;
    for (const [, p] of this.tokenRequests) p.reject(error);
    for (const [, p] of this.exportRequests) p.reject(error);
    this.tokenRequests.clear();
    this.exportRequests.clear();
  }
}

/** The page's client: a module worker built by Vite. */
export function createChunkClient(options?: ChunkClientOptions): ChunkClient {
  return new ChunkClient(
    () => new Worker(new URL('../worker/chunk.worker.ts', import.meta.url), { type: 'module', name: 'chunkscope-chunk' }) as unknown as WorkerLike,
    options,
  );
}
