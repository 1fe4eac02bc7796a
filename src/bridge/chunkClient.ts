import type { ChunkOptions } from '../core/types';
import type {
  ChunkWorkerApi,
  ChunkWorkerEvents,
  ChunkWorkerResult,
  EmbedderTokensPayload,
  ExportFormat,
  LabEvaluateInput,
  LabEvaluatePayload,
  LabSettings,
  ProbePayload,
  ProbeRequest,
  TokenCountsPayload,
} from '../worker/protocol';
import { chunkWorker } from './chunkWorker';
import { RemoteError, rpcClient, type Endpoint, type RpcClient } from '../worker/rpc';

/**
 * Main-thread client of the chunk worker.
 * - Every chunk request gets a job id; the newest request wins. A superseded or aborted request rejects with
 *   a StaleJobError and its result, if it still arrives, is dropped: it can never be painted.
 * - At most one job runs in the worker; a newer request waits for it (and tells the worker, so a job that only
 *   waits on embeddings stops at once), unless the running job has taken longer than `restartAfterMs`: then the
 *   worker is terminated (the only way to stop synchronous work) and restarted with the current document.
 * - Calls go through src/worker/rpc.ts (ids, AbortSignal); a restart rejects whatever was pending on the old worker.
 * - A large document goes to the worker in parts, one message per task; jobs (and calls that read the document) are
 *   posted after its last part.
 */

/** Characters per message of a document sent in parts: one structured clone of a 10 MiB string blocks the page for
 * 20-30 ms here, a part of 1 Mi characters a few milliseconds. */
export const DOCUMENT_PART_CHARS = 1 << 20;

export type ChunkResult = ChunkWorkerResult;

/** The part of a Worker the client uses (a real Worker in the page, a MessagePort or a fake in tests). */
export interface WorkerLike extends Endpoint {
  terminate(): void;
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
    /** The user cancelled the embedding the job waited on (the last good result stays). */
    readonly cancelled = false,
  ) {
    super(message);
  }
}

export interface ChunkCallOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Rank this query over the new chunks in the same job (the answer's `probe`). */
  probe?: ProbeRequest;
}

interface Job {
  jobId: number;
  version: number;
  options: ChunkOptions;
  probe?: ProbeRequest;
  onProgress?: (fraction: number) => void;
  resolve: (result: ChunkResult) => void;
  reject: (error: Error) => void;
  /** Posted to the worker (not still waiting for the document's last part), and when. */
  posted: boolean;
  sentAt: number;
  cleanup: () => void;
}

export interface ChunkClientOptions {
  /** A running job older than this is killed (worker restarted) when a newer request arrives. */
  restartAfterMs?: number;
  now?: () => number;
  /** For every (re)started worker: the port on which it reaches the embedding worker (none: no semantic strategy). */
  embedPort?: () => MessagePort | null;
  /** The worker is about to use the embedding worker (start it now if it is not running). */
  onEmbedderNeeded?: () => void;
  /** Start the worker on the first call that needs it (or `start()`), not at once: a first visit paints the first
   * sample's chunks built ahead, and the worker's script is fetched after that paint (docs/first-visit.md). */
  lazy?: boolean;
}

export class ChunkClient {
  private worker: WorkerLike | null = null;
  private calls: RpcClient<ChunkWorkerApi> | null = null;
  /** The page's one job counter: every job of every strategy has an id from here. */
  private nextJobId = 1;
  private running: Job | null = null;
  private queued: Job | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private document: { version: number; text: string } | null = null;
  /** The document's parts still to send (null: the worker has been sent all of it), and what waits for that. */
  private upload: { timer: ReturnType<typeof setTimeout> | null; waiting: (() => void)[] } | null = null;
  private readonly restartAfterMs: number;
  private readonly now: () => number;
  private readonly embedPort: (() => MessagePort | null) | undefined;
  private readonly onEmbedderNeeded: (() => void) | undefined;
  /** How many times the worker was restarted to cancel work (shown in tests and diagnostics). */
  restarts = 0;

  constructor(
    private readonly createWorker: () => WorkerLike,
    options: ChunkClientOptions = {},
  ) {
    this.restartAfterMs = options.restartAfterMs ?? 250;
    this.now = options.now ?? (() => performance.now());
    this.embedPort = options.embedPort;
    this.onEmbedderNeeded = options.onEmbedderNeeded;
    if (!options.lazy) this.spawn();
  }

  /** Whether the worker has been started (a lazy client starts it on the first call that needs it). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Start the worker now if it is not running (a lazy client), with the current document. */
  start(): void {
    if (!this.worker) this.spawn();
  }

  /** The worker's calls, the worker started first if it was not. */
  private get rpc(): RpcClient<ChunkWorkerApi> {
    if (!this.calls) this.spawn();
    return this.calls!;
  }

