import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChunkClient } from '../bridge/chunkClient';
import { serveChunkWorker } from '../worker/chunkService';
import { inProcessWorker } from '../worker/inProcess';
import { startJobs, type Jobs } from './jobs';
import { rideAlongProbe, startLabJobs, type LabJobs } from './labJobs';
import { resetStore, useStore } from './store';

/**
 * The query probe on the real chunk worker service: with the lab open and BM25, a slider move's ranking comes back
 * with the job's chunks (no second call); a new question on the same chunks, or a dense retriever, is its own call.
 */

const DOC = [
  'The harbour master kept a log of every ship that entered the bay.',
  'Storms came from the west in autumn and the fishermen stayed ashore.',
  'The lighthouse keeper trimmed the wick at dusk and polished the lens at dawn.',
  'Grain prices rose when the river froze and barges could not reach the mill.',
  'Children learned to swim in the shallow cove behind the old sea wall.',
].join(' ').repeat(12);

let jobs: Jobs | null = null;
let lab: LabJobs | null = null;
let chunks: ChunkClient | null = null;
let probeCalls = 0;

function start(): ChunkClient {
  chunks = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)));
  const probe = chunks.probe.bind(chunks);
  chunks.probe = (...args) => {
    probeCalls++;
    return probe(...args);
  };
  jobs = startJobs({ store: useStore, chunks, probeFor: rideAlongProbe });
  lab = startLabJobs(useStore, chunks, null);
  return chunks;
}

beforeEach(() => {
  resetStore();
  probeCalls = 0;
  useStore.getState().setDocument(DOC, { name: null });
  useStore.getState().setConfig({ strategy: 'recursive', unit: 'chars', size: 200, overlap: 0, retriever: 'bm25' });
});
afterEach(() => {
  lab?.stop();
  jobs?.stop();
  chunks?.dispose();
  lab = jobs = chunks = null;
});

const state = () => useStore.getState();
/** The person opens the lab (closed) and types a question. */
function openLab(query: string): void {
  expect(state().labOpen).toBe(false);
  state().toggleLab();
  state().setQuery(query);
}
const probeOfPaintedJob = () => state().probe !== null && state().probe!.jobId === state().result?.jobId;

describe('query probe riding with the chunk job', () => {
  it('ranks a slider move in the chunk job itself, with the same hits a separate call gives', async () => {
    const client = start();
    openLab('lighthouse keeper lens');
    await expect.poll(probeOfPaintedJob).toBe(true);
    const before = probeCalls;
    for (const size of [230, 260, 290]) {
      state().setConfig({ size });
      await expect.poll(() => state().result?.options.size).toBe(size);
      await expect.poll(probeOfPaintedJob).toBe(true);
    }
    expect(probeCalls).toBe(before); // three moves, no probe call of their own
    const { probe, result } = state();
    expect(result!.probeRequest?.query).toBe('lighthouse keeper lens');
    const separate = await client.probe(result!.jobId, 'lighthouse keeper lens', result!.probeRequest!.settings);
    expect(probe!.hits).toEqual(separate.hits);
    expect(probe!.hits[0]!.start).toBeGreaterThanOrEqual(0);
    expect(DOC.slice(probe!.hits[0]!.start, probe!.hits[0]!.end)).toContain('lighthouse');
  });

  it('asks separately for a new question on the same chunks, and for every move with a dense retriever', async () => {
    start();
    openLab('grain prices');
    await expect.poll(probeOfPaintedJob).toBe(true);
    const jobId = state().result!.jobId;
    const before = probeCalls;
    state().setQuery('swim in the cove');
    await expect.poll(() => state().probe?.query).toBe('swim in the cove');
    expect(state().result!.jobId).toBe(jobId);
    expect(probeCalls).toBe(before + 1);
    expect(DOC.slice(state().probe!.hits[0]!.start, state().probe!.hits[0]!.end)).toContain('swim');

    // A closed lab or an empty question sends no probe with the job.
    state().toggleLab();
    expect(state().labOpen).toBe(false);
    expect(rideAlongProbe(state())).toBeNull();
    openLab('  ');
    expect(rideAlongProbe(state())).toBeNull();
    state().setQuery('grain');
    state().setConfig({ retriever: 'dense' });
    expect(rideAlongProbe(state())).toBeNull();
  });
});

/** A question whose answer (the first sentence holding `answer`) is marked as a person would: select, then mark. */
function askWithAnswer(question: string, answer: string): void {
  state().addQuestion(question);
  const start = DOC.indexOf(answer);
  state().setEditorSelection({ start, end: start + answer.length });
  state().markAnswer();
}

const painted = () => state().result !== null && state().result!.options.size === state().config.size;

