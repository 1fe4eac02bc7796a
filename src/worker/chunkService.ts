import { chunk } from '../core/chunk';
import { ChunkOptionsError, validateOptions } from '../core/options';
import { chunkStats } from '../core/stats';
import { getStrategy } from '../core/strategies/index';
import type { Chunk, ChunkDetail, ChunkOptions, LoadWasm, SemanticDetail, TokenEncodingName } from '../core/types';
import { loadOnce } from '../core/loadOnce';
import { meterFor } from '../core/measure';
import { getUnit, unitDescriptor } from '../core/units/index';
import { DocumentStore } from './documentStore';
import type { SemanticPayload } from './embedProtocol';
import { BUILTIN_MODEL, EmbeddingPort } from './embeddingPort';
import { JobQueue } from './jobQueue';
import type { labService } from './labService';
import { curveMemo, orphanMemo } from './resplitMemo';
import { leavesOf, packChunks, packedBuffers } from './packChunks';
import type { ChunkJob, ChunkJobFailure, ChunkWorkerApi, ChunkWorkerResult, EmbedderTokensPayload, ExportFormat, TokenCountsPayload } from './protocol';
import { rpcServe, withTransfer, type Endpoint } from './rpc';

/**
 * The chunk worker's service: core's chunk() for every strategy, semantic included. It keeps the current document
 * (sent once per version, DocumentStore) and the last full Chunk[] so that exports and token counts need no second
 * run. Jobs run one at a time, in order (JobQueue); the page cancels runaway synchronous work by terminating this
 * worker. A job waiting on embeddings (an await, not work) stops as soon as a newer job arrives or `supersede` says
 * one waits. Semantic embeddings come from the embedding worker over a MessagePort (EmbeddingPort).
 */

/**
 * The orphan flags (core/eval/orphans: a document's sentences), loaded by the first token counts, after the first
 * paint: a new document's orphan bits come with its token counts anyway (see runChunk).
 */
const loadOrphans = loadOnce(() => import('../core/eval/orphans'));
/** Semantic jobs' token counts in the embedding model's tokens (the model list, truncation), loaded by the first. */
const loadEmbedderTokens = loadOnce(() => import('./embedderTokens'));

/** Encoding used for the "tokens" figure in tooltips when the chosen unit is not a token encoding. */
const TOOLTIP_ENCODING: TokenEncodingName = 'cl100k_base';
/** Long runs report progress, but no more often than this. */
const PROGRESS_INTERVAL_MS = 80;

export interface ChunkServiceOptions {
  /** The code strategy's wasm files (the worker: bundled assets; Node: node_modules). */
  loadWasm?: LoadWasm;
}

/** The last finished chunk job: what exports, token counts and the lab read. */
interface LastJob {
  jobId: number;
  version: number;
  text: string;
  options: ChunkOptions;
  /** Every chunk (export) and the painted ones (token counts). */
  chunks: Chunk[];
  leaves: readonly Chunk[];
  /** Semantic jobs: the model that embedded. */
  model: string | null;
  /** Whether the result carried its orphan bits; if not, the token counts bring them. */
  orphansSent: boolean;
}

class JobFailure extends Error implements ChunkJobFailure {
  override name = 'ChunkJobFailure';
  constructor(
    message: string,
    readonly invalidOptions: boolean,
    readonly field?: string,
    readonly cancelled?: boolean,
  ) {
    super(message);
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/out of memory|allocation failed|Array buffer allocation/i.test(message)) {
    return 'The embedding worker ran out of memory: try a smaller document or the built-in model.';
  }
  return message.split('\n')[0]!;
}

/** A failed chunk job as the page reads it: cancelled, superseded, invalid options (with the field), or one line. */
function jobFailure(error: unknown, jobId: number): JobFailure {
  const e = error as Error & { field?: string };
  if (e?.name === 'EmbedCancelled') return new JobFailure('Embedding cancelled; showing the last result.', false, undefined, true);
  if (e?.name === 'AbortError') return new JobFailure(`job ${jobId} was superseded`, false);
  const invalidOptions = error instanceof ChunkOptionsError || error instanceof RangeError;
  return new JobFailure(oneLine(error), invalidOptions, error instanceof ChunkOptionsError ? e.field : undefined);
}

