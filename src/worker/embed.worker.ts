/// <reference lib="webworker" />
import { env } from '@huggingface/transformers';
// onnxruntime-web's runtime, served by Vite from our own origin (transformers.js 4.3 loads the asyncify build;
// without these paths it would fetch them from a CDN).
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { buildChunks, chunkStats, ChunkOptionsError, formatChunks, validateOptions } from '../core/index';
import { analyseSemantic, prepareSemantic, splitSemantic, type SemanticAnalysis, type SemanticPreparation } from '../core/semantic/index';
import { semanticPrepareOptions, semanticSplitParams } from '../core/strategies/semantic/split';
import type { Chunk, ChunkOptions, Range, ResolvedOptions, TokenEncodingName } from '../core/types';
import { getUnit, isTokenEncoding } from '../core/units/index';
import { createEmbedder } from '../embed/index';
import { findEmbedderModel } from '../embed/hub';
import { lateChunkVectors } from '../embed/late';
import { truncation } from '../embed/truncation';
import type { Embedder } from '../embed/types';
import { lookupEmbeddings, storeDocumentEmbeddings, storeEmbeddings } from './embeddingCache';
import { packChunks, packedBuffers } from './packChunks';
import type { EmbedderSummary, EmbedRequest, EmbedResponse, LocalModelFiles, SemanticPayload } from './embedProtocol';

/**
 * The embedding worker: loads an embedding model once, embeds a document's sentences (cached per model and text),
 * analyses the distances once, and re-splits on every threshold or mode change without embedding again: the
 * threshold drag costs one O(n) splitSemantic plus core's buildChunks, so the page's chunks equal chunk()/the CLI.
 *
 * Jobs do not queue behind each other: a newer job takes over the embedding an older one started when it needs the
 * same vectors, and aborts it when it needs other ones (the older result would be dropped anyway).
 */

declare const self: DedicatedWorkerGlobalScope;

const BUILTIN = 'builtin';
const PROGRESS_INTERVAL_MS = 80;

// --- runtime setup (browser only; src/embed stays environment-neutral) -------------------------------------------
env.allowLocalModels = true;
env.allowRemoteModels = false;
env.localModelPath = '/models/';
// No blob: copy of the runtime (transformers.js' wasm cache): the files come from our origin and the HTTP cache.
env.useWasmCache = false;
const onnxWasm = env.backends.onnx.wasm as { wasmPaths?: unknown; numThreads?: number; proxy?: boolean } | undefined;
if (onnxWasm) {
  onnxWasm.wasmPaths = { wasm: new URL(ortWasmUrl, self.location.href).href, mjs: new URL(ortMjsUrl, self.location.href).href };
  // Threads need SharedArrayBuffer, which needs a cross-origin isolated page.
  // One core is left to the page: on a loaded 2-core machine, a pool of 2 embedded 1 MiB at 2,800 sentences/s
  // against 5,600 with 1, and the page's paints got slower too (one run each; the machine was shared).
  onnxWasm.numThreads = self.crossOriginIsolated ? Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)) : 1;
}
/** Threads in onnxruntime's WASM pool (1 without cross-origin isolation). */
const threads = onnxWasm?.numThreads ?? 1;

/** Files of model folders the user picked, served to transformers.js under /models/<id>/ by a fetch wrapper. */
const localFolders = new Map<string, Map<string, Blob>>();
const defaultFetch = env.fetch as typeof fetch;
env.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, self.location.href);
  const match = /^\/models\/(local\/[^/]+)\/(.+)$/.exec(url.pathname);
  if (match && url.origin === self.location.origin) {
    const file = localFolders.get(decodeURIComponent(match[1]!))?.get(decodeURIComponent(match[2]!));
    if (!file) return Promise.resolve(new Response('not in the picked folder', { status: 404 }));
    return Promise.resolve(new Response(file, { status: 200, headers: { 'content-length': String(file.size) } }));
  }
  return defaultFetch(input, init);
}) as typeof fetch;

let webgpu: Promise<boolean> | null = null;
function hasWebGpu(): Promise<boolean> {
  webgpu ??= (async () => {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) !== null;
    } catch {
      return false;
    }
  })();
  return webgpu;
}

