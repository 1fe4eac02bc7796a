import type { StoreApi } from 'zustand';
import { StaleJobError, type ChunkClient } from '../bridge/chunkClient';
import { EVAL_OPTIONS, getRetriever, validateEvalOptions, type EvalSettings, type GoldenQuestion } from '../core/describe';
import type { LabEvaluatePayload, ProbeRequest } from '../worker/protocol';
import { toChunkOptions } from './chunkOptions';
import type { Config } from './configSlice';
import { documentFacts } from './jobs';
import { belongsToActive, corpusRequest, corpusSnapshot, optionsFor, sameCorpus, stampCorpus, type CorpusSnapshot } from './documentSetLab';
import { UNTITLED } from './documentSetSlice';
import { GOLDEN_STORAGE_KEY, parseStoredGolden, presentReferences, reanchor, serializeGolden, toGoldenQuestions, type GoldenItem } from './labGolden';
import { sweepConfigurations, type SweepPoint, type SweepSpec } from './labSweep';
import { settingsKey } from './labBaseline';
import { readLabShare, writeLabShare } from './labLayout';
import { LLM_COMPARE_RETRIEVERS, llmCompareReadiness, llmRetrievalFor, llmRunCost, resultKeyOf, type LlmCompareRow } from './labLlm';
import type { AppState } from './store';
import { sameItems, watch } from './watch';

/**
 * The lab's side effects, each watching its part of the store:
 * - the probe: a new painted result, query or retriever setting asks the chunk worker (which holds the chunks) for
 *   the top k; the newest request wins (older ones are aborted, stale answers dropped);
 * - the golden set: read with the document at start, written when it changes, re-anchored after document edits;
 * - runs of the golden set, the sweep (one configuration per worker call: progress between them, cancel at once)
 *   and the comparison with the pinned configuration A.
 */

export const REANCHOR_DELAY_MS = 250;
export const COMPARE_DELAY_MS = 150;

/** The evaluation settings of a configuration (the option table's eval rows). */
export function evalSettingsOf(config: Config): EvalSettings {
  const given: Record<string, unknown> = { strategy: config.strategy };
  for (const spec of EVAL_OPTIONS) given[spec.name] = config[spec.name as keyof Config];
  return validateEvalOptions(given);
}

function settingsOrNull(config: Config): EvalSettings | null {
  try {
    return evalSettingsOf(config);
  } catch {
    return null;
  }
}

/**
 * The probe a chunk job carries (ProbeRequest): the lab open with a question and a retriever that needs no
 * embeddings (BM25). Its ranking comes back with the chunks, so a slider move paints both at once.
 */
export function rideAlongProbe(s: AppState): ProbeRequest | null {
  if (!s.labOpen || s.query.trim() === '') return null;
  const settings = settingsOrNull(s.config);
  return settings && !getRetriever(settings.retriever).needsEmbeddings ? { query: s.query, settings } : null;
}

const sameRequest = (a: ProbeRequest | null | undefined, b: ProbeRequest | null) =>
  !!a && !!b && a.query === b.query && JSON.stringify(a.settings) === JSON.stringify(b.settings);

const oneLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/**
 * The golden set's questions of the document shown a run can measure: a question, and at least one answer still in
 * the text (the LLM tab measures the document shown; a golden-set run, the sweep and the comparison, every open one).
 */
function measuredQuestions(s: AppState): GoldenItem[] {
  const own = s.golden.filter((q) => belongsToActive(s, q));
  return presentReferences(own, s.text).filter((q) => q.references.length > 0 && q.question !== '');
}

const isAbort = (signal: AbortSignal, error: unknown) => signal.aborted || error instanceof StaleJobError || (error as Error)?.name === 'AbortError';

type Store = StoreApi<AppState>;

export interface LabJobs {
  runGolden(): Promise<void>;
  runSweep(spec: SweepSpec): Promise<void>;
  cancelSweep(): void;
  pin(): void;
  unpin(): void;
  /** Plain chunks against the page's LLM result, under BM25, dense and hybrid. */
  runLlmCompare(): Promise<void>;
  stop(): void;
}