/** The events the service sends the page. */
interface Emit {
  progress(jobId: number, fraction: number): void;
  embedder(jobId: number): void;
}

/** The chunk jobs and what is read from their results (token counts, embedder tokens, exports). */
export class ChunkService {
  readonly documents = new DocumentStore();
  readonly jobs = new JobQueue();
  readonly embeddings: EmbeddingPort;
  /** The last finished chunk job (null: none yet). */
  last: LastJob | null = null;
  // A threshold move re-splits one analysis: its curve arrays and most chunks' orphan bits are the last job's.
  private readonly curveArrays = curveMemo();
  private orphans: { edgesKnown(text: string): boolean; bits: ReturnType<typeof orphanMemo> } | null = null;

  constructor(
    private readonly emit: Emit,
    private readonly loadWasm?: LoadWasm,
  ) {
    this.embeddings = new EmbeddingPort(this.jobs, (jobId) => emit.embedder(jobId));
  }

  /** One chunk job on the current document: packed offsets, stats, orphan bits, the semantic curve, a probe. */
  async runChunk(
    { jobId, version, options, probe }: ChunkJob,
    probeWith: (input: { jobId: number } & NonNullable<ChunkJob['probe']>) => Promise<ChunkWorkerResult['probe'] | null>,
  ): Promise<ChunkWorkerResult> {
    const startedAt = performance.now();
    const job = this.jobs.begin(jobId, true);
    const text = this.documents.text;
    const model = options.embedder ?? BUILTIN_MODEL;
    try {
      let detail: ChunkDetail | null = null;
      const chunks = await chunk(text, options, {
        signal: job.abort.signal,
        embed: this.embeddings.embedFor(model),
        loadWasm: this.loadWasm,
        onDetail: (d) => (detail = d),
        onProgress: this.progressReporter(jobId, startedAt),
      });
      const semanticDetail = (detail as ChunkDetail | null)?.semantic;
      // The summary is awaited here, not in a helper: one await, as before the split (the drag path).
      const semantic = semanticDetail
        ? { ...this.semanticFields(semanticDetail), embedder: await this.embeddings.summaryOf(model, jobId, job.abort.signal) }
        : undefined;
      const leaves = leavesOf(chunks);
      // A new document's sentence edges (0.7 s for 10 MiB here) are not on the way to its first paint: its orphan
      // bits come with the token counts, and every later job on it (a slider move) flags its chunks at once.
      // (Edges are known only once the orphan flags are loaded: they are what segments the sentences.)
      const orphans = this.orphans?.edgesKnown(text) ? this.orphans.bits(text, leaves) : undefined;
      this.last = { jobId, version, text, options, chunks, leaves, model: semantic ? model : null, orphansSent: orphans !== undefined };
      const { result, buffers } = resultOf(jobId, version, options, chunks, orphans, semantic);
      result.elapsedMs = performance.now() - startedAt;
      if (probe) {
        // A probe failure is the lab's to show; the chunks are painted all the same.
        try {
          const ranked = await probeWith({ jobId, ...probe });
          if (ranked) result.probe = ranked;
        } catch (error) {
          result.probeError = oneLine(error);
        }
      }
      return withTransfer(result, buffers);
    } catch (error) {
      throw jobFailure(error, jobId);
    } finally {
      this.jobs.end(jobId);
    }
  }

  /** Progress events of job `jobId`, at most one per PROGRESS_INTERVAL_MS. */
  private progressReporter(jobId: number, startedAt: number): (fraction: number) => void {
    let lastProgressAt = startedAt;
    return (fraction) => {
      const now = performance.now();
      if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
      lastProgressAt = now;
      this.emit.progress(jobId, fraction);
    };
  }

  /** The semantic payload but the embedder's summary (the caller awaits that). */
  private semanticFields(d: SemanticDetail): Omit<SemanticPayload, 'embedder'> {
    return {
      ...this.curveArrays(d),
      comparedWith: d.comparedWith,
      threshold: d.threshold,
      breakpoints: Int32Array.from(d.breakpoints),
      notes: d.notes,
      embedMs: d.embedMs,
      splitMs: d.splitMs,
      sentencesEmbedded: d.embedded,
    };
  }