function post(message: EmbedResponse, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

// --- state --------------------------------------------------------------------------------------------------------
let documentText = '';
let documentVersion = -1;
/** Highest semantic job id received (set on arrival, before the job runs). */
let newestJob = 0;
/** Jobs up to this id were cancelled: one cancelled while its model was still loading stops before embedding. */
let cancelledUpTo = 0;

interface LoadedModel {
  id: string;
  embedder: Promise<Embedder>;
}
let loaded: LoadedModel | null = null;

interface Inflight {
  key: string;
  signal: { aborted: boolean };
  /** The job whose progress is reported. */
  jobId: number;
  vectors: Promise<Float32Array[]>;
}
let inflight: Inflight | null = null;

let prepared: { key: string; prep: SemanticPreparation } | null = null;
let analysed: { key: string; analysis: SemanticAnalysis; embedMs: number; embedded: number } | null = null;
/** The embedding model's tokens of the whole document (for each chunk's token count), per model and version. */
let docTokens: { key: string; starts: Int32Array; ends: Int32Array } | null = null;
let last: { jobId: number; version: number; chunks: Chunk[]; options: ChunkOptions; model: string } | null = null;

class CancelledError extends Error {}

function summary(e: Embedder): EmbedderSummary {
  return { ...e.info, threads: e.info.backend === 'wasm' ? threads : 0, isolated: self.crossOriginIsolated };
}

async function loadEmbedder(model: string, allowRemote: boolean, jobId: number): Promise<Embedder> {
  if (loaded?.id === model) return loaded.embedder;
  const previous = loaded;
  // The built-in model is a table lookup: a GPU gains nothing, and its int8 Gather is a WASM kernel. Hub and local
  // models use WebGPU when the browser has an adapter, and WASM when that fails.
  const gpu = model !== BUILTIN && (await hasWebGpu());
  const isHub = model !== BUILTIN && !model.startsWith('local/');
  env.allowRemoteModels = isHub && allowRemote;
  const options = (device: 'webgpu' | 'wasm') => ({
    model,
    localModelPath: '/models/',
    allowRemote: isHub && allowRemote,
    device,
    onDownloadProgress: (p: { file: string; loaded: number; total: number }) =>
      post({ type: 'download', jobId, file: p.file, loaded: p.loaded, total: p.total }),
  });
  const embedder = gpu ? createEmbedder(options('webgpu')).catch(() => createEmbedder(options('wasm'))) : createEmbedder(options('wasm'));
  loaded = { id: model, embedder };
  embedder.then(
    (e) => {
      post({ type: 'backend', backend: e.info.backend, threads: e.info.backend === 'wasm' ? threads : 0, isolated: self.crossOriginIsolated });
      if (previous) void previous.embedder.then((p) => p.dispose()).catch(() => {});
    },
    () => {
      if (loaded?.embedder === embedder) loaded = previous;
    },
  );
  return embedder;
}

function prepKey(version: number, o: ResolvedOptions): string {
  return JSON.stringify([version, o.compat, o.buffer ?? 1, o.locale, o.sentences ?? 'intl']);
}

/** Vectors for every text of `prep`, from the cache or the model; shared by jobs that need the same ones. */
function embeddingsFor(model: string, embedder: Embedder, prep: SemanticPreparation, key: string, jobId: number): Promise<Float32Array[]> {
  if (inflight && inflight.key === key) {
    inflight.jobId = jobId;
    return inflight.vectors;
  }
  if (inflight) inflight.signal.aborted = true;
  const signal = { aborted: false };
  const texts = prep.inputs.texts;
  const entry: Inflight = { key, signal, jobId, vectors: Promise.resolve([]) };
  entry.vectors = (async () => {
    const known = await lookupEmbeddings(model, texts);
    const missing: string[] = [];
    const seen = new Set<string>();
    known.forEach((v, i) => {
      if (v === undefined && !seen.has(texts[i]!)) {
        seen.add(texts[i]!);
        missing.push(texts[i]!);
      }
    });
    if (missing.length > 0) {
      let lastProgressAt = 0;
      post({ type: 'progress', jobId: entry.jobId, stage: 'embedding', fraction: 0 });
      const vectors = await embedder.embed(missing, {
        signal,
        onProgress: (fraction) => {
          if (signal.aborted) throw new CancelledError('embedding cancelled');
          const now = performance.now();
          if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
          lastProgressAt = now;
          post({ type: 'progress', jobId: entry.jobId, stage: 'embedding', fraction });
        },
      });
      if (signal.aborted) throw new CancelledError('embedding cancelled');
      storeEmbeddings(model, missing, vectors);
      const byText = new Map<string, Float32Array>();
      missing.forEach((t, i) => byText.set(t, vectors[i]!));
      known.forEach((v, i) => {
        if (v === undefined) known[i] = byText.get(texts[i]!);
      });
      storeDocumentEmbeddings(model, texts, known as Float32Array[]);
    }
    return known as Float32Array[];
  })();
  inflight = entry;
  const clear = () => {
    if (inflight === entry) inflight = null;
  };
  entry.vectors.then(clear, clear);
  return entry.vectors;
}

/** Token spans of the whole document in the model's tokenizer, once per model and document version. */
function documentTokens(model: string, embedder: Embedder): { starts: Int32Array; ends: Int32Array } {
  const key = `${model}\u0000${documentVersion}`;
  if (docTokens?.key === key) return docTokens;
  let tokens: Range[] = [];
  try {
    tokens = embedder.tokenize(documentText);
  } catch {
    tokens = [];
  }
  docTokens = { key, starts: Int32Array.from(tokens, (t) => t.start), ends: Int32Array.from(tokens, (t) => t.end) };
  return docTokens;
}

function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each chunk's length in the model's tokens and the offset (in the document) where the model stops reading. */
function embedderTokenCounts(chunks: Chunk[], model: string, embedder: Embedder): { counts: Int32Array; truncatedAt: Int32Array } {
  const { starts, ends } = documentTokens(model, embedder);
  const counts = new Int32Array(chunks.length);
  const truncatedAt = new Int32Array(chunks.length).fill(-1);
  const special = findEmbedderModel(model)?.specialTokens ?? (model === BUILTIN ? 0 : 2);
  const maxTokens = embedder.info.maxTokens;
  chunks.forEach((c, i) => {
    const first = lowerBound(starts, c.start);
    const end = lowerBound(starts, c.end);
    const spans: Range[] = [];
    for (let k = first; k < end && ends[k]! <= c.end; k++) spans.push({ start: starts[k]! - c.start, end: ends[k]! - c.start });
    const t = truncation(c.text, spans, Number.isFinite(maxTokens) && maxTokens > 0 ? maxTokens : Infinity, special);
    counts[i] = t.tokens;
    if (t.truncatedAt !== null) truncatedAt[i] = c.start + t.truncatedAt;
  });
  return { counts, truncatedAt };
}

function isInvalidOptions(error: unknown): boolean {
  return error instanceof ChunkOptionsError || error instanceof RangeError;
}

async function runSemantic(request: Extract<EmbedRequest, { type: 'semantic' }>): Promise<void> {
  const { jobId, options, settings } = request;
  const startedAt = performance.now();
  const stale = () => jobId !== newestJob || request.version !== documentVersion;
  try {
    const resolved = validateOptions(options);
    const model = resolved.embedder ?? BUILTIN;
    const text = documentText;
    const pKey = prepKey(documentVersion, resolved);
    if (prepared?.key !== pKey) {
      prepared = {
        key: pKey,
        prep: prepareSemantic(text, semanticPrepareOptions(resolved)),
      };
    }
    const prep = prepared.prep;
    const aKey = `${model}\u0000${pKey}`;
    let embedder: Embedder;
    try {
      if (analysed?.key !== aKey) post({ type: 'progress', jobId, stage: 'loading', fraction: 0 });
      embedder = await loadEmbedder(model, settings.allowRemote, jobId);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      if (model !== BUILTIN) {
        // One line: why, and what happens now (ENGINE's message already says how to self-host the model).
        post({ type: 'fallback', jobId, message: `${capitalize(reason ?? '')} — using the built-in model instead.` });
        post({ type: 'error', jobId, message: `Could not load ${model}: ${reason}`, invalidOptions: false });
        return;
      }
      throw new Error(`The built-in embedding model failed to load: ${reason}`);
    }
    if (stale()) return;
    if (analysed?.key !== aKey) {
      if (jobId <= cancelledUpTo) throw new CancelledError('embedding cancelled');
      const t0 = performance.now();
      const texts = prep.inputs.texts;
      const vectors = texts.length ? await embeddingsFor(model, embedder, prep, aKey, jobId) : [];
      const embedMs = performance.now() - t0;
      if (analysed?.key !== aKey) {
        analysed = { key: aKey, analysis: analyseSemantic(prep, vectors), embedMs, embedded: texts.length };
      }
    }
    if (stale()) return;
    const analysis = analysed.analysis;
    const unit = await getUnit(resolved.unit);
    const t1 = performance.now();
    const split = splitSemantic(analysis, semanticSplitParams(resolved, unit));
    // As chunk(): a blank document has no chunks in native mode.
    const spans = resolved.compat === 'none' && text.trim() === '' ? [] : split.spans;
    const chunks = buildChunks(text, spans, resolved, unit);
    const splitMs = performance.now() - t1;
    last = { jobId, version: request.version, chunks, options, model };
    postResult(jobId, request.version, chunks, resolved, {
      distances: Float64Array.from(split.distances),
      values: Float64Array.from(split.values),
      comparedWith: split.comparedWith,
      threshold: split.threshold,
      breakpoints: Int32Array.from(split.breakpoints),
      sentenceStarts: Int32Array.from(prep.sentences, (s) => s.start),
      sentenceEnds: Int32Array.from(prep.sentences, (s) => s.end),
      notes: split.notes,
      embedder: summary(embedder),
      embedMs: analysed.embedMs,
      splitMs,
      sentencesEmbedded: analysed.embedded,
    }, performance.now() - startedAt);
    // Token counts in the model's tokenizer come second (tokenizing 1 MiB takes about a second, once per model and
    // document; then each re-split costs a few ms): a newer job skips them.
    setTimeout(() => {
      if (jobId !== newestJob || last?.jobId !== jobId) return;
      try {
        const { counts, truncatedAt } = embedderTokenCounts(chunks, model, embedder);
        if (jobId !== newestJob) return;
        post({ type: 'embedder-tokens', jobId, counts, truncatedAt }, [counts.buffer, truncatedAt.buffer]);
      } catch {
        /* a tokenizer without offsets: no embedder token counts */
      }
    }, 0);
  } catch (error) {
    const cancelled = error instanceof CancelledError || (error instanceof Error && (error.name === 'AbortError' || /cancel|abort/i.test(error.message)));
    post({
      type: 'error',
      jobId,
      message: cancelled ? 'Embedding cancelled; showing the last result.' : oneLine(error),
      invalidOptions: isInvalidOptions(error),
      cancelled,
      field: error instanceof ChunkOptionsError ? error.field : undefined,
    });
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/out of memory|allocation failed|Array buffer allocation/i.test(message)) {
    return 'The embedding worker ran out of memory: try a smaller document or the built-in model.';
  }
  return message.split('\n')[0]!;
}

function postResult(jobId: number, version: number, chunks: Chunk[], resolved: ResolvedOptions, semantic: SemanticPayload, elapsedMs: number): void {
  const packed = packChunks(chunks);
  const limit = resolved.maxSize ?? 0;
  const stats = chunkStats(Array.from(packed.sizes), limit > 0 ? limit : Infinity);
  const s = semantic;
  post(
    { type: 'result', jobId, version, ...packed, stats, limit, unit: resolved.unit, elapsedMs, semantic },
    [
      ...packedBuffers(packed),
      s.distances.buffer,
      s.values.buffer,
      s.breakpoints.buffer,
      s.sentenceStarts.buffer,
      s.sentenceEnds.buffer,
    ],
  );
}

const TOOLTIP_ENCODING: TokenEncodingName = 'cl100k_base';

async function runTokens(jobId: number): Promise<void> {
  if (!last || last.jobId !== jobId) return;
  const { chunks, options } = last;
  const encoding: TokenEncodingName = options.unit && isTokenEncoding(options.unit) ? options.unit : TOOLTIP_ENCODING;
  const unit = await getUnit(encoding);
  const tokens = new Int32Array(chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    tokens[i] = unit.count(chunks[i]!.content);
    if (i % 256 === 255) {
      await new Promise((r) => setTimeout(r, 0));
      if (newestJob > jobId) return;
    }
  }
  post({ type: 'tokens', jobId, tokens, encoding }, [tokens.buffer]);
}

function runExport(request: Extract<EmbedRequest, { type: 'export' }>): void {
  if (!last || last.jobId !== request.jobId || last.version !== documentVersion) {
    post({ type: 'export-error', requestId: request.requestId, message: 'these chunks are no longer current; export again once they are updated' });
    return;
  }
  post({ type: 'exported', requestId: request.requestId, text: formatChunks(last.chunks, request.format) });
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : NaN;
}

let lateTokens: { key: string; tokens: Range[]; vectors: Float32Array[] } | null = null;

async function runLate(request: Extract<EmbedRequest, { type: 'late' }>): Promise<void> {
  try {
    if (!last || last.jobId !== request.jobId) throw new Error('the chunks changed; ask again');
    const query = request.query.trim();
    if (!query) throw new Error('type a query');
    const { chunks, model } = last;
    const embedder = await loadEmbedder(model, false, request.jobId);
    const [queryVector] = await embedder.embed([query]);
    const texts = chunks.map((c) => c.text);
    const nonBlank = texts.map((t) => t.trim() !== '');
    const naiveVectors = await embedder.embed(texts.filter((_, i) => nonBlank[i]));
    const key = `${model}\u0000${documentVersion}`;
    if (lateTokens?.key !== key) {
      const { tokens, vectors } = await embedder.embedTokens(documentText);
      lateTokens = { key, tokens, vectors };
    }
    const lateVectors = lateChunkVectors(lateTokens.tokens, lateTokens.vectors, chunks);
    const naive = new Float64Array(chunks.length).fill(NaN);
    let k = 0;
    chunks.forEach((_, i) => {
      if (nonBlank[i]) naive[i] = cosine(queryVector!, naiveVectors[k++]!);
    });
    const late = Float64Array.from(lateVectors, (v) => cosine(queryVector!, v));
    const note =
      model === BUILTIN
        ? 'The built-in model is a static word model: late-chunked and naive vectors are the same by construction.'
        : embedder.info.maxTokens < 2048
          ? `${embedder.info.label} reads ${embedder.info.maxTokens} tokens at a time: the document is embedded in windows, so context reaches only that far.`
          : null;
    post({ type: 'late', requestId: request.requestId, naive, late, model, note }, [naive.buffer, late.buffer]);
  } catch (error) {
    post({ type: 'late-error', requestId: request.requestId, message: oneLine(error) });
  }
}

function addLocalModel(model: LocalModelFiles): void {
  const id = `local/${model.name.replace(/[^\w.-]+/g, '_') || 'model'}`;
  const files = new Map<string, Blob>();
  for (const f of model.files) files.set(f.path.split('/').slice(1).join('/') || f.path, f.file);
  if (!files.has('config.json') || !files.has('tokenizer.json') || ![...files.keys()].some((p) => p.startsWith('onnx/') && p.endsWith('.onnx'))) {
    post({ type: 'local-model', id, ok: false, message: 'That folder is not a transformers.js model (it needs config.json, tokenizer.json and onnx/*.onnx).' });
    return;
  }
  localFolders.set(id, files);
  if (loaded?.id === id) loaded = null;
  post({ type: 'local-model', id, ok: true, message: `Loaded ${model.name} from a local folder.` });
}

self.onmessage = (event: MessageEvent<EmbedRequest>) => {
  const request = event.data;
  switch (request.type) {
    case 'document':
      documentText = request.text;
      documentVersion = request.version;
      return;
    case 'semantic':
      newestJob = Math.max(newestJob, request.jobId);
      void runSemantic(request);
      return;
    case 'cancel':
      cancelledUpTo = Math.max(cancelledUpTo, request.jobId);
      if (inflight && request.jobId >= inflight.jobId) inflight.signal.aborted = true;
      return;
    case 'tokens':
      void runTokens(request.jobId);
      return;
    case 'export':
      runExport(request);
      return;
    case 'local-model':
      addLocalModel(request.model);
      return;
    case 'late':
      void runLate(request);
      return;
  }
};

self.addEventListener('unhandledrejection', (event) => event.preventDefault());
post({ type: 'ready' });