// ---- golden set storage ----

/** The golden set saved with the document: read back (a corrupt one discarded with a notice), then re-anchored. */
function restoreGolden(store: Store, storage: Storage | null): void {
  const stored = storage ? parseStoredGolden(storage.getItem(GOLDEN_STORAGE_KEY)) : null;
  if (stored === 'corrupt') store.getState().setNotice('The saved golden set was unreadable and has been discarded.');
  else if (stored) store.getState().loadGolden(stored);
  followText(store);
}

/** The golden set's references found again in the current text (moved ones follow, lost ones are flagged). */
function followText(store: Store): void {
  const s = store.getState();
  const own = s.golden.filter((q) => belongsToActive(s, q));
  const { set, states, changed } = reanchor(own, s.text);
  if (!changed) return s.reanchored(states);
  const moved = new Map(set.map((q) => [q.id, q]));
  s.reanchored(states, s.golden.map((q) => moved.get(q.id) ?? q));
}

function saveGolden(store: Store, storage: Storage | null, golden: readonly GoldenItem[]): void {
  try {
    storage?.setItem(GOLDEN_STORAGE_KEY, serializeGolden(golden));
  } catch {
    store.getState().setNotice('The golden set could not be saved in this browser; export it to keep it.');
  }
}

// ---- probe ----

/**
 * The query probe: the painted chunks' top k for the question. A ranking the chunk job brought along is shown as is;
 * otherwise the worker is asked, and a newer request aborts the older one (stale answers are dropped).
 */
function probeRunner(store: Store, chunks: ChunkClient) {
  let inFlight: AbortController | null = null;
  const get = () => store.getState();
  function probe(requestedAt: number): void {
    inFlight?.abort();
    inFlight = null;
    const s = get();
    if (!s.labOpen || !s.result) return;
    if (s.query.trim() === '') {
      if (s.probe || s.probeError) s.clearProbe();
      return;
    }
    const settings = settingsOrNull(s.config);
    if (!settings) return; // the controls show the option's one-line error
    const { jobId, version } = s.result;
    const answered = { requestedAt, version, settingsKey: settingsKey(settings), retriever: settings.retriever, embedder: s.config.embedder };
    // The job ranked this very question already (a slider move with the probe open): no second call.
    if (sameRequest(s.result.probeRequest, rideAlongProbe(s)) && (s.result.probe || s.result.probeError)) {
      const ranked = s.result.probe;
      if (ranked) s.probeAnswered({ ...ranked, ...answered });
      else s.probeFailed(s.result.probeError!);
      return;
    }
    const abort = new AbortController();
    inFlight = abort;
    chunks.probe(jobId, s.query, settings, abort.signal).then(
      (payload) => {
        if (abort.signal.aborted || get().result?.jobId !== jobId) return;
        get().probeAnswered({ ...payload, ...answered });
      },
      (error: unknown) => {
        if (isAbort(abort.signal, error)) return;
        // A restart of the chunk worker (a runaway job cancelled) drops the call; the next result asks again.
        if (/restarted/.test(oneLine(error))) return;
        get().probeFailed(oneLine(error));
      },
    );
  }
  return { probe, stop: () => inFlight?.abort() };
}

// ---- golden-set run ----

