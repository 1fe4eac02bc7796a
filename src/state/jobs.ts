import type { StoreApi } from 'zustand';
import { ChunkJobError, StaleJobError, type ChunkClient } from '../bridge/chunkClient';
import type { EmbedClient, LateAnswer } from '../bridge/embedClient';
import type { ProbeRequest } from '../worker/protocol';
import { toChunkOptions, type DocumentFacts } from './chunkOptions';
import { aheadResultFor, type AheadChunks } from './firstChunks';
import type { AppState } from './store';
import { sameItems, watch } from './watch';

/**
 * Jobs: any change of the document or of the effective options starts a chunk job at once (no debounce: the bridge
 * lets the newest job win, so intermediate slider positions cost nothing but a dropped result). Every strategy is one
 * kind of job (the chunk worker runs core's chunk(); semantic embeddings come from the embedding worker, whose
 * progress, downloads and fallbacks this relays to the store). The time of the change is kept with the job so the
 * editor can measure input-to-paint; token counts follow once input settles.
 */

/** Quiet time after a paint before token counts are asked for (a moving slider never waits on them). */
const TOKENS_DELAY_MS = 200;
/** Most jobs finish within a frame or two: only a slower one turns the status to "Chunking…". */
const RUNNING_AFTER_MS = 150;

/** The document's name and page starts (from a PDF import), which the options carry. */
export function documentFacts(s: Pick<AppState, 'docName' | 'pageStarts'>): DocumentFacts {
  return { name: s.docName, pageStarts: s.pageStarts };
}

export interface JobsDeps {
  store: StoreApi<AppState>;
  chunks: ChunkClient;
  /** Absent: no embedding worker (semantic jobs fail with core's one-line message). */
  embed?: EmbedClient | null;
  now?: () => number;
  /** A lab probe to rank in the same job as the chunks (see ProbeRequest), or null. */
  probeFor?: (s: AppState) => ProbeRequest | null;
  /** The first sample's chunks built ahead (firstChunks.ts): the first job's answer when its text and options are
   * theirs, painted without the worker, which runs the job once the page is idle after that paint. */
  ahead?: AheadChunks | null;
  /** When the worker starts after painting the chunks built ahead (default: workerAfterPaint). */
  afterPaint?: (store: StoreApi<AppState>, jobId: number, start: () => void) => () => void;
}

/** The worker starts at the latest this long after the chunks built ahead were painted (idle time, else then). */
const WORKER_IDLE_TIMEOUT_MS = 1000;
/** And at the latest this long after the page started, painted or not (a hidden tab paints nothing). */
const WORKER_UNPAINTED_TIMEOUT_MS = 3000;

/**
 * Calls `start` once, after job `jobId` is painted, in idle time (at most WORKER_IDLE_TIMEOUT_MS later), or at the
 * person's first key or pointer press if that comes first (the worker then loads while they act). Returns a cancel.
 */
export function workerAfterPaint(store: StoreApi<AppState>, jobId: number, start: () => void): () => void {
  const cleanups: (() => void)[] = [];
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    start();
  };
  const idle = () => {
    if (typeof requestIdleCallback !== 'function') return void setTimeout(once, 0);
    const id = requestIdleCallback(once, { timeout: WORKER_IDLE_TIMEOUT_MS });
    cleanups.push(() => cancelIdleCallback(id));
  };
  cleanups.push(watch(store, (s) => s.paintedJobId >= jobId, (painted) => painted && idle()));
  const unpainted = setTimeout(once, WORKER_UNPAINTED_TIMEOUT_MS);
  cleanups.push(() => clearTimeout(unpainted));
  const target = globalThis as Partial<Pick<Window, 'addEventListener' | 'removeEventListener'>>;
  if (target.addEventListener && target.removeEventListener) {
    for (const type of ['pointerdown', 'keydown'] as const) {
      target.addEventListener(type, once, { capture: true, passive: true });
      cleanups.push(() => target.removeEventListener!(type, once, { capture: true }));
    }
  }
  return () => {
    done = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
}

export interface Jobs {
  /** Run a job for the current document and options even if nothing changed (a model folder was reloaded). */
  rerun(): void;
  /** The "Cancel embedding" button: stop the embedding the newest job waits on; the last good result stays. */
  cancelEmbedding(): void;
  /** Late chunking: each painted chunk's similarity with `query`, naive and late-chunked. */
  lateSimilarities(query: string, signal?: AbortSignal): Promise<LateAnswer>;
  stop(): void;
}

/** What the embedding worker reports (backend, progress, downloads, notices, fallbacks, a crash), relayed to the store
 * for the newest job only. */