  /** The orphan flags with their memo, loaded once. */
  private async orphanFlags(): Promise<NonNullable<ChunkService['orphans']>> {
    if (!this.orphans) {
      const { orphanBits, orphanEdgesKnown } = await loadOrphans();
      this.orphans ??= { edgesKnown: (text) => orphanEdgesKnown(text), bits: orphanMemo(orphanBits) };
    }
    return this.orphans;
  }

  /** Token counts, word counts, language windows (and orphan bits not sent yet) of the last job's leaves, in slices. */
  async runTokens(jobId: number): Promise<TokenCountsPayload | null> {
    const job = this.last;
    if (!job || job.jobId !== jobId) return null;
    const chunks = job.leaves;
    const chosen = job.options.unit;
    const encoding: TokenEncodingName = (chosen && unitDescriptor(chosen)?.tokenizer) || TOOLTIP_ENCODING;
    const unit = await getUnit(encoding);
    // Words from the document's own word counter (segmented once per document), not each chunk's text again.
    const words = meterFor(await getUnit('words'), job.text);
    // Orphan bits the result did not carry (a new document: this segments it into sentences, once).
    const orphans = job.orphansSent ? undefined : (await this.orphanFlags()).bits(job.text, chunks);
    if (this.jobs.isStale(jobId)) return null;
    const tokens = new Int32Array(chunks.length);
    const wordCounts = new Int32Array(chunks.length);
    const slices = this.jobs.slicesFor(jobId);
    for (let i = 0; i < chunks.length; i++) {
      tokens[i] = unit.count(chunks[i]!.content);
      wordCounts[i] = words.exact(chunks[i]!.start, chunks[i]!.end);
      // A newer chunk job is waiting: these counts would be for chunks nobody sees any more.
      if (slices.over() && !(await slices.next())) return null;
    }
    const windows = await this.documents.languageWindowsOf(job.text, this.jobs.slicesFor(jobId));
    if (!windows) return null;
    // A copy per answer: the memo keeps its own arrays, the page gets transferable ones.
    const languages = { starts: windows.starts.slice(), codes: windows.codes, index: windows.index.slice() };
    const buffers: Transferable[] = [tokens.buffer, wordCounts.buffer, languages.starts.buffer, languages.index.buffer, ...(orphans ? [orphans.buffer] : [])];
    return withTransfer({ jobId, tokens, encoding, words: wordCounts, languages, ...(orphans ? { orphans } : {}) }, buffers);
  }

  /** Semantic jobs: each chunk's length in the model's tokens and where the model stops reading (off the drag path). */
  async runEmbedderTokens(jobId: number, signal: AbortSignal): Promise<EmbedderTokensPayload | null> {
    const job = this.last;
    if (!job || job.jobId !== jobId || job.model === null) return null;
    const { embedderTokenCounts } = await loadEmbedderTokens();
    const tokens = await this.embeddings.tokensOf(job.model, job.version, job.text, signal);
    if (this.jobs.isStale(jobId)) return null;
    const maxTokens = this.embeddings.knownSummary(job.model)?.maxTokens ?? Infinity;
    const { counts, truncatedAt } = embedderTokenCounts(job.leaves, tokens, job.model, maxTokens);
    return withTransfer({ jobId, counts, truncatedAt }, [counts.buffer, truncatedAt.buffer]);
  }