/** Score the golden set on the painted chunks (the run is kept with the job it scored). */
async function runGoldenSet(store: Store, chunks: ChunkClient): Promise<void> {
  const s = store.getState();
  if (!s.result) return;
  const settings = settingsOrNull(s.config);
  if (!settings) return;
  // Every open document's questions; the other documents chunked with the same configuration (one index).
  const { questions, ids, corpus } = corpusRequest(s, s.config);
  if (questions.length === 0) {
    s.goldenRunRefused(s.golden.length > 0 && s.openDocuments.length > 0 ? 'No question of an open document has an answer marked yet.' : 'Add a question and mark its answer in the editor first.');
    return;
  }
  s.goldenRunStarted();
  const jobId = s.result.jobId;
  const snapshot = corpus ? corpusSnapshot(s, s.config) : null;
  try {
    const payload = await chunks.evaluate({ jobId, questions, settings, ...(corpus ? { corpus } : {}) });
    // A retriever that embeds is scored beside BM25 on the same chunks (means only, no embeddings: cheap), so the
    // lab can say when the embedder, not the chunking, is what loses.
    const embeds = getRetriever(settings.retriever).needsEmbeddings;
    const bm25Settings = { ...settings, retriever: 'bm25' } as EvalSettings;
    const bm25 = embeds ? await chunks.evaluate({ jobId, questions, settings: bm25Settings, summary: true, ...(corpus ? { corpus } : {}) }).catch(() => null) : null;
    const run = { payload, ids, jobId, retriever: settings.retriever, embedder: s.config.embedder, bm25Means: bm25 ? { ...bm25.result.means } : null };
    store.getState().goldenRunFinished(snapshot && corpus ? { ...run, corpus: { snapshot, active: corpus.active } } : run);
  } catch (error) {
    const stale = error instanceof StaleJobError;
    store.getState().goldenRunFailed(stale ? 'The chunks changed during the run: run it again.' : oneLine(error));
  }
}

// ---- plain against the page's LLM result ----

/**
 * The painted chunks ("plain") and the page's last LLM run ("with the feature") scored on the golden set under each
 * retriever of LLM_COMPARE_RETRIEVERS, two worker calls per row (means only). A retriever that fails (an embedder
 * that cannot load) is a row with its one line; the others still run.
 */
async function runLlmComparison(store: Store, chunks: ChunkClient): Promise<void> {
  const s = store.getState();
  const readiness = llmCompareReadiness(s.llmResult, s.documentSerial, s.text);
  if (readiness.kind === 'none') return s.llmCompareRefused('No LLM result yet: run a feature in the LLM panel first.');
  if (readiness.kind === 'stale') return s.llmCompareRefused(readiness.message);
  const settings = settingsOrNull(s.config);
  const measured = measuredQuestions(s);
  if (!s.result || !settings) return;
  if (measured.length === 0) return s.llmCompareRefused('Add a question and mark its answer in the editor first.');
  const result = readiness.result;
  const retrieval = llmRetrievalFor(result.feature);
  const questions = toGoldenQuestions(measured);
  const jobId = s.result.jobId;
  const empty = (retriever: string): LlmCompareRow => ({ retriever, plain: null, llm: null, plainIndexed: null, llmIndexed: null });
  s.llmCompareStarted({ feature: result.feature, retrieval, resultKey: resultKeyOf(result), rows: LLM_COMPARE_RETRIEVERS.map(empty), done: 0, running: true, error: null, cost: llmRunCost(result) });
  for (let i = 0; i < LLM_COMPARE_RETRIEVERS.length; i++) {
    const retriever = LLM_COMPARE_RETRIEVERS[i]!;
    const st = { ...settings, retriever } as EvalSettings;
    let row: LlmCompareRow;
    try {
      const plain = await chunks.evaluate({ jobId, questions, settings: st, summary: true });
      const llm = await chunks.evaluate({ jobId, questions, settings: st, summary: true, derived: { chunks: result.chunks, retrieval } });
      row = { retriever, plain: { ...plain.result.means }, llm: { ...llm.result.means }, plainIndexed: plain.result.index.indexed, llmIndexed: llm.result.index.indexed };
    } catch (error) {
      const stale = error instanceof StaleJobError;
      row = { ...empty(retriever), error: stale ? 'The chunks changed during the run: run it again.' : oneLine(error) };
    }
    store.getState().llmCompareRowDone(i, row);
  }
  store.getState().llmCompareFinished();
}

// ---- sweep ----

/**
 * One configuration of a sweep, chunked and scored in the worker (summary only). A restart of the chunk worker (a
 * runaway chunk job was cancelled) drops the call: it is asked once more. Null: the sweep was cancelled.
 */
