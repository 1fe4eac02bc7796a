import type { StoreApi } from 'zustand';
import { StaleJobError, type ChunkClient } from '../bridge/chunkClient';
import { EVAL_OPTIONS, getRetriever, validateEvalOptions, type EvalSettings } from '../core/describe';
import type { LabEvaluatePayload, ProbeRequest } from '../worker/protocol';
import { toChunkOptions } from './chunkOptions';
import type { Config } from './configSlice';
import { documentFacts } from './jobs';
import { GOLDEN_STORAGE_KEY, parseStoredGolden, presentReferences, reanchor, serializeGolden, toGoldenQuestions } from './labGolden';
import { sweepConfigurations, type SweepPoint, type SweepSpec } from './labSweep';
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

export interface LabJobs {
  runGolden(): Promise<void>;
  runSweep(spec: SweepSpec): Promise<void>;
  cancelSweep(): void;
  pin(): void;
  unpin(): void;
  stop(): void;
}

export function startLabJobs(store: StoreApi<AppState>, chunks: ChunkClient, storage: Storage | null): LabJobs {
  let probeAbort: AbortController | null = null;
  let sweepAbort: AbortController | null = null;
  let reanchorTimer: ReturnType<typeof setTimeout> | null = null;
  let compareTimer: ReturnType<typeof setTimeout> | null = null;
  let compareAbort: AbortController | null = null;
  const get = () => store.getState();

  // ---- golden set storage ----
  const stored = storage ? parseStoredGolden(storage.getItem(GOLDEN_STORAGE_KEY)) : null;
  if (stored === 'corrupt') get().setNotice('The saved golden set was unreadable and has been discarded.');
  else if (stored) get().setLab({ golden: stored });
  const follow = () => {
    const s = get();
    const { set, states, changed } = reanchor(s.golden, s.text);
    s.setLab(changed ? { golden: set, referenceStates: states } : { referenceStates: states });
  };
  follow();

  // ---- probe ----
  function probe(requestedAt: number): void {
    probeAbort?.abort();
    probeAbort = null;
    const s = get();
    if (!s.labOpen || !s.result) return;
    if (s.query.trim() === '') {
      if (s.probe || s.probeError) s.setLab({ probe: null, probeError: null });
      return;
    }
    const settings = settingsOrNull(s.config);
    if (!settings) return; // the controls show the option's one-line error
    const jobId = s.result.jobId;
    const version = s.result.version;
    // The job ranked this very question already (a slider move with the probe open): no second call.
    if (sameRequest(s.result.probeRequest, rideAlongProbe(s)) && (s.result.probe || s.result.probeError)) {
      const ranked = s.result.probe;
      s.setLab(ranked ? { probe: { ...ranked, requestedAt, version }, probeError: null } : { probeError: s.result.probeError! });
      return;
    }
    const abort = new AbortController();
    probeAbort = abort;
    chunks.probe(jobId, s.query, settings, abort.signal).then(
      (payload) => {
        if (abort.signal.aborted || get().result?.jobId !== jobId) return;
        get().setLab({ probe: { ...payload, requestedAt, version }, probeError: null });
      },
      (error: unknown) => {
        if (abort.signal.aborted || error instanceof StaleJobError || (error as Error)?.name === 'AbortError') return;
        // A restart of the chunk worker (a runaway job cancelled) drops the call; the next result asks again.
        if (/restarted/.test(oneLine(error))) return;
        get().setLab({ probeError: oneLine(error) });
      },
    );
  }

  // ---- golden-set run ----
  async function runGolden(): Promise<void> {
    const s = get();
    if (!s.result) return;
    const settings = settingsOrNull(s.config);
    if (!settings) return;
    const measured = presentReferences(s.golden, s.text).filter((q) => q.references.length > 0 && q.question !== '');
    if (measured.length === 0) {
      s.setLab({ runError: 'Add a question and mark its answer in the editor first.' });
      return;
    }
    s.setLab({ labRunning: true, runError: null });
    const jobId = s.result.jobId;
    try {
      const payload = await chunks.evaluate({ jobId, questions: toGoldenQuestions(measured), settings });
      get().setLab({ run: { payload, ids: measured.map((q) => q.id), jobId }, labRunning: false });
    } catch (error) {
      const stale = error instanceof StaleJobError;
      get().setLab({ labRunning: false, runError: stale ? 'The chunks changed during the run: run it again.' : oneLine(error) });
    }
  }

  // ---- sweep ----
  async function runSweep(spec: SweepSpec): Promise<void> {
    sweepAbort?.abort();
    const abort = new AbortController();
    sweepAbort = abort;
    const s = get();
    const measured = presentReferences(s.golden, s.text).filter((q) => q.references.length > 0 && q.question !== '');
    const configs = sweepConfigurations(spec);
    const startedAt = performance.now();
    if (measured.length === 0 || configs.length === 0) {
      s.setLab({
        sweepState: { points: [], done: 0, running: false, startedAt, ms: 0, error: measured.length === 0 ? 'The sweep scores the golden set: add a question with an answer first.' : 'No configuration to run: every overlap is at or above the size.' },
      });
      return;
    }
    const base = s.config;
    const questions = toGoldenQuestions(measured);
    const points: SweepPoint[] = configs.map((values) => ({ values, means: null, chunks: null, tokens: null, ms: 0 }));
    s.setLab({ sweepState: { points, done: 0, running: true, error: null, startedAt, ms: 0 } });
    for (let i = 0; i < configs.length; i++) {
      if (abort.signal.aborted) return;
      const config = { ...base, ...configs[i] } as Config;
      const t0 = performance.now();
      let point: SweepPoint;
      try {
        const settings = evalSettingsOf(config);
        const options = toChunkOptions(config, documentFacts(get()));
        let payload: LabEvaluatePayload;
        try {
          payload = await chunks.evaluate({ options, questions, settings, summary: true }, abort.signal);
        } catch (error) {
          if (abort.signal.aborted) return;
          // A restart of the chunk worker (a runaway chunk job was cancelled) drops the call: once more.
          if (/restarted/.test(oneLine(error))) payload = await chunks.evaluate({ options, questions, settings, summary: true }, abort.signal);
          else throw error;
        }
        const r = payload.result;
        point = { values: configs[i]!, means: { ...r.means }, chunks: r.index.indexed, tokens: r.index.embeddingTokens, ms: performance.now() - t0 };
      } catch (error) {
        if (abort.signal.aborted) return;
        point = { values: configs[i]!, means: null, chunks: null, tokens: null, ms: performance.now() - t0, error: oneLine(error) };
      }
      const prev = get().sweepState!;
      const next = prev.points.slice();
      next[i] = point;
      get().setLab({ sweepState: { ...prev, points: next, done: i + 1, ms: performance.now() - startedAt } });
    }
    const last = get().sweepState!;
    get().setLab({ sweepState: { ...last, running: false, ms: performance.now() - startedAt } });
    if (sweepAbort === abort) sweepAbort = null;
  }

  function cancelSweep(): void {
    sweepAbort?.abort();
    sweepAbort = null;
    const st = get().sweepState;
    if (st?.running) get().setLab({ sweepState: { ...st, running: false, error: `Cancelled after ${st.done} of ${st.points.length} configurations.` } });
  }

  // ---- compare with the pinned configuration A ----
  let runA: { key: string; payload: LabEvaluatePayload } | null = null;
  function scheduleCompare(): void {
    if (compareTimer) clearTimeout(compareTimer);
    compareTimer = setTimeout(() => void compare(), COMPARE_DELAY_MS);
  }
  async function compare(): Promise<void> {
    compareTimer = null;
    compareAbort?.abort();
    const s = get();
    if (!s.pinned || !s.result) {
      if (s.comparison) s.setLab({ comparison: null });
      return;
    }
    const abort = new AbortController();
    compareAbort = abort;
    const measured = presentReferences(s.golden, s.text).filter((q) => q.references.length > 0 && q.question !== '');
    const questions = toGoldenQuestions(measured);
    const jobId = s.result.jobId;
    try {
      const settingsA = evalSettingsOf(s.pinned);
      const optionsA = toChunkOptions(s.pinned, documentFacts(s));
      const key = JSON.stringify([optionsA, settingsA, s.docVersion, questions]);
      if (runA?.key !== key) {
        const payload = await chunks.evaluate({ options: optionsA, questions, settings: settingsA, ranges: true }, abort.signal);
        runA = { key, payload };
      }
      const settingsB = evalSettingsOf(get().config);
      const runB = questions.length ? await chunks.evaluate({ jobId, questions, settings: settingsB }, abort.signal) : null;
      if (abort.signal.aborted || get().result?.jobId !== jobId) return;
      get().setLab({ comparison: { starts: runA.payload.starts!, ends: runA.payload.ends!, runA: questions.length ? runA.payload : null, runB, jobId }, compareError: null });
    } catch (error) {
      if (abort.signal.aborted || error instanceof StaleJobError || (error as Error)?.name === 'AbortError') return;
      get().setLab({ compareError: `Configuration A: ${oneLine(error)}` });
    }
  }

  const unsubscribe = [
    watch(
      store,
      (s) => [s.result, s.query, s.labOpen, s.config.retriever, s.config.chunksInContext, s.config.hybridWeight, s.config.stopWords, s.config.stemming] as const,
      (next, prev) => probe(next[0] !== prev[0] ? (next[0]?.requestedAt ?? performance.now()) : performance.now()),
      sameItems,
    ),
    watch(store, (s) => s.golden, (golden) => {
      try {
        storage?.setItem(GOLDEN_STORAGE_KEY, serializeGolden(golden));
      } catch {
        get().setNotice('The golden set could not be saved in this browser; export it to keep it.');
      }
    }),
    watch(store, (s) => s.text, () => {
      if (reanchorTimer) clearTimeout(reanchorTimer);
      reanchorTimer = setTimeout(follow, REANCHOR_DELAY_MS);
    }),
    watch(
      store,
      (s) => [s.pinned, s.result, s.golden] as const,
      () => scheduleCompare(),
      sameItems,
    ),
  ];
  if (get().pinned) scheduleCompare();

  return {
    runGolden,
    runSweep,
    cancelSweep,
    pin: () => get().setLab({ pinned: { ...get().config }, labTab: 'compare' }),
    unpin: () => {
      runA = null;
      get().setLab({ pinned: null, comparison: null, compareError: null });
    },
    stop: () => {
      for (const u of unsubscribe) u();
      probeAbort?.abort();
      sweepAbort?.abort();
      compareAbort?.abort();
      if (reanchorTimer) clearTimeout(reanchorTimer);
      if (compareTimer) clearTimeout(compareTimer);
    },
  };
}
