import type { ChunkClient } from '../bridge/chunkClient';
import type { EmbedClient, LateAnswer, LocalModelFiles } from '../bridge/embedClient';
import { downloadFile, exportedTextFor, exportFileName, type ExportFormatName } from './exportActions';
import { startJobs, type Jobs } from './jobs';
import type { LabJobs } from './labJobs';
import { loadPart } from './lazyPart';
import type { SweepSpec } from './labSweep';
import { answerEmbedderConsent, holdLinkedEmbedder } from './embedderConsent';
import { embedderDownloadHint, loadModelFolderWith } from './modelFolders';
import type { AheadChunks } from './firstChunks';
import { savePending, saveSettings } from './persistence';
import { loadStoredState, type InitialDocument } from './persistenceSync';
import type { PersistenceTarget } from './persistenceWriter';
import { dismissPreviousDocument, offerKeptDocument, restorePreviousDocument } from './previousDocument';
import { useStore, type AppState } from './store';
import type { ProbeRequest } from '../worker/protocol';
import { testHook } from './testHook';
import { sameItems, watch } from './watch';

/**
 * The page's wiring, one concern per file: jobs.ts (document and options → chunk jobs, token counts, embedding
 * progress), urlSync.ts (config ↔ URL), persistenceSync.ts (settings and document ↔ browser storage),
 * exportActions.ts, modelFolders.ts and testHook.ts. Each side effect subscribes to the slices it reads. This file
 * starts them and gives the UI its actions (the UI never sees a worker client).
 */

export { documentFacts } from './jobs';
export { downloadFile } from './exportActions';
export { embedderDownloadHint } from './modelFolders';
export { embedderConsentText } from './embedderConsent';

/** The link-model prompt's buttons: download and use the model a link named, or keep the current one. */
export function answerLinkedEmbedder(use: boolean): void {
  answerEmbedderConsent(useStore, use);
}
export type { InitialDocument } from './persistenceSync';

interface Running {
  chunks: ChunkClient;
  embed: EmbedClient | null;
  jobs: Jobs;
  /** The lab's jobs (labJobs.ts, loaded and started on first need: see startLabWhenNeeded); null if they could not load. */
  lab(): Promise<LabJobs | null>;
  stop(): void;
}

/** The persistence writers (persistenceWriter.ts): after the first paint, or at the first change before it. */
export function loadPersistenceWriter(): Promise<typeof import('./persistenceWriter')> {
  return import('./persistenceWriter');
}

/** The stale-tab banner's buttons: load the newer stored document, or keep this tab's and save it over. */
export async function resolveDocumentConflict(choice: 'load' | 'keep'): Promise<void> {
  const writer = await loadPart('document storage', loadPersistenceWriter);
  await writer?.resolveDocumentConflict(choice);
}

/** The URL codec and sync (urlSync.ts with urlCodec.ts, the settings' checks and migrations): loaded at start when
 * the address has a query, else after the first paint (a plain first visit has nothing to read). */
export function loadUrlSync(): Promise<typeof import('./urlSync')> {
  return import('./urlSync');
}

/** How long after the first paint the writers start at the latest (idle time), or after the start if none paints. */
const WRITERS_IDLE_TIMEOUT_MS = 1000;
const WRITERS_UNPAINTED_TIMEOUT_MS = 3000;

/**
 * The writers (settings and document storage, the configuration in the address bar) are not on the first paint's
 * path: nothing needs writing before something changes. `start` runs once: in idle time after the first chunks are
 * painted, at once at the first change of the settings, the document, the pinned configuration or the LLM settings
 * (or when `now`), or WRITERS_UNPAINTED_TIMEOUT_MS after the start. It returns its writers' stop, perhaps later.
 */
function startWritersSoon(what: string, load: () => Promise<{ start: () => () => void }>, now = false, guard?: () => () => void): () => void {
  let stopped = false;
  let started = false;
  let stopWriters: (() => void) | null = null;
  const cleanups: (() => void)[] = [];
  // Until the writers are in: what must not be lost meanwhile (the page going away), or nothing.
  const stopGuard = guard?.() ?? (() => {});
  const begin = () => {
    if (started || stopped) return;
    started = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    void loadPart(what, load).then((writers) => {
      if (writers && !stopped) {
        stopWriters = writers.start();
        stopGuard();
      }
    });
  };
  if (now) begin();
  else {
    const idle = () => {
      if (typeof requestIdleCallback !== 'function') return void setTimeout(begin, 0);
      const id = requestIdleCallback(begin, { timeout: WRITERS_IDLE_TIMEOUT_MS });
      cleanups.push(() => cancelIdleCallback(id));
    };
    const unpainted = setTimeout(begin, WRITERS_UNPAINTED_TIMEOUT_MS);
    cleanups.push(() => clearTimeout(unpainted));
    cleanups.push(watch(useStore, (s) => s.paintedJobId > 0, (painted) => painted && idle()));
    cleanups.push(watch(useStore, (s) => [s.config, s.pinned, s.llmSettings] as const, begin, sameItems));
    cleanups.push(watch(useStore, (s) => [s.text, s.docName, s.pageStarts] as const, begin, sameItems));
  }
  return () => {
    stopped = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    stopGuard();
    stopWriters?.();
  };
}