async function sweepPoint(store: Store, chunks: ChunkClient, config: Config, values: Partial<Config>, questions: GoldenQuestion[], signal: AbortSignal): Promise<SweepPoint | null> {
  const t0 = performance.now();
  try {
    const settings = evalSettingsOf(config);
    const s = store.getState();
    const options = toChunkOptions(config, documentFacts(s));
    // Several documents open: each chunked with this configuration (its own name and pages), one index.
    const others = s.openDocuments.flatMap((d, i) => (i === s.activeDocument ? [] : [{ id: d.name, text: d.text, options: optionsFor(config, d) }]));
    const corpus = s.openDocuments.length > 0 ? { corpus: { active: s.docName ?? UNTITLED, others } } : {};
    const input = { options, questions, settings, summary: true, ...corpus };
    let payload: LabEvaluatePayload;
    try {
      payload = await chunks.evaluate(input, signal);
    } catch (error) {
      if (signal.aborted) return null;
      if (/restarted/.test(oneLine(error))) payload = await chunks.evaluate(input, signal);
      else throw error;
    }
    const r = payload.result;
    return { values, means: { ...r.means }, chunks: r.index.indexed, tokens: r.index.embeddingTokens, ms: performance.now() - t0 };
  } catch (error) {
    if (signal.aborted) return null;
    return { values, means: null, chunks: null, tokens: null, ms: performance.now() - t0, error: oneLine(error) };
  }
}

/** The sweep: the golden set over a grid of configurations, one worker call each (progress between, cancel at once). */
function sweepRunner(store: Store, chunks: ChunkClient) {
  let running: AbortController | null = null;
  const get = () => store.getState();
  async function run(spec: SweepSpec): Promise<void> {
    running?.abort();
    const abort = new AbortController();
    running = abort;
    const s = get();
    const { questions } = corpusRequest(s, s.config);
    const configs = sweepConfigurations(spec);
    const startedAt = performance.now();
    if (questions.length === 0 || configs.length === 0) {
      s.sweepRefused(questions.length === 0 ? 'The sweep scores the golden set: add a question with an answer first.' : 'No configuration to run: every overlap is at or above the size.', startedAt);
      return;
    }
    const base = s.config;
    s.startSweep(configs.map((values) => ({ values, means: null, chunks: null, tokens: null, ms: 0 })), startedAt);
    for (let i = 0; i < configs.length; i++) {
      if (abort.signal.aborted) return;
      const point = await sweepPoint(store, chunks, { ...base, ...configs[i] } as Config, configs[i]!, questions, abort.signal);
      if (point === null) return;
      get().sweepPointDone(i, point, performance.now() - startedAt);
    }
    get().sweepFinished(performance.now() - startedAt);
    if (running === abort) running = null;
  }
  function cancel(): void {
    running?.abort();
    running = null;
    get().sweepCancelled();
  }
  return { run, cancel, stop: () => running?.abort() };
}

// ---- compare with the pinned configuration A ----

const sameSnapshot = (a: CorpusSnapshot | null, b: CorpusSnapshot | null): boolean => (a === null || b === null ? a === b : sameCorpus(a, b));

/**
 * The comparison: the pinned configuration A is chunked and scored in the worker (kept while its options, the
 * document and the questions stay the same), the painted chunks (B) scored beside it. Debounced; the newest wins.
 */
