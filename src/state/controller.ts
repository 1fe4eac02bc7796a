import { STRATEGY_NAMES, UNIT_NAMES } from '../core/index';
import { ChunkJobError, StaleJobError, type ChunkClient } from '../bridge/chunkClient';
import { EmbedJobError, findEmbedderModel, formatBytes, type EmbedClient, type LocalModelFiles } from '../bridge/embedClient';
import { toChunkOptions, type DocumentFacts } from './chunkOptions';
import { DEFAULT_CONFIG } from './configSlice';
import { loadDocument, loadSettings, saveDocument, saveSettings } from './persistence';
import { useStore, type AppState } from './store';
import { decodeConfig, encodeConfig, hasConfig } from './urlCodec';

/**
 * Wires the store to the chunk worker, the URL and browser storage:
 * - any change of document or effective options starts a job at once (no debounce: the bridge lets the newest
 *   job win, so intermediate slider positions cost nothing but a dropped result);
 * - the time of that change is kept with the job so the editor can measure input-to-paint;
 * - the configuration is mirrored into the URL, settings into localStorage, the document into IndexedDB (off
 *   the hot path: debounced and idle).
 */

let client: ChunkClient | null = null;
let embedClient: EmbedClient | null = null;
/** Increases with every job of either worker: a result is painted only if no newer job was started since. */
let jobSeq = 0;

let sentDocVersion = -1;
let sentOptionsKey = '';
let sentDocText: string | null = null;

export interface InitialDocument {
  text: string;
  name: string | null;
  /** Where each page starts (a PDF), so reloaded chunks keep their page numbers. */
  pageStarts?: number[] | null;
}

/** Read URL, stored settings and stored document; set up the store; start chunking. */
export async function startController(chunkClient: ChunkClient, fallbackDocument: InitialDocument, embed?: EmbedClient): Promise<void> {
  client = chunkClient;
  embedClient = embed ?? null;
  if (embedClient) {
    embedClient.onBackend = (b) => useStore.getState().setEmbedBackend(b);
    embedClient.onEmbedderTokens = (t) => useStore.getState().setEmbedderTokens(t);
  }
  const notices: string[] = [];
  const stored = loadSettings(window.localStorage);
  let config = DEFAULT_CONFIG;
  if (stored?.ok) config = stored.config;
  else if (stored && !stored.ok) notices.push(`Saved settings were unreadable (${stored.reason}) and have been reset.`);
  const search = window.location.search;
  if (hasConfig(search)) {
    config = { ...config, ...decodeConfig(search, { strategies: STRATEGY_NAMES, units: UNIT_NAMES }) };
  }
  const storedDoc = await loadDocument();
  if (storedDoc === 'corrupt') notices.push('The saved document was unreadable and has been discarded.');
  const doc = storedDoc && storedDoc !== 'corrupt' ? storedDoc : fallbackDocument;

  const state = useStore.getState();
  state.setConfig(config);
  state.setDocument(doc.text, { name: doc.name, pageStarts: doc.pageStarts ?? null });
  if (notices.length) state.setNotice(notices.join(' '));

  useStore.subscribe(onStoreChange);
  onStoreChange();
  installTestHook();
}

/** The document's name and page starts (from a PDF import), which the options carry. */
export function documentFacts(s: AppState): DocumentFacts {
  return { name: s.docName, pageStarts: s.pageStarts };
}

function onStoreChange(): void {
  const s = useStore.getState();
  if (!client) return;
  let changed = false;
  if (s.text !== sentDocText || s.docVersion !== sentDocVersion) {
    sentDocText = s.text;
    sentDocVersion = s.docVersion;
    client.setDocument(s.docVersion, s.text);
    embedClient?.setDocument(s.docVersion, s.text);
    scheduleDocumentSave();
    changed = true;
  }
  const options = toChunkOptions(s.config, documentFacts(s));
  const key = JSON.stringify(options);
  if (key !== sentOptionsKey) {
    sentOptionsKey = key;
    changed = true;
  }
  scheduleSettingsSave();
  if (changed) runJob();
}

let tokensTimer: ReturnType<typeof setTimeout> | null = null;
/** Quiet time after a paint before token counts are asked for (a moving slider never waits on them). */
const TOKENS_DELAY_MS = 200;

/** Token counts for tooltips and the context budget come second, off the paint path, once input settles. */
function scheduleTokens(jobId: number): void {
  if (tokensTimer) clearTimeout(tokensTimer);
  tokensTimer = setTimeout(() => {
    tokensTimer = null;
    if (useStore.getState().result?.jobId !== jobId) return;
    const source = useStore.getState().result?.semantic ? embedClient! : client!;
    source
      .tokens(jobId)
      .then((tokens) => useStore.getState().setTokens({ jobId, ...tokens }))
      .catch(() => {});
  }, TOKENS_DELAY_MS);
}

