import type { EmbedTexts } from '../core/types';
import type { EmbedderSummary, EmbedPortApi, EmbedSettings } from './embedProtocol';
import type { JobQueue } from './jobQueue';
import { abortError, rpcClient, type Endpoint, type RpcClient } from './rpc';

/**
 * The chunk worker's side of the embedding worker: a MessagePort (given by `connectEmbedder` after every (re)start
 * of either worker) over which it embeds, asks a model's summary and tokenizes. Before each call it tells the page
 * (`announce`), which starts the embedding worker if it has not yet; the call waits in the port meanwhile.
 *
 * Embed functions are made once per model and kept: core's document cache keys an analysis on the function's
 * identity, so a re-threshold embeds nothing. A chunk job's embeddings stop when a newer job arrives (they watch
 * the running job's signal); the lab's do not (a probe or golden-set run is not tied to a chunk job).
 */

export const BUILTIN_MODEL = 'builtin';

/** Hub models may be downloaded; the built-in model and picked local folders never are. */
export const settingsFor = (model: string): EmbedSettings => ({ allowRemote: model !== BUILTIN_MODEL && !model.startsWith('local/') });

/** Whose embeddings: the running chunk job's (stopped by a newer job) or the lab's (never stopped by one). */
export type EmbedBinding = 'job' | 'lab';

export class EmbeddingPort {
  private port: RpcClient<EmbedPortApi> | null = null;
  private readonly embedFns = new Map<string, EmbedTexts>();
  private readonly summaries = new Map<string, EmbedderSummary>();
  /** The model's tokens of the last document version tokenized (once per model and version: ~1 s per MiB). */
  private tokens: { key: string; starts: Int32Array; ends: Int32Array } | null = null;

  constructor(
    private readonly jobs: Pick<JobQueue, 'current' | 'newest'>,
    /** Tells the page an embedding call for job `jobId` is about to be made. */
    private readonly announce: (jobId: number) => void,
  ) {}

  /** A new port; calls still waiting on the previous one fail with `reason` (that embedding worker died). */
  connect(port: Endpoint, reason?: string): void {
    this.port?.close(new Error(reason ?? 'the embedding worker stopped; showing the last good result'));
    this.port = rpcClient<EmbedPortApi>(port);
  }

  /** The embeddings of `model` for a chunk job (`job`) or the lab (`lab`): one function per model and binding. */
  embedFor(model: string, binding: EmbedBinding = 'job'): EmbedTexts {
    const key = `${binding}\u0000${model}`;
    let fn = this.embedFns.get(key);
    if (!fn) {
      fn = async (texts) => {
        const job = this.jobs.current;
        if (binding === 'job' && !job) throw abortError();
        const input = { jobId: binding === 'job' ? job!.jobId : this.jobs.newest, model, texts, settings: settingsFor(model) };
        const r = await this.client().call('embed', input, binding === 'job' ? { signal: job!.abort.signal } : {});
        this.summaries.set(model, r.embedder);
        return Array.from({ length: texts.length }, (_, i) => r.vectors.subarray(i * r.dims, (i + 1) * r.dims));
      };
      this.embedFns.set(key, fn);
    }
    return fn;
  }

  /** The model's summary as the last embedding call reported it (undefined before any). */
  knownSummary(model: string): EmbedderSummary | undefined {
    return this.summaries.get(model);
  }

  /** The model's summary, asked of the embedding worker when no call reported it yet. */
  async summaryOf(model: string, jobId: number, signal: AbortSignal): Promise<EmbedderSummary> {
    const known = this.summaries.get(model);
    if (known) return known;
    const summary = await this.client().call('info', { jobId, model, settings: settingsFor(model) }, { signal });
    this.summaries.set(model, summary);
    return summary;
  }

  /** The model's tokens of `text` (document `version`), kept for the next call on the same model and version. */
  async tokensOf(model: string, version: number, text: string, signal: AbortSignal): Promise<{ starts: Int32Array; ends: Int32Array }> {
    const key = `${model}\u0000${version}`;
    if (this.tokens?.key !== key) {
      const t = await this.client().call('tokenize', { model, text }, { signal });
      this.tokens = { key, ...t };
    }
    return this.tokens;
  }

  private client(jobId = this.jobs.current?.jobId ?? this.jobs.newest): RpcClient<EmbedPortApi> {
    if (!this.port) throw new Error('no embedding worker is connected');
    this.announce(jobId);
    return this.port;
  }
}