function comparer(store: Store, chunks: ChunkClient) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  let runA: { key: string; snapshot: CorpusSnapshot | null; payload: LabEvaluatePayload } | null = null;
  const get = () => store.getState();
  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void compare(), COMPARE_DELAY_MS);
  }
  async function compare(): Promise<void> {
    timer = null;
    inFlight?.abort();
    const s = get();
    if (!s.pinned || !s.result) {
      if (s.comparison) s.clearComparison();
      return;
    }
    const abort = new AbortController();
    inFlight = abort;
    // Several documents open: both configurations are scored over all of them as one index, as a golden-set run is.
    const requestA = corpusRequest(s, s.pinned);
    const questions = requestA.questions;
    const snapshot = requestA.corpus ? corpusSnapshot(s, s.pinned) : null;
    const jobId = s.result.jobId;
    try {
      const settingsA = evalSettingsOf(s.pinned);
      const optionsA = toChunkOptions(s.pinned, documentFacts(s));
      const key = JSON.stringify([optionsA, settingsA, s.docVersion, questions]);
      if (runA?.key !== key || !sameSnapshot(runA.snapshot, snapshot)) {
        const payload = await chunks.evaluate({ options: optionsA, questions, settings: settingsA, ranges: true, ...(requestA.corpus ? { corpus: requestA.corpus } : {}) }, abort.signal);
        runA = { key, snapshot, payload };
      }
      const settingsB = evalSettingsOf(get().config);
      const corpusB = corpusRequest(get(), get().config).corpus;
      const runB = questions.length ? await chunks.evaluate({ jobId, questions, settings: settingsB, ...(corpusB ? { corpus: corpusB } : {}) }, abort.signal) : null;
      if (abort.signal.aborted || get().result?.jobId !== jobId) return;
      get().compared({ starts: runA.payload.starts!, ends: runA.payload.ends!, runA: questions.length ? runA.payload : null, runB, jobId });
    } catch (error) {
      if (isAbort(abort.signal, error)) return;
      get().compareFailed(`Configuration A: ${oneLine(error)}`);
    }
  }
  return {
    schedule,
    pin: () => get().pinConfiguration(),
    unpin: () => {
      runA = null;
      get().unpinConfiguration();
    },
    stop: () => {
      inFlight?.abort();
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * The lab's jobs wired to the store: the golden set restored, then one watch per effect (the probe follows the
 * painted result, the question and the evaluation settings; the golden set is saved and re-anchored; the comparison
 * follows the pin, the result and the golden set).
 */
export function startLabJobs(store: Store, chunks: ChunkClient, storage: Storage | null): LabJobs {
  let reanchorTimer: ReturnType<typeof setTimeout> | null = null;
  restoreGolden(store, storage);
  store.getState().setLabShare(readLabShare(storage));
  const probe = probeRunner(store, chunks);
  const sweep = sweepRunner(store, chunks);
  const compare = comparer(store, chunks);
  const unsubscribe = [
    watch(
      store,
      (s) => [s.result, s.query, s.labOpen, ...EVAL_OPTIONS.map((spec) => s.config[spec.name as keyof Config])],
      (next, prev) => probe.probe(next[0] !== prev[0] ? ((next[0] as AppState['result'])?.requestedAt ?? performance.now()) : performance.now()),
      sameItems,
    ),
    watch(store, (s) => s.golden, (golden) => saveGolden(store, storage, golden)),
    // A set opens: questions written on the document shown so far belong to it (by its name, as a corpus id).
    watch(store, (s) => s.openDocuments.length > 0, (inSet) => {
      const s = store.getState();
      const stamped = inSet ? stampCorpus(s.golden, s.docName ?? UNTITLED) : null;
      if (stamped) s.loadGolden(stamped);
    }),
    watch(store, (s) => s.labShare, (share) => writeLabShare(storage, share)),
    watch(store, (s) => s.text, () => {
      if (reanchorTimer) clearTimeout(reanchorTimer);
      reanchorTimer = setTimeout(() => followText(store), REANCHOR_DELAY_MS);
    }),
    watch(store, (s) => [s.pinned, s.result, s.golden] as const, compare.schedule, sameItems),
  ];
  if (store.getState().pinned) compare.schedule();
  // Started after the lab was opened (they load on first need, controller.ts): its probe runs now.
  if (store.getState().labOpen) probe.probe(performance.now());
  return {
    runGolden: () => runGoldenSet(store, chunks),
    runSweep: sweep.run,
    cancelSweep: sweep.cancel,
    pin: compare.pin,
    unpin: compare.unpin,
    runLlmCompare: () => runLlmComparison(store, chunks),
    stop: () => {
      for (const u of unsubscribe) u();
      probe.stop();
      sweep.stop();
      compare.stop();
      if (reanchorTimer) clearTimeout(reanchorTimer);
    },
  };
}
