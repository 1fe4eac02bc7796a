import { chunk, chunkStats, ChunkOptionsError, formatChunks, getStrategy, validateOptions } from '../core/index';
import { orphanEdgesKnown } from '../core/describe';
import { lowerBound } from '../core/sorted';
import type { Chunk, ChunkDetail, ChunkOptions, EmbedTexts, LoadWasm, Range, TokenEncodingName } from '../core/types';
import { languageWindowSteps, type LanguageWindows } from '../core/languageWindows';
import { meterFor } from '../core/measure';
import { getUnit, unitDescriptor } from '../core/units/index';
import { findEmbedderModel } from '../embed/hub';
import { truncation } from '../embed/truncation';
import type { EmbedderSummary, EmbedPortApi, EmbedSettings, SemanticPayload } from './embedProtocol';
import { labService } from './labService';
import { curveMemo, orphanMemo } from './resplitMemo';
import { leavesOf, packChunks, packedBuffers } from './packChunks';
import type { ChunkJobFailure, ChunkWorkerApi, ChunkWorkerResult, EmbedderTokensPayload, ProbeRequest, TokenCountsPayload } from './protocol';
import { abortError, rpcClient, rpcServe, withTransfer, type Endpoint, type RpcClient } from './rpc';
import { yieldToMessages } from './yieldToMessages';

/**
 * The chunk worker's service: core's chunk() for every strategy, semantic included. It keeps the current document
 * (sent once per version) and the last full Chunk[] so that exports and token counts need no second run. Jobs run one
 * at a time, in order; the page cancels runaway synchronous work by terminating this worker. A job waiting on
 * embeddings (an await, not work) stops as soon as a newer job arrives or `supersede` says one waits.
 *
 * Semantic embeddings: `hooks.embed` calls the embedding worker over the MessagePort given by `connectEmbedder`; one
 * embed function per model, so core's document cache reuses the analysis across jobs (a re-threshold embeds nothing).
 */

/** Encoding used for the "tokens" figure in tooltips when the chosen unit is not a token encoding. */
const TOOLTIP_ENCODING: TokenEncodingName = 'cl100k_base';
/** Long runs report progress, but no more often than this. */
const PROGRESS_INTERVAL_MS = 80;
/** Token counting works in slices this long, then lets queued messages in. */
const TOKEN_SLICE_MS = 6;
const BUILTIN = 'builtin';

export interface ChunkServiceOptions {
  /** The code strategy's wasm files (the worker: bundled assets; Node: node_modules). */
  loadWasm?: LoadWasm;
}