function relayEmbedEvents(embed: EmbedClient, store: StoreApi<AppState>, chunks: ChunkClient, isNewest: (jobId: number) => boolean): void {
  embed.events = {
    onBackend: (b) => store.getState().setEmbedBackend(b),
    onProgress: ({ jobId, stage, fraction }) => {
      if (!isNewest(jobId)) return;
      store.getState().setEmbedProgress({ stage, fraction });
      if (stage === 'embedding') store.getState().setProgress(fraction);
    },
    onDownload: ({ jobId, file, loaded, total }) => {
      if (!isNewest(jobId)) return;
      // The built-in model and picked folders are local files (transformers.js reports their reads as downloads):
      // they load, they do not download.
      const model = store.getState().config.embedder;
      if (model === 'builtin' || model.startsWith('local/')) {
        store.getState().setEmbedProgress({ stage: 'loading', fraction: total > 0 ? loaded / total : 0 });
        return;
      }
      store.getState().setEmbedProgress({ stage: 'downloading', fraction: total > 0 ? loaded / total : 0, loaded, total, file });
    },
    onNotice: ({ message }) => store.getState().setNotice(message),
    onFallback: ({ message }) => {
      store.getState().setNotice(message);
      store.getState().setConfig({ embedder: 'builtin' });
    },
    // What waited on the dead worker fails with this message (the job shows it); the next job starts a fresh one.
    onCrash: (message) => chunks.reconnectEmbedder(message),
  };
}

interface TokenCounts {
  /** Ask for the painted job's token counts once input settles (and the editor has taken in the document). */
  schedule(jobId: number, semantic: boolean): void;
  /** Forget a pending or running request (a new job started, or the jobs stopped). */
  clear(): void;
}

/**
 * Token counts for tooltips and the context budget (and, for semantic, the model's own tokens) come second, and
 * not while the editor is still taking in a large document: on a 10 MiB paste the counts (seconds of the
 * worker's time) ran beside the editor's last pieces and the first paint, and on two cores took CPU from them.
 */
function tokenCounts(store: StoreApi<AppState>, chunks: ChunkClient): TokenCounts {
  let tokensTimer: ReturnType<typeof setTimeout> | null = null;
  let tokensAbort: AbortController | null = null;
  let stopWaitingForEditor: (() => void) | null = null;

  function clearTokens(): void {
    if (tokensTimer) clearTimeout(tokensTimer);
    tokensTimer = null;
    stopWaitingForEditor?.();
    stopWaitingForEditor = null;
    tokensAbort?.abort();
    tokensAbort = null;
  }

  function scheduleTokens(jobId: number, semantic: boolean): void {
    clearTokens();
    if (store.getState().loadProgress !== null) {
      stopWaitingForEditor = store.subscribe((s) => {
        if (s.loadProgress !== null) return;
        stopWaitingForEditor?.();
        stopWaitingForEditor = null;
        scheduleTokens(jobId, semantic);
      });
      return;
    }
    tokensTimer = setTimeout(() => {
      tokensTimer = null;
      if (store.getState().result?.jobId !== jobId) return;
      const abort = new AbortController();
      tokensAbort = abort;
      chunks
        .tokens(jobId, abort.signal)
        .then((counts) => store.getState().setTokens(counts))
        .catch(() => {});
      if (semantic) {
        chunks
          .embedderTokens(jobId, abort.signal)
          .then((t) => store.getState().setEmbedderTokens(t))
          .catch(() => {});
      }
    }, TOKENS_DELAY_MS);
  }

  return { schedule: scheduleTokens, clear: clearTokens };
}

interface RunningStatus {
  /** A job started: only if it is still the newest after RUNNING_AFTER_MS does the status turn to "Chunking…". */
  started(jobId: number): void;
  /** The newest job ended (result or error): no "Chunking…" to come, no embedding progress left. */
  settle(jobId: number): void;
  stop(): void;
}

function runningStatus(store: StoreApi<AppState>, isNewest: (jobId: number) => boolean): RunningStatus {
  let runningTimer: ReturnType<typeof setTimeout> | null = null;
  return {
    started(jobId) {
      if (runningTimer) clearTimeout(runningTimer);
      runningTimer = setTimeout(() => {
        runningTimer = null;
        if (isNewest(jobId)) store.getState().setRunning(true);
      }, RUNNING_AFTER_MS);
    },
    settle(jobId) {
      if (!isNewest(jobId)) return;
      if (runningTimer) clearTimeout(runningTimer);
      runningTimer = null;
      if (store.getState().embedProgress) store.getState().setEmbedProgress(null);
    },
    stop() {
      if (runningTimer) clearTimeout(runningTimer);
    },
  };
}

