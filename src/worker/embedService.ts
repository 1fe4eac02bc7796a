import type { Range } from '../core/types';
import { querySimilarities } from '../embed/late';
import type { Embedder } from '../embed/types';
import type { EmbedderSummary, EmbedEvents, EmbedMainApi, EmbedPortApi, LateAnswer } from './embedProtocol';
import { lookupEmbeddings, storeDocumentEmbeddings, storeEmbeddings, textsKey } from './embeddingCache';
import { rpcServe, withTransfer, type Endpoint, type Handlers } from './rpc';

/**
 * The embedding worker's service: loads an embedding model once and embeds what chunk workers ask for over their
 * MessagePorts (cached per model and text in embeddingCache.ts: memory, and IndexedDB per document). The chunking
 * itself — sentences, distances, thresholds, chunks — is core's chunk() in the chunk worker.
 *
 * Jobs do not queue behind each other: a newer job takes over the embedding an older one started when it needs the
 * same texts, and aborts it when it needs other ones (the older result would be dropped anyway). The page cancels by
 * job id (`cancel`); this worker is never killed for that (loading a model costs seconds).
 */

const BUILTIN = 'builtin';
const PROGRESS_INTERVAL_MS = 80;

/** What the browser (embed.worker.ts) or a test provides: how to load a model, and facts about the runtime. */
export interface EmbedRuntime {
  load(model: string, options: { allowRemote: boolean; onDownloadProgress: (p: { file: string; loaded: number; total: number }) => void }): Promise<Embedder>;
  /** Threads in the WASM pool. */
  threads: number;
  isolated: boolean;
  /** Serve a picked folder's files as model `id` (embed.worker.ts: through transformers.js' fetch). */
  addLocalFolder?(id: string, files: Map<string, Blob>): void;
  /** Why a loaded model runs where it runs, when that is a fallback (WASM instead of WebGPU). */
  noteFor?(embedder: Embedder): string | undefined;
}