interface Last {
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

export function serveChunkWorker(endpoint: Endpoint, service: ChunkServiceOptions = {}) {
  let documentText = '';
  let documentVersion = -1;
  /** The parts of a document still arriving (the page sends a large one a part per message). */
  let incoming: { version: number; parts: string[] } | null = null;
  let last: Last | null = null;
  /** The language detection of the document (its windows once done; otherwise where it stopped). */
  let languageMemo: { text: string; steps: Generator<void, LanguageWindows, void>; windows: LanguageWindows | null } | null = null;
  /** Highest chunk job id received so far (set as soon as the call arrives, before it runs). */
  let newestJob = 0;
  /** The job running now and the signal its embed calls and chunk() watch. */
  let current: { jobId: number; abort: AbortController } | null = null;
  let embedPort: RpcClient<EmbedPortApi> | null = null;
  const embedFns = new Map<string, EmbedTexts>();
  const summaries = new Map<string, EmbedderSummary>();
  let modelTokens: { key: string; starts: Int32Array; ends: Int32Array } | null = null;
  // A threshold move re-splits one analysis: its curve arrays and most chunks' orphan bits are the last job's.
  const curveArrays = curveMemo();
  const orphanBits = orphanMemo();

  // Calls that touch the document or run jobs are applied strictly one after another (chunk() may await).
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(run: () => Promise<T> | T): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => {});
    return next;
  };

  const settingsFor = (model: string): EmbedSettings => ({ allowRemote: model !== BUILTIN && !model.startsWith('local/') });

  function port(jobId = current?.jobId ?? newestJob): RpcClient<EmbedPortApi> {
    if (!embedPort) throw new Error('no embedding worker is connected');
    server.emit('embedder', { jobId });
    return embedPort;
  }

  /** The semantic strategy's embeddings for `model`: one function per model (core's cache keys on its identity). */
  function embedFor(model: string): EmbedTexts {
    let fn = embedFns.get(model);
    if (!fn) {
      fn = async (texts) => {
        const job = current;
        if (!job) throw abortError();
        const r = await port().call('embed', { jobId: job.jobId, model, texts, settings: settingsFor(model) }, { signal: job.abort.signal });
        summaries.set(model, r.embedder);
        return Array.from({ length: texts.length }, (_, i) => r.vectors.subarray(i * r.dims, (i + 1) * r.dims));
      };
      embedFns.set(model, fn);
    }
    return fn;
  }

  /** The lab's embeddings (probe, golden-set runs): not tied to a chunk job, so a newer job does not stop them. */
  const labEmbedFns = new Map<string, EmbedTexts>();
  function labEmbedFor(model: string): EmbedTexts {
    let fn = labEmbedFns.get(model);
    if (!fn) {
      fn = async (texts) => {
        const r = await port().call('embed', { jobId: newestJob, model, texts, settings: settingsFor(model) });
        summaries.set(model, r.embedder);
        return Array.from({ length: texts.length }, (_, i) => r.vectors.subarray(i * r.dims, (i + 1) * r.dims));
      };
      labEmbedFns.set(model, fn);
    }
    return fn;
  }
  const lab = labService({ last: () => last, document: () => documentText, embedFor: labEmbedFor, loadWasm: service.loadWasm });

  async function summaryOf(model: string, jobId: number, signal: AbortSignal): Promise<EmbedderSummary> {
    const known = summaries.get(model);
    if (known) return known;
    const summary = await port().call('info', { jobId, model, settings: settingsFor(model) }, { signal });
    summaries.set(model, summary);
    return summary;
  }

  async function runChunk(jobId: number, version: number, options: ChunkOptions, probe?: ProbeRequest): Promise<ChunkWorkerResult> {
    const startedAt = performance.now();
    let lastProgressAt = startedAt;
    const abort = new AbortController();
    if (newestJob > jobId) abort.abort();
    current = { jobId, abort };
    const model = options.embedder ?? BUILTIN;
    let detail: ChunkDetail | null = null;
    try {
      const chunks = await chunk(documentText, options, {
        signal: abort.signal,
        embed: embedFor(model),
        loadWasm: service.loadWasm,
        onDetail: (d) => (detail = d),
        onProgress: (fraction) => {
          const now = performance.now();
          if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
          lastProgressAt = now;
          server.emit('progress', { jobId, fraction });
        },
      });
      const resolved = validateOptions(options);
      const semanticDetail = (detail as ChunkDetail | null)?.semantic;
      let semantic: SemanticPayload | undefined;
      if (semanticDetail) {
        const d = semanticDetail;
        semantic = {
          ...curveArrays(d),
          comparedWith: d.comparedWith,
          threshold: d.threshold,
          breakpoints: Int32Array.from(d.breakpoints),
          notes: d.notes,
          embedder: await summaryOf(model, jobId, abort.signal),
          embedMs: d.embedMs,
          splitMs: d.splitMs,
          sentencesEmbedded: d.embedded,
        };
      }
      const leaves = leavesOf(chunks);
      // A new document's sentence edges (0.7 s for 10 MiB here) are not on the way to its first paint: its orphan
      // bits come with the token counts, and every later job on it (a slider move) flags its chunks at once.
      const orphans = orphanEdgesKnown(documentText) ? orphanBits(documentText, leaves) : undefined;
      last = { jobId, version, text: documentText, options, chunks, leaves, model: semantic ? model : null, orphansSent: orphans !== undefined };
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
        elapsedMs: performance.now() - startedAt,
        ...(semantic ? { semantic } : {}),
      };
      if (probe) {
        // A probe failure is the lab's to show; the chunks are painted all the same.
        try {
          const ranked = await lab.probe({ jobId, ...probe });
          if (ranked) result.probe = ranked;
        } catch (error) {
          result.probeError = oneLine(error);
        }
      }
      const buffers: Transferable[] = [...packedBuffers(packed), ...(orphans ? [orphans.buffer] : [])];
      if (semantic) {
        const s = semantic;
        buffers.push(s.distances.buffer, s.values.buffer, s.breakpoints.buffer, s.sentenceStarts.buffer, s.sentenceEnds.buffer);
      }
      return withTransfer(result, buffers);
    } catch (error) {
      const e = error as Error & { field?: string };
      const cancelled = e?.name === 'EmbedCancelled';
      if (cancelled) throw new JobFailure('Embedding cancelled; showing the last result.', false, undefined, true);
      if (e?.name === 'AbortError') throw new JobFailure(`job ${jobId} was superseded`, false);
      const invalidOptions = error instanceof ChunkOptionsError || error instanceof RangeError;
      throw new JobFailure(oneLine(error), invalidOptions, error instanceof ChunkOptionsError ? e.field : undefined);
    } finally {
      if (current?.jobId === jobId) current = null;
    }
  }

  async function runTokens(jobId: number): Promise<TokenCountsPayload | null> {
    const job = last;
    if (!job || job.jobId !== jobId) return null;
    const chunks = job.leaves;
    const chosen = job.options.unit;
    const encoding: TokenEncodingName = (chosen && unitDescriptor(chosen)?.tokenizer) || TOOLTIP_ENCODING;
    const unit = await getUnit(encoding);
    // Words from the document's own word counter (segmented once per document), not each chunk's text again.
    const words = meterFor(await getUnit('words'), job.text);
    // Orphan bits the result did not carry (a new document: this segments it into sentences, once).
    const orphans = job.orphansSent ? undefined : orphanBits(job.text, chunks);
    if (newestJob > jobId) return null;
    const tokens = new Int32Array(chunks.length);
    const wordCounts = new Int32Array(chunks.length);
    const slice = slicesFor(jobId);
    for (let i = 0; i < chunks.length; i++) {
      tokens[i] = unit.count(chunks[i]!.content);
      wordCounts[i] = words.exact(chunks[i]!.start, chunks[i]!.end);
      // A newer chunk job is waiting: these counts would be for chunks nobody sees any more.
      if (slice.over() && !(await slice.next())) return null;
    }
    const windows = await languageWindowsOf(job.text, jobId);
    if (!windows) return null;
    // A copy per answer: the memo keeps its own arrays, the page gets transferable ones.
    const languages = { starts: windows.starts.slice(), codes: windows.codes, index: windows.index.slice() };
    const buffers: Transferable[] = [tokens.buffer, wordCounts.buffer, languages.starts.buffer, languages.index.buffer, ...(orphans ? [orphans.buffer] : [])];
    return withTransfer({ jobId, tokens, encoding, words: wordCounts, languages, ...(orphans ? { orphans } : {}) }, buffers);
  }

  /**
   * The document's language windows, found once per document in slices like the token counts; null when a newer job
   * arrived meanwhile (the detection so far is kept, and the next job's counts go on from there).
   */
  async function languageWindowsOf(text: string, jobId: number): Promise<LanguageWindows | null> {
    if (languageMemo?.text !== text) languageMemo = { text, steps: languageWindowSteps(text), windows: null };
    const memo = languageMemo;
    const slice = slicesFor(jobId);
    while (!memo.windows) {
      const step = memo.steps.next();
      if (step.done) memo.windows = step.value;
      else if (slice.over() && !(await slice.next())) return null;
    }
    return memo.windows;
  }

  /**
   * Work after a job in slices of TOKEN_SLICE_MS: `over()` says the slice is spent; `next()` lets queued messages in
   * and starts the next one, false when a newer chunk job arrived meanwhile (the work is for chunks gone).
   */
  function slicesFor(jobId: number): { over(): boolean; next(): Promise<boolean> } {
    let started = performance.now();
    return {
      over: () => performance.now() - started > TOKEN_SLICE_MS,
      next: async () => {
        await yieldToMessages();
        started = performance.now();
        return newestJob <= jobId;
      },
    };
  }

  /** Each chunk's length in the model's tokens and the offset where the model stops reading (off the drag path). */
  async function runEmbedderTokens(jobId: number, signal: AbortSignal): Promise<EmbedderTokensPayload | null> {
    const job = last;
    if (!job || job.jobId !== jobId || job.model === null) return null;
    const model = job.model;
    const key = `${model}\u0000${job.version}`;
    if (modelTokens?.key !== key) {
      // Tokenizing 1 MiB takes about a second, once per model and document version.
      const t = await port().call('tokenize', { model, text: job.text }, { signal });
      modelTokens = { key, ...t };
    }
    if (newestJob > jobId) return null;
    const { starts, ends } = modelTokens;
    const summary = summaries.get(model);
    const chunks = job.leaves;
    const counts = new Int32Array(chunks.length);
    const truncatedAt = new Int32Array(chunks.length).fill(-1);
    const special = findEmbedderModel(model)?.specialTokens ?? (model === BUILTIN ? 0 : 2);
    const maxTokens = summary?.maxTokens ?? Infinity;
    chunks.forEach((c, i) => {
      const first = lowerBound(starts, c.start);
      const end = lowerBound(starts, c.end);
      const spans: Range[] = [];
      for (let k = first; k < end && ends[k]! <= c.end; k++) spans.push({ start: starts[k]! - c.start, end: ends[k]! - c.start });
      const t = truncation(c.text, spans, Number.isFinite(maxTokens) && maxTokens > 0 ? maxTokens : Infinity, special);
      counts[i] = t.tokens;
      if (t.truncatedAt !== null) truncatedAt[i] = c.start + t.truncatedAt;
    });
    return withTransfer({ jobId, counts, truncatedAt }, [counts.buffer, truncatedAt.buffer]);
  }

  const server = rpcServe<ChunkWorkerApi>(endpoint, {
    document: ({ version, text, more }) => {
      // A part of another version starts over (the page replaced a document it was still sending).
      if (incoming?.version !== version) incoming = null;
      if (more) {
        (incoming ??= { version, parts: [] }).parts.push(text);
        return;
      }
      const whole = incoming ? [...incoming.parts, text].join('') : text;
      incoming = null;
      return inOrder(() => {
        documentText = whole;
        documentVersion = version;
      });
    },
    connectEmbedder: ({ port: p, reason }) => {
      embedPort?.close(new Error(reason ?? 'the embedding worker stopped; showing the last good result'));
      embedPort = rpcClient<EmbedPortApi>(p as unknown as Endpoint);
    },
    chunk: ({ jobId, version, options, probe }) => {
      newestJob = Math.max(newestJob, jobId);
      if (current && current.jobId < jobId) current.abort.abort();
      return inOrder(() => runChunk(jobId, version, options, probe));
    },
    supersede: ({ jobId }) => {
      newestJob = Math.max(newestJob, jobId + 1);
      if (current && current.jobId <= jobId) current.abort.abort();
    },
    tokens: ({ jobId }) => inOrder(() => runTokens(jobId)),
    probe: (input) => lab.probe(input),
    evaluate: (input, { signal }) => inOrder(() => lab.evaluate(input, signal)),
    embedderTokens: ({ jobId }, { signal }) => runEmbedderTokens(jobId, signal),
    export: ({ jobId, version, options, format }) =>
      inOrder(async () => {
        let chunks: Chunk[];
        if (last && last.jobId === jobId && last.version === documentVersion) {
          chunks = last.chunks;
        } else if (version === documentVersion) {
          // The worker was restarted (or ran other jobs) since that job: compute the same chunks again.
          const abort = new AbortController();
          current = { jobId, abort };
          try {
            chunks = await chunk(documentText, options, { loadWasm: service.loadWasm, embed: embedFor(options.embedder ?? BUILTIN), signal: abort.signal });
          } finally {
            current = null;
          }
        } else {
          throw new Error('the document changed since these chunks were painted; export again once they are updated');
        }
        return formatChunks(chunks, format);
      }),
  });
  return server;
}
