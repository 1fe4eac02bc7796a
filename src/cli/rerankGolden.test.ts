import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { writeTinyCrossEncoder } from '../testing/tinyCrossEncoder';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-rerank-'));
const SOURCE = [
  'The harbour report describes how the harbour froze in January. Ships waited outside until the thaw.',
  'The orchard report says bees carry pollen between apple blossoms. The harvest began in September.',
  'The library report notes the reading room closes at six. Visitors may borrow ten books.',
  'The copper report explains that resistance rises with temperature. Wires were replaced in March.',
].join('\n\n');
const docPath = join(dir, 'reports.md');
writeFileSync(docPath, SOURCE);
const ask = (question: string, answer: string) => {
  const start = SOURCE.indexOf(answer);
  return JSON.stringify({ question, references: [{ start, end: start + answer.length, content: answer }] });
};
const questionsPath = join(dir, 'questions.jsonl');
writeFileSync(questionsPath, [ask('When did the harbour freeze?', 'the harbour froze in January'), ask('When does the reading room close?', 'the reading room closes at six')].join('\n'));

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const llmFlags = () => ['--llm-base-url', server.baseUrl, '--llm-model', 'fake', '--llm-cache', 'none'];
const chunking = ['--strategy', 'recursive', '--size', '110', '--overlap', '0'];

describe('chunkscope eval --rerank (fake LLM server on loopback)', () => {
  it('prints recall with and without the LLM reranker and its cost', async () => {
    const r = await runCli(['eval', docPath, '--questions', questionsPath, ...chunking, '--k', '1', '--rerank', 'llm', '--rerank-candidates', '3', ...llmFlags()]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.measured).toBe(2);
    expect(json.rerank).toMatchObject({ reranker: 'llm', candidates: 3, k: 1, measured: 2, cost: { questions: 2, requests: 2, sent: 2, failed: 0 } });
    expect(json.rerank.retriever.recall).toBeCloseTo(json.means.recall, 9);
    expect(json.rerank.cost.tokens.input).toBeGreaterThan(0);
    expect(json.rerank.reranked.hit).toBe(1);
  });

  it('questions naming corpora that are not open are set aside in one line, as eval does without a reranker', async () => {
    const others = Array.from({ length: 6 }, (_, i) => JSON.stringify({ question: `q${i}`, corpus_id: i % 2 ? 'finance' : 'pubmed', references: [{ start: 0, end: 1, content: 'x' }] }));
    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(mixed, [ask('When did the harbour freeze?', 'the harbour froze in January'), ...others].join('\n'));
    const r = await runCli(['eval', docPath, '--questions', mixed, ...chunking, '--k', '1', '--rerank', 'llm', '--rerank-candidates', '3', ...llmFlags()]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('chunkscope: note: 6 questions name corpora that are not open: finance, pubmed (set aside, not scored)\n');
    expect(JSON.parse(r.out).rerank.measured).toBe(1);
  });

  it('a bad answer keeps the retriever\'s order, counted on one stderr line; bad ids are repaired and counted', async () => {
    server.failNext('invalid-json');
    server.failNext('out-of-range');
    const r = await runCli(['eval', docPath, '--questions', questionsPath, ...chunking, '--k', '1', '--rerank', 'llm', '--rerank-candidates', '3', ...llmFlags()]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.rerank.cost).toMatchObject({ failed: 1, repaired: 1, failuresByKind: { 'invalid-json': 1 } });
    expect(r.err.trim().split('\n')).toEqual([
      "chunkscope: rerank: 1 × invalid-json: the retriever's order kept for that question",
      'chunkscope: rerank: 1 answer(s) with ids out of range, repeated or missing: repaired',
    ]);
  });

  it('reranks with a cross-encoder folder through transformers.js (a tiny model the test builds)', async () => {
    // The model scores a pair by its words' weights: it puts the answer chunks first for both questions.
    const folder = writeTinyCrossEncoder(dir, { froze: 3, january: 3, reading: 3, closes: 3, report: -1 });
    const r = await runCli(['eval', docPath, '--questions', questionsPath, ...chunking, '--k', '1', '--rerank', `cross-encoder:${folder}`, '--rerank-candidates', '8']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const { rerank } = JSON.parse(r.out);
    expect(rerank).toMatchObject({ reranker: `cross-encoder:${folder}`, candidates: 8, cost: { questions: 2, requests: 0 } });
    expect(rerank.cost.pairs).toBeGreaterThan(2);
    expect(rerank.reranked.hit).toBe(1);
    expect(rerank.reranked.recall).toBeCloseTo(rerank.candidateRecall, 9);
  });

  it('refuses bad reranking flags in one line (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['--rerank', 'magic'], /unknown --rerank "magic"/],
      [['--rerank-candidates', '5'], /--rerank-candidates needs --rerank/],
      [['--rerank', 'llm', '--rerank-candidates', '0', ...llmFlags()], /at least 1/],
      [['--rerank', 'cross-encoder:'], /needs a hub id or a local folder/],
      [['--rerank', 'cross-encoder:./no-such-folder'], /cross-encoder folder "\.\/no-such-folder" does not exist/],
      [['--rerank', 'cross-encoder:x/y', '--llm-model', 'm'], /--llm-model needs --rerank llm/],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(['eval', docPath, '--questions', questionsPath, ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('chunkscope golden generate (fake LLM server on loopback)', () => {
  it('writes generated candidates as JSONL that eval loads; an invented excerpt is dropped and counted', async () => {
    server.failNext('invent');
    const r = await runCli(['golden', 'generate', docPath, '--per-document', '3', '--seed', '2', ...chunking, ...llmFlags()]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const c of lines) {
      expect(c).toMatchObject({ generated: true, document: 'reports.md', corpusId: 'reports.md', alignment: { score: 1 } });
      expect(c.references[0].content).toBe(SOURCE.slice(c.references[0].start, c.references[0].end));
    }
    expect(r.err).toMatch(/^chunkscope: golden: 3 sections sampled, 2 kept, 1 dropped \(excerpt not found in its section\), 0 failed; 3 sent, 0 cached/);
    const generated = join(dir, 'candidates.jsonl');
    writeFileSync(generated, r.out);
    const evaluated = await runCli(['eval', docPath, '--questions', generated, ...chunking]);
    expect(evaluated.code).toBe(0);
    expect(JSON.parse(evaluated.out).measured).toBe(2);
  });

  it('refuses a missing endpoint or a bad count in one line (exit 2)', async () => {
    const noUrl = await runCli(['golden', 'generate', docPath, '--llm-model', 'm']);
    expect([noUrl.code, noUrl.err.trim().split('\n').length]).toEqual([2, 1]);
    const bad = await runCli(['golden', 'generate', docPath, '--per-document', '0', ...llmFlags()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--per-document must be at least 1/);
    const unknown = await runCli(['golden', 'make']);
    expect(unknown.err).toMatch(/unknown golden command "make"/);
  });
});