/** A failed job: a cancelled embedding is a notice (the last good result stays), anything else the error. */
function showJobError(store: StoreApi<AppState>, error: unknown): void {
  if (error instanceof ChunkJobError && error.cancelled) {
    store.getState().setRunning(false);
    store.getState().setNotice(error.message);
    return;
  }
  store.getState().setError(error instanceof Error ? error.message : String(error));
}

function lateSimilarities(store: StoreApi<AppState>, embed: EmbedClient | null, query: string, signal?: AbortSignal): Promise<LateAnswer> {
  const result = store.getState().result;
  if (!embed || !result?.semantic) return Promise.reject(new Error('choose the semantic strategy first'));
  return embed.late(
    { model: result.options.embedder ?? 'builtin', version: result.version, text: result.text, starts: result.starts, ends: result.ends, query },
    signal,
  );
}

export function startJobs({ store, chunks, embed = null, now = () => performance.now(), probeFor, ahead = null, afterPaint = workerAfterPaint }: JobsDeps): Jobs {
  let sentOptionsKey = '';
  let stopAfterPaint: (() => void) | null = null;
  const isNewest = (jobId: number) => jobId === chunks.latestJobId;
  const tokens = tokenCounts(store, chunks);
  const running = runningStatus(store, isNewest);

  if (embed) relayEmbedEvents(embed, store, chunks, isNewest);

  /** `quiet`: the worker's answer to a job whose chunks are painted already (built ahead): no "Chunking…". */
  function run(quiet = false): void {
    stopAfterPaint?.();
    stopAfterPaint = null;
    tokens.clear();
    const requestedAt = now();
    const s = store.getState();
    const text = s.text;
    const version = s.docVersion;
    const documentSerial = s.documentSerial;
    const options = toChunkOptions(s.config, documentFacts(s));
    sentOptionsKey = JSON.stringify(options);
    const probeRequest = probeFor?.(s) ?? undefined;
    const job = chunks.chunk(options, { onProgress: (f) => store.getState().setProgress(f), probe: probeRequest });
    const jobId = chunks.latestJobId;
    if (!quiet) running.started(jobId);
    job.then(
      (result) => {
        running.settle(jobId);
        const current = store.getState();
        if (current.docVersion !== version || !isNewest(jobId)) return; // the document moved on, or a newer job is coming
        current.setResult({ ...result, text, documentSerial, requestedAt, options, ...(probeRequest ? { probeRequest } : {}) });
        tokens.schedule(jobId, result.semantic !== undefined);
      },
      (error: unknown) => {
        if (error instanceof StaleJobError || !isNewest(jobId)) return;
        running.settle(jobId);
        showJobError(store, error);
      },
    );
  }

  const unsubscribe = [
    // The document: sent once per version (the worker keeps it), then a job.
    watch(
      store,
      (s) => [s.text, s.docVersion] as const,
      ([text, version]) => {
        chunks.setDocument(version, text);
        run();
      },
      sameItems,
    ),
    // The options: what the config and the document's facts make (a change that does not alter them runs nothing).
    watch(
      store,
      (s) => [s.config, s.docName, s.pageStarts] as const,
      () => {
        const s = store.getState();
        if (JSON.stringify(toChunkOptions(s.config, documentFacts(s))) !== sentOptionsKey) run();
      },
      sameItems,
    ),
  ];

  /**
   * The first job, when it is the one whose chunks were built ahead (a first visit): they are painted now, and the
   * worker (started after that paint) runs the job again; its answer, the same chunks, replaces them and brings the
   * token counts. A change before that (a slider move, an edit) runs its own job as always.
   */
  function paintAhead(): boolean {
    const s = store.getState();
    const options = toChunkOptions(s.config, documentFacts(s));
    if (!ahead || probeFor?.(s)) return false;
    const result = aheadResultFor(ahead, s.text, options, 0, s.docVersion);
    if (!result) return false;
    const jobId = chunks.reserveJobId();
    sentOptionsKey = JSON.stringify(options);
    s.setResult({ ...result, jobId, text: s.text, documentSerial: s.documentSerial, requestedAt: now(), options });
    stopAfterPaint = afterPaint(store, jobId, () => {
      stopAfterPaint = null;
      if (chunks.latestJobId === jobId) run(true);
    });
    return true;
  }

  // The first job: the store already holds the document and configuration read at start.
  chunks.setDocument(store.getState().docVersion, store.getState().text);
  if (!paintAhead()) run();

  return {
    rerun: () => run(),
    cancelEmbedding: () => {
      void embed?.cancel(chunks.latestJobId).catch(() => {});
    },
    lateSimilarities: (query, signal) => lateSimilarities(store, embed, query, signal),
    stop: () => {
      for (const u of unsubscribe) u();
      stopAfterPaint?.();
      tokens.clear();
      running.stop();
    },
  };
}