let runningTimer: ReturnType<typeof setTimeout> | null = null;
const RUNNING_AFTER_MS = 150;

function runJob(): void {
  if (tokensTimer) {
    clearTimeout(tokensTimer);
    tokensTimer = null;
  }
  const requestedAt = performance.now();
  const s = useStore.getState();
  const text = s.text;
  const version = s.docVersion;
  const options = toChunkOptions(s.config, documentFacts(s));
  const seq = ++jobSeq;
  if (options.strategy === 'semantic' && embedClient) {
    runSemanticJob(seq, text, version, options, requestedAt);
    return;
  }
  useStore.getState().setEmbedProgress(null);
  // Most jobs finish within a frame or two: only a slow one turns the status to "Chunking…" (one render fewer
  // per slider step).
  if (runningTimer) clearTimeout(runningTimer);
  runningTimer = setTimeout(() => {
    runningTimer = null;
    useStore.getState().setRunning(true);
  }, RUNNING_AFTER_MS);
  const settle = () => {
    if (runningTimer) clearTimeout(runningTimer);
    runningTimer = null;
  };
  client!
    .chunk(options, { onProgress: (f) => useStore.getState().setProgress(f) })
    .then((result) => {
      settle();
      const now = useStore.getState();
      if (now.docVersion !== version || seq !== jobSeq) return; // the document moved on, or a newer job is coming
      now.setResult({ ...result, text, requestedAt, options });
      scheduleTokens(result.jobId);
    })
    .catch((error: unknown) => {
      if (error instanceof StaleJobError || seq !== jobSeq) return;
      settle();
      const message = error instanceof ChunkJobError || error instanceof Error ? error.message : String(error);
      useStore.getState().setError(message);
    });
}

/**
 * A semantic job runs in the embedding worker: the first one for a document embeds (progress, cancellable), every
 * later one for a new threshold or mode only re-splits there. Same newest-wins and last-good-result rules.
 */
function runSemanticJob(seq: number, text: string, version: number, options: ReturnType<typeof toChunkOptions>, requestedAt: number): void {
  const model = options.embedder ?? 'builtin';
  const isHub = model !== 'builtin' && !model.startsWith('local/');
  // Only a slow job shows progress (a threshold drag answers within a frame).
  if (runningTimer) clearTimeout(runningTimer);
  runningTimer = setTimeout(() => {
    runningTimer = null;
    if (seq === jobSeq) useStore.getState().setRunning(true);
  }, RUNNING_AFTER_MS);
  const settle = () => {
    if (runningTimer) clearTimeout(runningTimer);
    runningTimer = null;
    if (seq === jobSeq) useStore.getState().setEmbedProgress(null);
  };
  embedClient!
    .semantic(
      options,
      { allowRemote: isHub },
      {
        onProgress: (stage, fraction) => {
          if (seq !== jobSeq) return;
          useStore.getState().setEmbedProgress({ stage, fraction });
          if (stage === 'embedding') useStore.getState().setProgress(fraction);
        },
        onDownload: (file, loaded, total) => {
          if (seq !== jobSeq) return;
          useStore.getState().setEmbedProgress({ stage: 'downloading', fraction: total > 0 ? loaded / total : 0, loaded, total, file });
        },
        onFallback: (message) => {
          useStore.getState().setNotice(message);
          useStore.getState().setConfig({ embedder: 'builtin' });
        },
      },
    )
    .then((result) => {
      settle();
      const now = useStore.getState();
      if (now.docVersion !== version || seq !== jobSeq) return;
      now.setResult({ ...result, text, requestedAt, options });
      scheduleTokens(result.jobId);
    })
    .catch((error: unknown) => {
      if (error instanceof StaleJobError || seq !== jobSeq) return;
      settle();
      if (error instanceof EmbedJobError && error.cancelled) {
        useStore.getState().setRunning(false);
        useStore.getState().setNotice(error.message);
        return;
      }
      useStore.getState().setError(error instanceof Error ? error.message : String(error));
    });
}

/** The "Cancel embedding" button: stop the embedding run; the last good result stays. */
export function cancelEmbedding(): void {
  embedClient?.cancel();
}

/** "Load model folder…": hand the folder's files to the worker and select the model. */
export async function loadModelFolder(model: LocalModelFiles): Promise<void> {
  if (!embedClient) return;
  try {
    const { id, message } = await embedClient.addLocalModel(model);
    const s = useStore.getState();
    s.addLocalModel(id);
    s.setNotice(message);
    // Same id as before: the worker forgot the old files' model, so run again.
    if (s.config.embedder === id) runJob();
    else s.setConfig({ embedder: id, strategy: 'semantic' });
  } catch (error) {
    useStore.getState().setNotice(error instanceof Error ? error.message : String(error));
  }
}