/**
 * Before the persistence writers are in: a page going away (reload, close, a link opened in this tab) keeps what
 * changed since the start synchronously in localStorage, as the writers' own pagehide does: the settings, and the
 * document as the pending edit the next start reads back (persistence.ts, takePending).
 */
function keepChangesOnPageHide(target: PersistenceTarget): () => void {
  const onPageHide = () => {
    const s = useStore.getState();
    const start = target.start!;
    if (s.config !== start.config) saveSettings(target.storage, s.config);
    const doc = { text: s.text, name: s.docName, pageStarts: s.pageStarts };
    const changed = doc.text !== start.document.text || doc.name !== start.document.name || doc.pageStarts !== (start.document.pageStarts ?? null);
    if (changed || target.unsaved) savePending(target.storage, doc, target.revision ?? 0);
  };
  window.addEventListener('pagehide', onPageHide);
  return () => window.removeEventListener('pagehide', onPageHide);
}

/** The lab's jobs and what they import (the retrievers, the sweep, the golden set's storage), fetched on first need. */
export function loadLabJobs(): Promise<typeof import('./labJobs')> {
  return import('./labJobs');
}

/** How long after the first paint the lab's jobs start at the latest (idle time), or after the start if none paints. */
const LAB_IDLE_TIMEOUT_MS = 1000;
const LAB_UNPAINTED_TIMEOUT_MS = 3000;

/**
 * The lab's jobs are not on the first paint's path: nothing on the first screen shows them (the lab panel, its
 * marks and its probe show only with the lab open, and the panel loads after the paint). They start at once when
 * the lab is open from the start (a link with a pinned configuration), when it is opened, or when a lab action
 * asks for them; else in idle time after the first chunks are painted. Until then a chunk job carries no probe
 * (none is asked for with the lab closed).
 */
