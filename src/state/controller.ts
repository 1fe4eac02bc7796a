import type { ChunkClient } from '../bridge/chunkClient';
import type { EmbedClient, LateAnswer, LocalModelFiles } from '../bridge/embedClient';
import { downloadFile, exportedTextFor, exportFileName, type ExportFormatName } from './exportActions';
import { startJobs, type Jobs } from './jobs';
import { rideAlongProbe, startLabJobs, type LabJobs } from './labJobs';
import type { SweepSpec } from './labSweep';
import { answerEmbedderConsent, holdLinkedEmbedder } from './embedderConsent';
import { embedderDownloadHint, loadModelFolderWith } from './modelFolders';
import { loadStoredState, startPersistence, type InitialDocument } from './persistenceSync';
import { dismissPreviousDocument, offerKeptDocument, restorePreviousDocument } from './previousDocument';
import { useStore } from './store';
import { testHook } from './testHook';
import { checkedConfigFromUrl, pinnedFromUrl, startUrlSync } from './urlSync';

/**
 * The page's wiring, one concern per file: jobs.ts (document and options → chunk jobs, token counts, embedding
 * progress), urlSync.ts (config ↔ URL), persistenceSync.ts (settings and document ↔ browser storage),
 * exportActions.ts, modelFolders.ts and testHook.ts. Each side effect subscribes to the slices it reads. This file
 * starts them and gives the UI its actions (the UI never sees a worker client).
 */

export { documentFacts } from './jobs';
export { downloadFile } from './exportActions';
export { embedderDownloadHint } from './modelFolders';
export { resolveDocumentConflict } from './persistenceSync';
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
  lab: LabJobs;
  stop(): void;
}

/** The one started page (the UI's actions reach the clients through it). */
let page: Running | null = null;

/** Read URL, stored settings and stored document; set up the store; start chunking and syncing. */
export async function startController(chunks: ChunkClient, fallbackDocument: InitialDocument, embed?: EmbedClient): Promise<void> {
  page?.stop();
  const stored = await loadStoredState(window.localStorage, fallbackDocument);
  const state = useStore.getState();
  const fromUrl = checkedConfigFromUrl(window.location.search, stored.config);
  state.setConfig(await holdLinkedEmbedder(useStore, fromUrl.config, stored.config));
  state.setDocument(stored.document.text, { name: stored.document.name, pageStarts: stored.document.pageStarts ?? null });
  const notices = fromUrl.notice ? [...stored.notices, fromUrl.notice] : stored.notices;
  if (notices.length) state.setNotice(notices.join(' '));

  const pinned = pinnedFromUrl(window.location.search);
  if (pinned) state.restorePinned(pinned);
  // A document a share link replaced in an earlier visit is still offered back until dismissed.
  await offerKeptDocument(useStore);

  const jobs = startJobs({ store: useStore, chunks, embed: embed ?? null, probeFor: rideAlongProbe });
  const lab = startLabJobs(useStore, chunks, window.localStorage);
  const stopUrl = startUrlSync(useStore);
  const stopPersistence = startPersistence(useStore, { storage: window.localStorage, revision: stored.revision, unsaved: stored.unsaved });
  window.__chunkscope = testHook(useStore);
  page = {
    chunks,
    embed: embed ?? null,
    jobs,
    lab,
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
  const file = exportFileName(format);
  downloadFile(file.name, text, file.type);
}

/** Evaluation lab: the painted chunks against the page's LLM result under BM25, dense and hybrid. */
export function runLlmComparison(): Promise<void> {
  return page?.lab.runLlmCompare() ?? Promise.resolve();
}

/** Evaluation lab: score the golden set on the painted chunks. */
export function runGoldenSet(): Promise<void> {
  return page?.lab.runGolden() ?? Promise.resolve();
}

/** Evaluation lab: run the golden set over a grid of configurations (progress in the store; cancelSweep stops it). */
export function runSweep(spec: SweepSpec): Promise<void> {
  return page?.lab.runSweep(spec) ?? Promise.resolve();
}

export function cancelSweep(): void {
  page?.lab.cancelSweep();
}

/** Pin the current configuration as A (compare it with what the controls say next, B). */
export function pinConfiguration(): void {
  page?.lab.pin();
}

export function unpinConfiguration(): void {
  page?.lab.unpin();
}