describe('golden-set run', () => {
  it('is refused without a measurable question, and scores the painted chunks with one', async () => {
    start();
    await expect.poll(painted).toBe(true);
    await lab!.runGolden();
    expect(state().runError).toBe('Add a question and mark its answer in the editor first.');
    askWithAnswer('who polished the lens', 'The lighthouse keeper trimmed the wick at dusk and polished the lens at dawn.');
    state().setConfig({ chunksInContext: 100 }); // the document repeats: the answer's own copy is among many
    await expect.poll(() => painted() && state().result!.jobId).toBeTruthy();
    await lab!.runGolden();
    expect(state()).toMatchObject({ labRunning: false, runError: null });
    expect(state().run!.jobId).toBe(state().result!.jobId);
    expect(state().run!.ids).toEqual([state().golden[0]!.id]);
    expect(state().run!.payload.result.measured).toBe(1);
    expect(state().run!.payload.result.means.recall).toBeGreaterThan(0);
  });
});

describe('sweep', () => {
  it('scores each configuration in order and finishes; refuses without questions', async () => {
    start();
    await lab!.runSweep({ sizes: [200], overlaps: [0], strategies: [], retrievers: [] });
    expect(state().sweepState).toMatchObject({ running: false, done: 0, error: 'The sweep scores the golden set: add a question with an answer first.' });
    askWithAnswer('grain prices and the river', 'Grain prices rose when the river froze and barges could not reach the mill.');
    await lab!.runSweep({ sizes: [150, 300], overlaps: [0], strategies: [], retrievers: ['bm25'] });
    const sweep = state().sweepState!;
    expect(sweep).toMatchObject({ running: false, done: 2, error: null });
    expect(sweep.points.map((p) => p.values)).toEqual([
      { size: 150, overlap: 0, retriever: 'bm25' },
      { size: 300, overlap: 0, retriever: 'bm25' },
    ]);
    for (const p of sweep.points) {
      expect(p.error).toBeUndefined();
      expect(p.means!.recall).toBeGreaterThan(0);
      expect(p.chunks).toBeGreaterThan(0);
    }
    // A point that fails (here: dense, with no embedding worker) is a point with its one-line error, and the sweep ends.
    await lab!.runSweep({ sizes: [150, 300], overlaps: [0], strategies: [], retrievers: ['dense'] });
    expect(state().sweepState).toMatchObject({ running: false, done: 2 });
    expect(state().sweepState!.points.map((p) => p.error)).toEqual(['no embedding worker is connected', 'no embedding worker is connected']);
  });

  it('stops at once when cancelled, saying how far it got', async () => {
    start();
    askWithAnswer('grain prices', 'Grain prices rose when the river froze and barges could not reach the mill.');
    // Cancelled as soon as the first point is in.
    const unsubscribe = useStore.subscribe((s) => s.sweepState?.done === 1 && s.sweepState.running && lab!.cancelSweep());
    await lab!.runSweep({ sizes: [120, 140, 160, 180, 200, 220], overlaps: [0], strategies: [], retrievers: [] });
    unsubscribe();
    const sweep = state().sweepState!;
    expect(sweep).toMatchObject({ running: false, done: 1, error: 'Cancelled after 1 of 6 configurations.' });
    expect(sweep.points[1]!.means).toBeNull();
  });
});

describe('compare with a pinned configuration', () => {
  it('scores A and B once pinned, and forgets both when unpinned', async () => {
    start();
    askWithAnswer('who polished the lens', 'The lighthouse keeper trimmed the wick at dusk and polished the lens at dawn.');
    await expect.poll(painted).toBe(true);
    lab!.pin();
    expect(state().pinned!.size).toBe(200);
    expect(state().labTab).toBe('compare');
    state().setConfig({ size: 120 });
    await expect.poll(() => state().comparison?.jobId === state().result?.jobId && state().result?.options.size === 120).toBe(true);
    const { comparison } = state();
    expect(comparison!.runA!.result.configuration.size).toBe(200);
    expect(comparison!.runB!.result.configuration.size).toBe(120);
    expect(comparison!.starts.length).toBeGreaterThan(0);
    lab!.unpin();
    expect(state()).toMatchObject({ pinned: null, comparison: null, compareError: null });
  });
});

describe('golden set storage', () => {
  function memoryStorage(initial: Record<string, string> = {}): Storage & { data: Map<string, string> } {
    const data = new Map(Object.entries(initial));
    return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k), clear: () => data.clear(), key: () => null, length: 0 } as never;
  }

  it('reads the saved set back, saves changes, and discards a corrupt one with a notice', async () => {
    chunks = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)));
    const storage = memoryStorage();
    lab = startLabJobs(useStore, chunks, storage);
    askWithAnswer('grain', 'Grain prices rose');
    const saved = [...storage.data.values()].at(-1)!;
    expect(saved).toContain('Grain prices rose');
    lab.stop();
    resetStore();
    useStore.getState().setDocument(DOC, { name: null });
    lab = startLabJobs(useStore, chunks, memoryStorage(Object.fromEntries(storage.data)));
    expect(state().golden.map((q) => q.question)).toEqual(['grain']);
    expect(state().referenceStates.get(state().golden[0]!.id)).toBeDefined();
    lab.stop();
    resetStore();
    const corrupt = memoryStorage(Object.fromEntries([...storage.data.keys()].map((k) => [k, '{nope'])));
    lab = startLabJobs(useStore, chunks, corrupt);
    expect(state().golden).toEqual([]);
    expect(state().notice).toMatch(/unreadable and has been discarded/);
  });
});
