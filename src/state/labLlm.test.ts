import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChunkClient } from '../bridge/chunkClient';
import { chunk } from '../core/index';
import { evaluateDerived } from '../core/eval/index';
import { validateEvalOptions } from '../core/eval/options';
import { validateOptions } from '../core/options';
import type { LlmRunReport } from '../core/llm';
import type { Chunk } from '../core/types';
import { serveChunkWorker } from '../worker/chunkService';
import { inProcessWorker } from '../worker/inProcess';
import { startJobs, type Jobs } from './jobs';
import { rideAlongProbe, startLabJobs, type LabJobs } from './labJobs';
import { fromGoldenQuestions } from './labGolden';
import { costPerPoint, llmCompareReadiness, llmRetrievalFor, LLM_COMPARE_RETRIEVERS, type LlmCompareRow, type LlmRunCost } from './labLlm';
import type { LlmPageResult } from './llmSlice';
import { resetStore, useStore } from './store';

const DOC =
  'The harbour master kept a log of every ship that entered the bay. Storms came from the west in autumn.\n\n' +
  'The lighthouse keeper trimmed the wick at dusk. He polished the lens at dawn and slept at noon.\n\n' +
  'Grain prices rose when the river froze. Barges could not reach the mill until spring.\n';
const OPTIONS = { strategy: 'recursive' as const, unit: 'chars' as const, size: 120, overlap: 0 };

const report = (over: Partial<LlmRunReport> = {}): LlmRunReport => ({
  feature: 'propositions', provider: 'openai-compatible', model: 'fake', requests: 3, cached: 1, sent: 2, succeeded: 3, failed: 0,
  failuresByKind: {}, failures: [], counts: {}, usage: { input: 3000, output: 1000 }, ...over,
});

/** Propositions as the fake server writes them: each sentence of each passage, aligned exactly. */
async function propositionsOf(text: string): Promise<Chunk[]> {
  const passages = await chunk(text, OPTIONS);
  const out: Chunk[] = [];
  for (const p of passages) {
    for (const m of p.text.matchAll(/[^.]+\./g)) {
      const start = p.start + m.index! + (m[0].length - m[0].trimStart().length);
      const end = p.start + m.index! + m[0].length;
      out.push({ ...p, index: out.length, id: `p${out.length}`, content: text.slice(start, end), metadata: { ...p.metadata, kind: 'proposition', derivedFrom: { start: p.start, end: p.end }, support: [{ start, end }], supportStatus: 'exact' } });
    }
  }
  return out;
}

describe('readiness, retrieval mode and the cost of a point of recall (pure)', () => {
  const result = (chunks: Chunk[], serial = 1): LlmPageResult => ({ documentSerial: serial, configKey: 'k', feature: 'propositions', chunks, report: report(), cost: 0.5 });
  it('needs a result made over this very text', async () => {
    const chunks = await propositionsOf(DOC);
    expect(llmCompareReadiness(null, 1, DOC)).toEqual({ kind: 'none' });
    expect(llmCompareReadiness(result(chunks), 1, DOC).kind).toBe('ready');
    expect(llmCompareReadiness(result(chunks, 2), 1, DOC).kind).toBe('stale');
    // An edit that shifts the offsets (same document serial) makes it stale too.
    expect(llmCompareReadiness(result(chunks), 1, 'X' + DOC)).toMatchObject({ kind: 'stale', message: expect.stringMatching(/run it again in the LLM panel/) });
  });
  it('routes summaries two-stage, the rest flat', () => {
    expect(llmRetrievalFor('summaries')).toBe('two-stage');
    expect(llmRetrievalFor('propositions')).toBe('flat');
    expect(LLM_COMPARE_RETRIEVERS).toEqual(['bm25', 'dense', 'hybrid']);
  });
  it('prices a point of recall in money, else tokens; no gain is said so', () => {
    const means = (recall: number) => ({ recall, precision: 0, iou: 0, precisionOmega: 0, hit: 0, reciprocalRank: 0 });
    const row = (a: number, b: number): LlmCompareRow => ({ retriever: 'bm25', plain: means(a), llm: means(b), plainIndexed: 3, llmIndexed: 6 });
    const cost: LlmRunCost = { requests: 3, cached: 0, sent: 3, failed: 0, inputTokens: 3000, outputTokens: 1000, money: 0.5 };
    expect(costPerPoint(row(0.5, 0.75), cost)).toBe('0.020 per point');
    expect(costPerPoint(row(0.5, 0.75), { ...cost, money: null })).toBe('160 tokens per point');
    expect(costPerPoint(row(0.75, 0.5), cost)).toBe('no gain');
    expect(costPerPoint({ ...row(0, 0), llm: null }, cost)).toBeNull();
  });
});

describe('the comparison on the real chunk worker', () => {
  let jobs: Jobs | null = null;
  let lab: LabJobs | null = null;
  let client: ChunkClient | null = null;
  beforeEach(() => {
    resetStore();
    useStore.getState().setDocument(DOC, { name: null });
    useStore.getState().setConfig({ ...OPTIONS, retriever: 'bm25', chunksInContext: 1 });
    client = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)));
    jobs = startJobs({ store: useStore, chunks: client, probeFor: rideAlongProbe });
    lab = startLabJobs(useStore, client, null);
  });
  afterEach(() => {
    lab?.stop();
    jobs?.stop();
    client?.dispose();
  });
  const state = () => useStore.getState();

  it('says how to get a result, then scores plain against the feature under each retriever with the run\'s cost', async () => {
    await expect.poll(() => state().result !== null).toBe(true);
    await lab!.runLlmCompare();
    expect(state().llmCompareError).toBe('No LLM result yet: run a feature in the LLM panel first.');
    const chunks = await propositionsOf(DOC);
    state().setLlmResult({ documentSerial: state().documentSerial, configKey: 'k', feature: 'propositions', chunks, report: report(), cost: 0.5 });
    await lab!.runLlmCompare();
    expect(state().llmCompareError).toBe('Add a question and mark its answer in the editor first.');
    const answer = 'He polished the lens at dawn and slept at noon.';
    const start = DOC.indexOf(answer);
    const questions = [{ question: 'when was the lens polished', references: [{ start, end: start + answer.length, content: answer }] }];
    state().importQuestions(fromGoldenQuestions(questions));
    await lab!.runLlmCompare();
    const compare = state().llmCompare!;
    expect(compare).toMatchObject({ feature: 'propositions', retrieval: 'flat', running: false, done: 3, cost: { requests: 3, cached: 1, sent: 2, inputTokens: 3000, outputTokens: 1000, money: 0.5 } });
    const bm25 = compare.rows.find((r) => r.retriever === 'bm25')!;
    const expected = await evaluateDerived([{ id: 'document', text: DOC, chunks }], questions, validateOptions(OPTIONS), validateEvalOptions({ retriever: 'bm25', chunksInContext: 1 }));
    expect(bm25.llm).toEqual(expected.means);
    expect(bm25.plain!.recall).toBe(1);
    expect(bm25.llm!.precision).toBeGreaterThan(bm25.plain!.precision);
    expect(bm25).toMatchObject({ plainIndexed: 3, llmIndexed: chunks.length });
    // Dense and hybrid need the embedder: figures, or one line saying why (the other rows still ran).
    for (const row of compare.rows.slice(1)) expect(row.llm !== null || /^[^\n]+$/.test(row.error ?? '')).toBe(true);
  });
});