  /**
   * A job id for an answer the page has without asking the worker (the first sample's chunks built ahead): it is
   * the newest job until the next `chunk` call.
   */
  reserveJobId(): number {
    return this.nextJobId++;
  }

  /** The newest job id handed out (the one whose result may be painted next). */
  get latestJobId(): number {
    return this.nextJobId - 1;
  }

  setDocument(version: number, text: string): void {
    this.document = { version, text };
    // A worker not started yet gets the document when it starts (spawn).
    if (this.worker) this.sendDocument();
  }

  /**
   * Hand the worker the current document: in one message when it is short, else one part per task (every part but
   * the last marked `more`), replacing a send under way. What waits for the document runs after the last part.
   */
  private sendDocument(): void {
    const { version, text } = this.document!;
    const waiting = this.upload?.waiting ?? [];
    if (this.upload?.timer) clearTimeout(this.upload.timer);
    this.upload = null;
    if (text.length <= DOCUMENT_PART_CHARS) {
      this.rpc.call('document', { version, text }).catch(() => {});
      for (const run of waiting) run();
      return;
    }
    const upload: NonNullable<ChunkClient['upload']> = { timer: null, waiting };
    this.upload = upload;
    let at = 0;
    const sendPart = () => {
      upload.timer = null;
      const end = Math.min(text.length, at + DOCUMENT_PART_CHARS);
      const more = end < text.length;
      this.rpc.call('document', { version, text: text.slice(at, end), ...(more ? { more } : {}) }).catch(() => {});
      at = end;
      if (more) {
        upload.timer = setTimeout(sendPart, 0);
        return;
      }
      this.upload = null;
      for (const run of upload.waiting) run();
    };
    sendPart();
  }

  /** Resolves once the worker has been sent all of the current document (a lazy client's worker started first). */
  private documentSent(): Promise<void> {
    // Starting the worker begins the document's upload, which must be seen here, not after the call is posted.
    this.start();
    const upload = this.upload;
    return upload ? new Promise((resolve) => upload.waiting.push(resolve)) : Promise.resolve();
  }

  /** Give the running worker a new port to the embedding worker (that one was restarted); `reason` fails what
   * waited on the old one. */
  reconnectEmbedder(reason?: string): void {
    // A worker not started yet connects when it starts.
    if (this.worker) this.connectEmbedder(reason);
  }