class EmbedCancelled extends Error {
  override name = 'EmbedCancelled';
  constructor() {
    super('embedding cancelled');
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new EmbedCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new EmbedCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

type Emit = <K extends keyof EmbedEvents>(name: K, data: EmbedEvents[K]) => void;

/** The one model the worker holds: loaded on first use, replaced (and the previous one disposed) by another. */
function modelSlot(runtime: EmbedRuntime, emit: Emit) {
  let loaded: { id: string; embedder: Promise<Embedder>; ready: boolean } | null = null;

  function load(model: string, allowRemote: boolean, jobId: number): Promise<Embedder> {
    if (loaded?.id === model) return loaded.embedder;
    const previous = loaded;
    const isHub = model !== BUILTIN && !model.startsWith('local/');
    const embedder = runtime.load(model, {
      allowRemote: isHub && allowRemote,
      onDownloadProgress: (p) => emit('download', { jobId, file: p.file, loaded: p.loaded, total: p.total }),
    });
    const entry = { id: model, embedder, ready: false };
    loaded = entry;
    embedder.then(
      (e) => {
        entry.ready = true;
        const note = runtime.noteFor?.(e);
        emit('backend', { backend: e.info.backend, threads: e.info.backend === 'wasm' ? runtime.threads : 0, isolated: runtime.isolated, ...(note ? { note } : {}) });
        if (previous) void previous.embedder.then((p) => p.dispose()).catch(() => {});
      },
      () => {
        if (loaded === entry) loaded = previous;
      },
    );
    return embedder;
  }

  /** The model, or a one-line error; a hub model that fails tells the page to fall back to the built-in one. */
  async function embedderFor(model: string, allowRemote: boolean, jobId: number): Promise<Embedder> {
    if (!(loaded?.id === model && loaded.ready)) emit('progress', { jobId, stage: 'loading', fraction: 0 });
    try {
      return await load(model, allowRemote, jobId);
    } catch (error) {
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      if (model !== BUILTIN) {
        // One line: why, and what happens now (the engine's message already says how to self-host the model).
        emit('fallback', { jobId, message: `${capitalize(reason)} — using the built-in model instead.` });
        throw new Error(`Could not load ${model}: ${reason}`);
      }
      throw new Error(`The built-in embedding model failed to load: ${reason}`);
    }
  }

  return {
    load,
    embedderFor,
    /** A local folder added again under the same id: the next use loads its new files. */
    forget(id: string): void {
      if (loaded?.id === id) loaded = null;
    },
  };
}

/** The vectors of `texts`: from the cache where known, the rest embedded (each distinct text once) and stored. */
async function cachedOrEmbedded(
  model: string,
  embedder: Embedder,
  texts: string[],
  documentKey: string,
  signal: { aborted: boolean },
  /** The job that waits on these vectors now (a newer job may take them over). */
  jobIdOf: () => number,
  emit: Emit,
): Promise<Float32Array[]> {
  const known = await lookupEmbeddings(model, texts, documentKey, (reason) =>
    emit('notice', { jobId: jobIdOf(), message: `Cached embeddings for this document were damaged (${reason}) and have been discarded; they are computed again.` }),
  );
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
    emit('progress', { jobId: jobIdOf(), stage: 'embedding', fraction: 0 });
    const vectors = await embedder.embed(missing, {
      signal,
      onProgress: (fraction) => {
        if (signal.aborted) throw new EmbedCancelled();
        const now = performance.now();
        if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
        lastProgressAt = now;
        emit('progress', { jobId: jobIdOf(), stage: 'embedding', fraction });
      },
    });
    if (signal.aborted) throw new EmbedCancelled();
    storeEmbeddings(model, missing, vectors);
    const byText = new Map<string, Float32Array>();
    missing.forEach((t, i) => byText.set(t, vectors[i]!));
    known.forEach((v, i) => {
      if (v === undefined) known[i] = byText.get(texts[i]!);
    });
    storeDocumentEmbeddings(model, texts, documentKey, known as Float32Array[]);
  }
  return known as Float32Array[];
}

/**
 * Embeddings in flight, shared: a newer job that needs the same texts takes over the embedding an older one started;
 * one that needs other texts aborts it (the older result would be dropped anyway).
 */
function sharedEmbeddings(emit: Emit) {
  let inflight: { key: string; signal: { aborted: boolean }; jobId: number; vectors: Promise<Float32Array[]> } | null = null;

  /** Vectors for `texts`, from the cache or the model; shared by jobs that need the same ones. */
  function vectorsFor(model: string, embedder: Embedder, texts: string[], jobId: number): Promise<Float32Array[]> {
    const documentKey = textsKey(texts); // hashes every text: taken once for the lookup and the write too
    const key = `${model}\u0000${documentKey}`;
    if (inflight && inflight.key === key) {
      inflight.jobId = jobId;
      return inflight.vectors;
    }
    if (inflight) inflight.signal.aborted = true;
    const signal = { aborted: false };
    const entry = { key, signal, jobId, vectors: Promise.resolve<Float32Array[]>([]) };
    entry.vectors = cachedOrEmbedded(model, embedder, texts, documentKey, signal, () => entry.jobId, emit).catch((error: unknown) => {
      throw signal.aborted ? new EmbedCancelled() : error;
    });
    inflight = entry;
    const clear = () => {
      if (inflight === entry) inflight = null;
    };
    entry.vectors.then(clear, clear);
    return entry.vectors;
  }

  return {
    vectorsFor,
    /** The embedding job `jobId` (or an earlier one) waits on stops. */
    cancel(jobId: number): void {
      if (inflight && jobId >= inflight.jobId) inflight.signal.aborted = true;
    },
  };
}

/** The late-chunking panel's answers (querySimilarities), the whole text's token vectors kept per model and version. */
function lateAnswers(models: ReturnType<typeof modelSlot>) {
  let lateTokens: { key: string; tokens: Range[]; vectors: Float32Array[] } | null = null;
  async function late(input: Parameters<EmbedMainApi['late']>[0]): Promise<LateAnswer> {
    const query = input.query.trim();
    if (!query) throw new Error('type a query');
    const { model, text } = input;
    const chunks: Range[] = Array.from(input.starts, (start, i) => ({ start, end: input.ends[i]! }));
    const embedder = await models.load(model, false, 0);
    // The whole text's token vectors, kept per model and document version: a new query embeds only itself and the chunks.
    const key = `${model}\u0000${input.version}\u0000${text.length}`;
    const tokens = {
      embedTokens: async (whole: string) => {
        if (lateTokens?.key !== key) lateTokens = { key, ...(await embedder.embedTokens(whole)) };
        return lateTokens;
      },
    };
    const { naive, late: lateSims } = await querySimilarities(embedder, query, text, chunks, tokens);
    const note =
      model === BUILTIN
        ? 'The built-in model is a static word model: late-chunked and naive vectors are the same by construction.'
        : embedder.info.maxTokens < 2048
          ? `${embedder.info.label} reads ${embedder.info.maxTokens} tokens at a time: the document is embedded in windows, so context reaches only that far.`
          : null;
    return withTransfer({ naive, late: lateSims, note }, [naive.buffer, lateSims.buffer]);
  }

  return late;
}

/** What a chunk worker asks over its MessagePort: embeddings, a model's summary, a text's tokens. */
function portHandlers(
  models: ReturnType<typeof modelSlot>,
  embeddings: ReturnType<typeof sharedEmbeddings>,
  summary: (e: Embedder) => EmbedderSummary,
  isCancelled: (jobId: number) => boolean,
): Handlers<EmbedPortApi> {
  return {
    embed: async ({ jobId, model, texts, settings }, { signal }) => {
      if (isCancelled(jobId)) throw new EmbedCancelled();
      const embedder = await raceAbort(models.embedderFor(model, settings.allowRemote, jobId), signal);
      if (isCancelled(jobId)) throw new EmbedCancelled();
      const vectors = texts.length > 0 ? await raceAbort(embeddings.vectorsFor(model, embedder, texts, jobId), signal) : [];
      const dims = vectors[0]?.length ?? embedder.info.dims;
      const packed = new Float32Array(vectors.length * dims);
      vectors.forEach((v, i) => packed.set(v, i * dims));
      return withTransfer({ vectors: packed, dims, embedder: summary(embedder) }, [packed.buffer]);
    },
    info: async ({ jobId, model, settings }) => summary(await models.embedderFor(model, settings.allowRemote, jobId)),
    tokenize: async ({ model, text }) => {
      let tokens: Range[] = [];
      try {
        tokens = (await models.load(model, false, 0)).tokenize(text);
      } catch {
        tokens = [];
      }
      const starts = Int32Array.from(tokens, (t) => t.start);
      const ends = Int32Array.from(tokens, (t) => t.end);
      return withTransfer({ starts, ends }, [starts.buffer, ends.buffer]);
    },
  };
}

/** A picked model folder's files under their paths inside it; refused unless it is a transformers.js model. */
function localModelFiles(model: Parameters<EmbedMainApi['addLocalModel']>[0]): { id: string; files: Map<string, Blob> } {
  const id = `local/${model.name.replace(/[^\w.-]+/g, '_') || 'model'}`;
  const files = new Map<string, Blob>();
  for (const f of model.files) files.set(f.path.split('/').slice(1).join('/') || f.path, f.file);
  if (!files.has('config.json') || !files.has('tokenizer.json') || ![...files.keys()].some((p) => p.startsWith('onnx/') && p.endsWith('.onnx'))) {
    throw new Error('That folder is not a transformers.js model (it needs config.json, tokenizer.json and onnx/*.onnx).');
  }
  return { id, files };
}

export function serveEmbedWorker(endpoint: Endpoint, runtime: EmbedRuntime) {
  /** Jobs up to this id were cancelled: one cancelled while its model was still loading stops before embedding. */
  let cancelledUpTo = 0;
  let served: { close(): void } | null = null;
  const emit: Emit = (name, data) => main.emit(name, data);
  const summary = (e: Embedder): EmbedderSummary => {
    const note = runtime.noteFor?.(e);
    return { ...e.info, threads: e.info.backend === 'wasm' ? runtime.threads : 0, isolated: runtime.isolated, ...(note ? { note } : {}) };
  };
  const models = modelSlot(runtime, emit);
  const embeddings = sharedEmbeddings(emit);
  const handlers = portHandlers(models, embeddings, summary, (jobId) => jobId <= cancelledUpTo);

  const main = rpcServe<EmbedMainApi>(endpoint, {
    connect: ({ port }) => {
      // One chunk worker at a time: a restarted one replaces the port of the one that was terminated.
      served?.close();
      const p = port as unknown as Endpoint & { close(): void };
      rpcServe<EmbedPortApi>(p, handlers);
      served = p;
    },
    cancel: ({ jobId }) => {
      cancelledUpTo = Math.max(cancelledUpTo, jobId);
      embeddings.cancel(jobId);
    },
    addLocalModel: (model) => {
      const { id, files } = localModelFiles(model);
      runtime.addLocalFolder?.(id, files);
      models.forget(id);
      return { id, message: `Loaded ${model.name} from a local folder.` };
    },
    late: lateAnswers(models),
  });
  return main;
}