  /** formatChunks of job `jobId`'s chunks: the last job's, or the same chunks computed again on the same version. */
  async runExport({ jobId, version, options, format }: { jobId: number; version: number; options: ChunkOptions; format: ExportFormat }): Promise<string> {
    // The export formats load on the first export: they are not on the way to the first chunks.
    const { formatChunks } = await import('../core/format');
    const last = this.last;
    if (last && last.jobId === jobId && last.version === this.documents.version) return formatChunks(last.chunks, format);
    if (version !== this.documents.version) {
      throw new Error('the document changed since these chunks were painted; export again once they are updated');
    }
    // The worker was restarted (or ran other jobs) since that job: compute the same chunks again.
    const job = this.jobs.begin(jobId, false);
    try {
      const chunks = await chunk(this.documents.text, options, {
        loadWasm: this.loadWasm,
        embed: this.embeddings.embedFor(options.embedder ?? BUILTIN_MODEL),
        signal: job.abort.signal,
      });
      return formatChunks(chunks, format);
    } finally {
      this.jobs.end(jobId);
    }
  }
}

/** The packed answer of a chunk job (elapsedMs set by the caller) and the buffers it transfers. */
function resultOf(
  jobId: number,
  version: number,
  options: ChunkOptions,
  chunks: Chunk[],
  orphans: Uint8Array | undefined,
  semantic: SemanticPayload | undefined,
): { result: ChunkWorkerResult; buffers: Transferable[] } {
  const resolved = validateOptions(options);
  const packed = packChunks(chunks);
  // Strategies without a size (semantic) are only over a limit against their maximum, when one is set.
  const unsized = getStrategy(resolved.strategy).unsized?.(resolved) ?? false;
  const limit = unsized ? (resolved.maxSize ?? 0) : (options.size ?? 0);
  const stats = chunkStats(Array.from(packed.sizes), unsized && limit <= 0 ? Infinity : limit);
  const result: ChunkWorkerResult = {
    jobId,
    version,
    ...packed,
    ...(orphans ? { orphans } : {}),
    stats,
    limit,
    unit: unsized ? resolved.unit : (options.unit ?? 'chars'),
    elapsedMs: 0,
    ...(semantic ? { semantic } : {}),
  };
  const buffers: Transferable[] = [...packedBuffers(packed), ...(orphans ? [orphans.buffer] : [])];
  if (semantic) {
    const s = semantic;
    buffers.push(s.distances.buffer, s.values.buffer, s.breakpoints.buffer, s.sentenceStarts.buffer, s.sentenceEnds.buffer);
  }
  return { result, buffers };
}

/** Serves the chunk worker's API (protocol.ts) on `endpoint`: each message handed to the unit that owns it. */
export function serveChunkWorker(endpoint: Endpoint, options: ChunkServiceOptions = {}) {
  const service = new ChunkService(
    {
      progress: (jobId, fraction) => server.emit('progress', { jobId, fraction }),
      embedder: (jobId) => server.emit('embedder', { jobId }),
    },
    options.loadWasm,
  );
  const { documents, jobs, embeddings } = service;
  // The lab (retrievers, evaluation) loads on the first probe or evaluation, not before the first chunks.
  let lab: Promise<ReturnType<typeof labService>> | null = null;
  const loadLab = () =>
    (lab ??= import('./labService').then((m) =>
      m.labService({
        last: () => service.last,
        document: () => documents.text,
        embedFor: (model) => embeddings.embedFor(model, 'lab'),
        loadWasm: options.loadWasm,
      }),
    ));
  const probe = async (input: { jobId: number } & NonNullable<ChunkJob['probe']>) => (await loadLab()).probe(input);
  const server = rpcServe<ChunkWorkerApi>(endpoint, {
    document: (input) => {
      const whole = documents.receive(input);
      if (whole === null) return;
      return jobs.inOrder(() => documents.apply(input.version, whole));
    },
    connectEmbedder: ({ port, reason }) => embeddings.connect(port as unknown as Endpoint, reason),
    chunk: (job) => {
      jobs.arrived(job.jobId);
      return jobs.inOrder(() => service.runChunk(job, probe));
    },
    supersede: ({ jobId }) => jobs.supersede(jobId),
    tokens: ({ jobId }) => jobs.inOrder(() => service.runTokens(jobId)),
    probe,
    evaluate: (input, { signal }) => jobs.inOrder(async () => (await loadLab()).evaluate(input, signal)),
    embedderTokens: ({ jobId }, { signal }) => service.runEmbedderTokens(jobId, signal),
    export: (input) => jobs.inOrder(() => service.runExport(input)),
  });
  return server;
}