  private connectEmbedder(reason?: string): void {
    const port = this.embedPort?.();
    if (port) this.rpc.call('connectEmbedder', { port, ...(reason ? { reason } : {}) }, { transfer: [port] }).catch(() => {});
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
        ...(call.probe ? { probe: call.probe } : {}),
        onProgress: call.onProgress,
        resolve,
        reject,
        posted: false,
        sentAt: 0,
        cleanup: () => call.signal?.removeEventListener('abort', onAbort),
      };
      call.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.queued) this.settle(this.queued, new StaleJobError(this.queued.jobId));
      // A job still waiting for the document never reached the worker: this one takes its place.
      if (this.running && !this.running.posted) this.dropUnposted(this.running);
      if (this.running) {
        this.queued = job;
        // A job that only waits (on embeddings) stops now; one that computes is restarted after restartAfterMs.
        this.rpc.call('supersede', { jobId: this.running.jobId }).catch(() => {});
        this.scheduleRestartCheck();
      } else {
        this.send(job);
      }
    });
  }

  /** Token counts of a finished job's chunks (for tooltips); StaleJobError when a newer job came first. */
  async tokens(jobId: number, signal?: AbortSignal): Promise<TokenCountsPayload> {
    const counts = await this.rpc.call('tokens', { jobId }, { signal });
    if (!counts) throw new StaleJobError(jobId);
    return counts;
  }

  /** Semantic jobs: each chunk's size in the embedding model's tokens; StaleJobError when superseded or not semantic. */
  async embedderTokens(jobId: number, signal?: AbortSignal): Promise<EmbedderTokensPayload> {
    const counts = await this.rpc.call('embedderTokens', { jobId }, { signal });
    if (!counts) throw new StaleJobError(jobId);
    return counts;
  }

  /**
   * formatChunks output for a job's chunks. The worker recomputes them if it no longer holds them and the
   * document is still at `version` (the version that job ran on); otherwise the export fails.
   */
  async exportChunks(jobId: number, version: number, options: ChunkOptions, format: ExportFormat, signal?: AbortSignal): Promise<string> {
    await this.documentSent();
    return this.rpc.call('export', { jobId, version, options, format }, { signal });
  }

  /** Query probe: the top k units for `query` over the chunks of finished job `jobId` (ranked in the worker, which
   * holds them). StaleJobError when the worker no longer holds that job's chunks (a newer job, a restart). */
  async probe(jobId: number, query: string, settings: LabSettings, signal?: AbortSignal): Promise<ProbePayload> {
    const answer = await this.rpc.call('probe', { jobId, query, settings }, { signal });
    if (!answer) throw new StaleJobError(jobId);
    return answer;
  }

  /** A golden set over the painted chunks (`jobId`) or a configuration's (`options`); see LabEvaluateInput. Runs in
   * order with the chunk jobs; a worker restart rejects it (try again). */
  async evaluate(input: LabEvaluateInput, signal?: AbortSignal): Promise<LabEvaluatePayload> {
    await this.documentSent();
    const answer = await this.rpc.call('evaluate', input, { signal });
    if (!answer) throw new StaleJobError(input.jobId ?? -1);
    return answer;
  }

  dispose(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.worker?.terminate();
    this.failAll(new Error('chunk client disposed'));
  }

  private spawn(): void {
    const worker = this.createWorker();
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.restart(new Error(`chunk worker failed: ${event.message || 'unknown error'}`));
    };
    this.worker = worker;
    this.calls = rpcClient<ChunkWorkerApi>(worker, (name, data) => this.onEvent(name, data));
    this.connectEmbedder();
    if (this.document) this.sendDocument();
  }

  /** Run `job` next: posted now, or after the document's last part. */
  private send(job: Job): void {
    this.running = job;
    // A lazy client's first job starts the worker, and with it the document's upload: a long document goes in parts,
    // and the job must wait for the last one (posted at once, it ran on the first part alone: "0 chunks").
    this.start();
    if (this.upload) this.upload.waiting.push(() => this.running === job && this.post(job));
    else this.post(job);
  }

  private post(job: Job): void {
    job.posted = true;
    job.sentAt = this.now();
    // Answered synchronously on the message: the next request sees this job finished.
    const input = { jobId: job.jobId, version: job.version, options: job.options, ...(job.probe ? { probe: job.probe } : {}) };
    this.rpc.send('chunk', input, (error, result) =>
      this.answered(job, error ?? result!),
    );
  }

  private settle(job: Job, outcome: Error | ChunkResult): void {
    job.cleanup();
    if (this.queued === job) this.queued = null;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }

  /** Abort: a queued job (or one still waiting for the document) never starts; a running job's result will be ignored. */
  private drop(job: Job): void {
    if (this.queued === job) {
      this.settle(job, new StaleJobError(job.jobId));
    } else if (this.running === job && !job.posted) {
      this.dropUnposted(job);
    } else if (this.running === job) {
      // Keep `running` set so the worker is not handed a second job; its answer is discarded on arrival.
      job.cleanup();
      job.reject(new StaleJobError(job.jobId));
      job.resolve = () => {};
      job.reject = () => {};
    }
  }

  private dropUnposted(job: Job): void {
    this.running = null;
    this.settle(job, new StaleJobError(job.jobId));
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
    if (this.worker) {
      this.worker.onerror = null;
      this.worker.terminate();
    }
    const running = this.running;
    this.running = null;
    if (running) {
      running.cleanup();
      running.reject(reason instanceof StaleJobError ? new StaleJobError(running.jobId) : reason);
    }
    this.calls?.close(new Error('chunk worker restarted; try again'));
    this.spawn();
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

  private onEvent(name: string, data: unknown): void {
    if (name === 'embedder') this.onEmbedderNeeded?.();
    if (name !== 'progress') return;
    const p = data as ChunkWorkerEvents['progress'];
    if (this.running?.jobId === p.jobId && !this.queued) this.running.onProgress?.(p.fraction);
  }

  /** The running job's answer (a result, or why it failed). An answer for a job given up on is dropped. */
  private answered(job: Job, outcome: ChunkResult | Error): void {
    if (this.running !== job) return;
    const superseded = this.queued !== null;
    this.finishRunning();
    job.cleanup();
    if (superseded) job.reject(new StaleJobError(job.jobId));
    else if (outcome instanceof Error) job.reject(jobError(outcome, job.jobId));
    else job.resolve(outcome);
  }

  private failAll(error: Error): void {
    if (this.running) this.settle(this.running, error);
    if (this.queued) this.settle(this.queued, error);
    this.running = null;
    this.queued = null;
    this.calls?.close(error);
  }
}

function jobError(error: Error, jobId: number): ChunkJobError {
  if (error instanceof RemoteError && error.name === 'ChunkJobFailure') {
    const d = error.data as { invalidOptions?: boolean; field?: string; cancelled?: boolean };
    return new ChunkJobError(error.message, jobId, d.invalidOptions === true, d.field, d.cancelled === true);
  }
  return new ChunkJobError(error.message, jobId, false);
}

/** The page's client: a module worker built by Vite (the one main.tsx started early, if it did). */
export function createChunkClient(options?: ChunkClientOptions): ChunkClient {
  // Vite bundles the worker from this literal URL. Started on the first call that needs it (or by main.tsx early).
  return new ChunkClient(
    () => chunkWorker() as unknown as WorkerLike,
    { lazy: true, ...options },
  );
}