/** Late chunking panel: each painted chunk's similarity with `query`, naive and late-chunked. */
export function lateSimilarities(query: string): Promise<{ naive: Float64Array; late: Float64Array; note: string | null }> {
  const result = useStore.getState().result;
  if (!embedClient || !result?.semantic) return Promise.reject(new Error('choose the semantic strategy first'));
  return embedClient.late(result.jobId, query);
}

/** One line about a hub model before it downloads. */
export function embedderDownloadHint(id: string): string | null {
  const model = findEmbedderModel(id);
  if (!model || model.sizeBytes === 0) return null;
  return `Downloads about ${formatBytes(model.sizeBytes)} from the Hugging Face hub once; the browser keeps it.`;
}

let settingsTimer: ReturnType<typeof setTimeout> | null = null;
let lastSavedSettings = '';
function scheduleSettingsSave(): void {
  if (settingsTimer) return;
  settingsTimer = setTimeout(() => {
    settingsTimer = null;
    const config = useStore.getState().config;
    const query = encodeConfig(config);
    if (query === lastSavedSettings) return;
    lastSavedSettings = query;
    saveSettings(window.localStorage, config);
    const url = `${window.location.pathname}?${query}${window.location.hash}`;
    window.history.replaceState(window.history.state, '', url);
  }, 120);
}

let docTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleDocumentSave(): void {
  if (docTimer) clearTimeout(docTimer);
  const { text } = useStore.getState();
  // Big documents wait longer: saving is a structured clone of the whole text.
  const delay = text.length > 1_000_000 ? 600 : 150;
  docTimer = setTimeout(() => {
    docTimer = null;
    const save = () => {
      const s = useStore.getState();
      saveDocument({ text: s.text, name: s.docName, pageStarts: s.pageStarts }).catch(() => {
        useStore.getState().setNotice('The document could not be saved in this browser; it will not survive a reload.');
      });
    };
    if ('requestIdleCallback' in window) window.requestIdleCallback(save, { timeout: 1000 });
    else save();
  }, delay);
}

/** The painted chunks formatted by the same formatChunks the CLI uses (the worker that made them formats them). */
export async function exportedText(format: 'json' | 'jsonl'): Promise<string | null> {
  const s = useStore.getState();
  if (!client || !s.result) return null;
  return s.result.semantic && embedClient
    ? embedClient.exportChunks(s.result.jobId, s.result.version, format)
    : client.exportChunks(s.result.jobId, s.result.version, s.result.options, format);
}

/** Download the painted chunks as JSON or JSONL, byte-identical to the CLI's output. */
export async function exportChunks(format: 'json' | 'jsonl'): Promise<void> {
  const text = await exportedText(format);
  if (text === null) return;
  downloadFile(format === 'json' ? 'chunks.json' : 'chunks.jsonl', text, format === 'json' ? 'application/json' : 'application/x-ndjson');
}

/** Save `text` as a file the browser downloads. */
export function downloadFile(name: string, text: string, type: string): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

declare global {
  interface Window {
    __chunkscope?: {
      setDocument(text: string): void;
      getDocument(): string;
      getConfig(): object;
      paintedJobId(): number;
      /** The painted semantic result's curve data, plus timings for the benchmark (embedMs 0: all from the cache). */
      semantic(): {
        distances: number[];
        threshold: number;
        breakpoints: number[];
        backend: string;
        embedMs: number;
        splitMs: number;
        sentencesEmbedded: number;
      } | null;
    };
  }
}

/** The hook e2e tests and the browser benchmark drive the page with. */
function installTestHook(): void {
  window.__chunkscope = {
    setDocument: (text: string) => useStore.getState().setDocument(text, { name: null }),
    getDocument: () => useStore.getState().text,
    getConfig: () => toChunkOptions(useStore.getState().config, documentFacts(useStore.getState())),
    paintedJobId: () => useStore.getState().paintedJobId,
    semantic: () => {
      const semantic = useStore.getState().result?.semantic;
      if (!semantic) return null;
      return {
        distances: Array.from(semantic.distances),
        threshold: semantic.threshold,
        breakpoints: Array.from(semantic.breakpoints),
        backend: semantic.embedder.backend,
        embedMs: semantic.embedMs,
        splitMs: semantic.splitMs,
        sentencesEmbedded: semantic.sentencesEmbedded,
      };
    },
  };
}