function startLabWhenNeeded(chunks: ChunkClient): { lab: () => Promise<LabJobs | null>; probeFor: (s: AppState) => ProbeRequest | null; stop(): void } {
  let started: Promise<LabJobs | null> | null = null;
  let rideAlong: ((s: AppState) => ProbeRequest | null) | null = null;
  let stopped = false;
  const cleanups: (() => void)[] = [];
  const lab = () =>
    (started ??= loadPart('evaluation lab', loadLabJobs).then((module) => {
      if (!module || stopped) return null;
      rideAlong = module.rideAlongProbe;
      const jobs = module.startLabJobs(useStore, chunks, window.localStorage);
      cleanups.push(jobs.stop);
      return jobs;
    }));
  const startSoon = () => {
    if (started || stopped) return;
    if (typeof requestIdleCallback !== 'function') return void lab();
    const id = requestIdleCallback(() => void lab(), { timeout: LAB_IDLE_TIMEOUT_MS });
    cleanups.push(() => cancelIdleCallback(id));
  };
  if (useStore.getState().labOpen) void lab();
  else {
    const unpainted = setTimeout(() => void lab(), LAB_UNPAINTED_TIMEOUT_MS);
    cleanups.push(() => clearTimeout(unpainted));
    cleanups.push(watch(useStore, (s) => s.labOpen, (open) => open && void lab()));
    cleanups.push(watch(useStore, (s) => s.paintedJobId > 0, (painted) => painted && startSoon()));
  }
  return {
    lab,
    probeFor: (s) => rideAlong?.(s) ?? null,
    stop: () => {
      stopped = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

/** The one started page (the UI's actions reach the clients through it). */
let page: Running | null = null;

/** Read URL, stored settings and stored document; set up the store; start chunking and syncing. `ahead`: the first
 * sample's chunks built ahead (firstChunks.ts), painted when the first job is theirs. */
export async function startController(chunks: ChunkClient, fallbackDocument: InitialDocument, embed?: EmbedClient, ahead?: AheadChunks | null): Promise<void> {
  page?.stop();
  const stored = await loadStoredState(window.localStorage, fallbackDocument);
  const state = useStore.getState();
  const search = window.location.search;
  // A link's settings: the URL codec loads when the address has a query (a first visit has none).
  const url = search.length > 1 ? await loadPart('link settings', loadUrlSync) : null;
  const fromUrl = url ? url.checkedConfigFromUrl(search, stored.config) : { config: stored.config, notice: null };
  state.setConfig(await holdLinkedEmbedder(useStore, fromUrl.config, stored.config));
  state.setDocument(stored.document.text, { name: stored.document.name, pageStarts: stored.document.pageStarts ?? null });
  const notices = fromUrl.notice ? [...stored.notices, fromUrl.notice] : stored.notices;
  if (notices.length) state.setNotice(notices.join(' '));

  const pinned = url?.pinnedFromUrl(search) ?? null;
  if (pinned) state.restorePinned(pinned);
  // A document a share link replaced in an earlier visit is still offered back until dismissed.
  await offerKeptDocument(useStore);

  const lab = startLabWhenNeeded(chunks);
  const jobs = startJobs({ store: useStore, chunks, embed: embed ?? null, probeFor: lab.probeFor, ahead: ahead ?? null });
  const stopUrl = startWritersSoon('address bar sync', () => loadUrlSync().then((m) => ({ start: () => m.startUrlSync(useStore) })));
  const begun = useStore.getState();
  const target: PersistenceTarget = {
    storage: window.localStorage,
    revision: stored.revision,
    unsaved: stored.unsaved,
    start: { config: begun.config, document: { text: begun.text, name: begun.docName, pageStarts: begun.pageStarts } },
  };
  // An edit the last visit could not finish saving is saved at once.
  const stopPersistence = startWritersSoon(
    'document storage',
    () => loadPersistenceWriter().then((m) => ({ start: () => m.startPersistence(useStore, target) })),
    stored.unsaved,
    () => keepChangesOnPageHide(target),
  );
  window.__chunkscope = testHook(useStore);
  page = {
    chunks,
    embed: embed ?? null,
    jobs,
    lab: lab.lab,
    stop: () => {
      jobs.stop();
      lab.stop();
      stopUrl();
      stopPersistence();
    },
  };
}

/** "Restore my previous document" / its "Dismiss": the document a share link replaced. */
export function answerPreviousDocument(choice: 'restore' | 'dismiss'): Promise<void> {
  return choice === 'restore' ? restorePreviousDocument(useStore) : dismissPreviousDocument(useStore);
}

/** The "Cancel embedding" button: stop the embedding run; the last good result stays. */
export function cancelEmbedding(): void {
  page?.jobs.cancelEmbedding();
}

/** Late chunking panel: each painted chunk's similarity with `query`, naive and late-chunked. */
export function lateSimilarities(query: string): Promise<LateAnswer> {
  if (!page) return Promise.reject(new Error('the page has not started'));
  return page.jobs.lateSimilarities(query);
}

/** "Load model folder…": hand the folder's files to the worker and select the model. */
export async function loadModelFolder(model: LocalModelFiles): Promise<void> {
  if (!page?.embed) return;
  const { jobs } = page;
  await loadModelFolderWith(useStore, page.embed, model, () => jobs.rerun());
}

/** The painted chunks formatted by the same formatChunks the CLI uses (the worker that made them formats them). */
export async function exportedText(format: ExportFormatName): Promise<string | null> {
  if (!page) return null;
  return exportedTextFor(useStore, page.chunks, format);
}

/** Download the painted chunks as JSON or JSONL, byte-identical to the CLI's output. */
export async function exportChunks(format: ExportFormatName): Promise<void> {
  const text = await exportedText(format);
  if (text === null) return;
  const file = await exportFileName(format);
  downloadFile(file.name, text, file.type);
}

/** Evaluation lab: the painted chunks against the page's LLM result under BM25, dense and hybrid. */
export function runLlmComparison(): Promise<void> {
  return page ? page.lab().then((lab) => lab?.runLlmCompare()) : Promise.resolve();
}

/** Evaluation lab: score the golden set on the painted chunks. */
export function runGoldenSet(): Promise<void> {
  return page ? page.lab().then((lab) => lab?.runGolden()) : Promise.resolve();
}

/** Evaluation lab: run the golden set over a grid of configurations (progress in the store; cancelSweep stops it). */
export function runSweep(spec: SweepSpec): Promise<void> {
  return page ? page.lab().then((lab) => lab?.runSweep(spec)) : Promise.resolve();
}

export function cancelSweep(): void {
  void page?.lab().then((lab) => lab?.cancelSweep());
}

/** Pin the current configuration as A (compare it with what the controls say next, B). */
export function pinConfiguration(): void {
  void page?.lab().then((lab) => lab?.pin());
}

export function unpinConfiguration(): void {
  void page?.lab().then((lab) => lab?.unpin());
}
