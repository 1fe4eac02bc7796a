import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryCache } from '../llm/cache';
import { chunkDocuments } from '../eval/evaluate';
import { validateEvalOptions } from '../eval/options';
import type { GoldenQuestion } from '../eval/types';
import { validateOptions } from '../options';
import { fakeRanking, startFakeLlmServer, type FakeLlmServer } from '../../testing/fakeLlmServer';
import { evaluateReranked, llmReranker, repairRanking, scoreReranker } from './index';

const SOURCE = [
  'Apples grow on trees in orchards. Farmers pick them in autumn.',
  'The harbour freezes in January. Ships wait outside until the thaw.',
  'Copper wire carries current. Its resistance rises with temperature.',
  'Bees carry pollen between apple blossoms in spring orchards.',
  'The library opens at nine. Its reading room closes at six.',
  'Tides follow the moon. The harbour sees two high tides a day.',
].join('\n\n');

const ask = (question: string, answer: string): GoldenQuestion => {
  const start = SOURCE.indexOf(answer);
  return { question, references: [{ start, end: start + answer.length, content: answer }] };
};
const QUESTIONS = [
  ask('When does the harbour freeze?', 'The harbour freezes in January.'),
  ask('What carries pollen between blossoms?', 'Bees carry pollen between apple blossoms in spring orchards.'),
  ask('When does the reading room close?', 'Its reading room closes at six.'),
];

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const PASSAGES = ['copper wire and current', 'the harbour freezes in january', 'ships wait in the harbour'];

describe('the LLM as a listwise reranker (fake server on loopback)', () => {
  it("returns the model's order, and asks once for the same question and candidates (cached)", async () => {
    const cache = new MemoryCache();
    const reranker = llmReranker({ baseUrl: server.baseUrl, model: 'fake', cache });
    const before = server.requests.length;
    const order = await reranker.rerank('When does the harbour freeze in january?', PASSAGES);
    expect(order).toEqual(fakeRanking('When does the harbour freeze in january?', PASSAGES));
    expect(order[0]).toBe(1);
    expect(await reranker.rerank('When does the harbour freeze in january?', PASSAGES)).toEqual(order);
    expect(server.requests.length - before).toBe(1);
    const cost = reranker.cost();
    expect(cost).toMatchObject({ questions: 2, requests: 2, sent: 1, cached: 1, failed: 0, repaired: 0 });
    expect(cost.tokens.input).toBeGreaterThan(0);
    expect(server.requests.at(-1)!.body.messages.at(-1)!.content).toContain('<p id="2">ships wait in the harbour</p>');
  });

  it("invalid JSON: the retriever's order, counted as failed; out-of-range ids: repaired and counted", async () => {
    const reranker = llmReranker({ baseUrl: server.baseUrl, model: 'fake', cache: new MemoryCache(), policy: { retries: 0 } });
    server.failNext('invalid-json');
    expect(await reranker.rerank('harbour', PASSAGES)).toEqual([0, 1, 2]);
    server.failNext('out-of-range');
    // The fake answers [n+5, 1, 1, -1, "x", 0.5]: id 1 kept, the rest in the retriever's order.
    expect(await reranker.rerank('harbour freezes', PASSAGES)).toEqual([1, 0, 2]);
    expect(reranker.cost()).toMatchObject({ requests: 2, failed: 1, repaired: 1, failuresByKind: { 'invalid-json': 1 } });
  });
});

describe('repairRanking', () => {
  it('always gives a permutation that keeps the valid ids in their given order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -3, max: 12 }), fc.string(), fc.double())), fc.integer({ min: 0, max: 10 }), (given, count) => {
        const { order } = repairRanking(given, count);
        expect([...order].sort((a, b) => a - b)).toEqual([...Array(count).keys()]);
        const valid = [...new Set(given.filter((x): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < count))];
        expect(order.slice(0, valid.length)).toEqual(valid);
      }),
    );
  });
});

describe('evaluateReranked: recall with and without the reranker', () => {
  const options = { strategy: 'recursive', size: 70, overlap: 0 } as const;
  const resolved = validateOptions(options);
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 1 });

  it('an oracle scorer (a stand-in for a cross-encoder) lifts recall@1 to the candidates\' recall', async () => {
    const docs = await chunkDocuments([{ id: 'doc', text: SOURCE }], options);
    const refs = new Map(QUESTIONS.map((q) => [q.question, q.references]));
    let current = '';
    const oracle = scoreReranker('cross-encoder:oracle', async (question, passages) => {
      current = question;
      return passages.map((p) => refs.get(current)!.reduce((n, r) => n + (p.includes(r.content) ? 1 : 0), 0));
    });
    const result = await evaluateReranked(docs, QUESTIONS, resolved, settings, oracle, { candidates: 50 });
    expect(result.candidates).toBe(50);
    expect(result.measured).toBe(3);
    expect(result.reranked.recall).toBeCloseTo(result.candidateRecall, 9);
    expect(result.reranked.recall).toBeGreaterThanOrEqual(result.retriever.recall);
    expect(result.difference.recall).toBeCloseTo(result.reranked.recall - result.retriever.recall, 12);
    expect(result.cost.pairs).toBeGreaterThan(0);
    expect(result.cost.requests).toBe(0);
    // A reversed scorer puts the retriever's worst first: it cannot do better than the oracle.
    const reversed = scoreReranker('cross-encoder:reversed', async (_q, passages) => passages.map((_, i) => i));
    const worse = await evaluateReranked(docs, QUESTIONS, resolved, settings, reversed, { candidates: 50 });
    expect(worse.reranked.recall).toBeLessThanOrEqual(result.reranked.recall);
    expect(worse.retriever).toEqual(result.retriever);
  });

  it('the LLM reranker through the fake server: one request per question, cost reported, same retriever means', async () => {
    const docs = await chunkDocuments([{ id: 'doc', text: SOURCE }], options);
    const reranker = llmReranker({ baseUrl: server.baseUrl, model: 'fake' });
    const result = await evaluateReranked(docs, QUESTIONS, resolved, settings, reranker, { candidates: 4 });
    expect(result.cost).toMatchObject({ questions: 3, requests: 3, sent: 3, failed: 0 });
    expect(result.cost.tokens.input).toBeGreaterThan(0);
    // The fake ranks by question words held: each answer chunk holds the most of its question's words.
    for (const q of result.questions) expect(q.recall.reranked).toBeGreaterThan(0);
    expect(result.reranked.hit).toBe(1);
  });
});
