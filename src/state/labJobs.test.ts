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
