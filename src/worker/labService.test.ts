import { afterEach, describe, expect, it } from 'vitest';
import { ChunkClient, type WorkerLike } from '../bridge/chunkClient';
import { evaluate, evaluateDerived, validateEvalOptions } from '../core/eval/index';
import { chunk, validateOptions } from '../core/index';
import { RetrievalIndex } from '../core/retrievers/index';
import { serveChunkWorker } from './chunkService';
import { inProcessWorker } from './inProcess';

const text = [
  'Refunds are issued within 30 days of purchase when the receipt is shown.',
  'Shipping is free for orders above fifty euros; otherwise a flat fee applies.',
  'Gift cards cannot be refunded or exchanged for cash under any circumstances.',
  'Our support team answers email within two working days, phone calls at once.',
  'Returns of opened software are accepted only when the disc is defective.',
].join('\n\n');

let client: ChunkClient | null = null;
afterEach(() => client?.dispose());

function start(): ChunkClient {
  client = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)) as unknown as WorkerLike);
  client.setDocument(1, text);
  return client;
}

describe('lab RPC in the chunk worker', () => {
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 3 });

  it("ranks the painted chunks exactly as the library's RetrievalIndex does (the CLI's engine)", async () => {
    const c = start();
    const options = { strategy: 'recursive' as const, size: 90, overlap: 10 };
    const result = await c.chunk(options);
    const probe = await c.probe(result.jobId, 'can gift cards be refunded', settings);
    const chunks = await chunk(text, options);
    const index = await RetrievalIndex.build([{ id: 'document', text, chunks }], { ...settings, retrieval: 'chunks' });
    const expected = await index.search('can gift cards be refunded', 3);
    expect(probe.hits.map((h) => [h.rank, h.start, h.end])).toEqual(expected.map((h) => [h.rank, index.units[h.unit]!.start, index.units[h.unit]!.end]));
    expect(probe.hits.map((h) => h.score)).toEqual(expected.map((h) => h.score));
    expect(probe.hits[0]!.kind).toBe('chunk');
    expect(text.slice(probe.hits[0]!.start, probe.hits[0]!.end)).toContain('Gift cards');
  });

  it('answers null (StaleJobError) for chunks it no longer holds', async () => {
    const c = start();
    const first = await c.chunk({ strategy: 'recursive', size: 90 });
    await c.chunk({ strategy: 'recursive', size: 120 });
    await expect(c.probe(first.jobId, 'refunds', settings)).rejects.toThrow(/superseded/);
  });

  it('returns de-duplicated parents for parent-child units, with the matched children', async () => {
    const c = start();
    const result = await c.chunk({ strategy: 'recursive', size: 60, retrieval: 'parent-child', parentSize: 200 });
    const probe = await c.probe(result.jobId, 'refunded refunds', { ...settings, chunksInContext: 5 });
    expect(probe.hits.length).toBeGreaterThan(0);
    const spans = probe.hits.map((h) => `${h.start}-${h.end}`);
    expect(new Set(spans).size).toBe(spans.length);
    for (const h of probe.hits) {
      expect(h.kind).toBe('parent');
      for (const m of h.matched) expect(m.start >= h.start && m.end <= h.end).toBe(true);
    }
  });

  it('scores a golden set on the painted chunks and on a given configuration, as evaluate() does', async () => {
    const c = start();
    const options = { strategy: 'recursive' as const, size: 80, overlap: 0 };
    const result = await c.chunk(options);
    const a = text.indexOf('Gift cards');
    const questions = [{ question: 'Can gift cards be refunded?', references: [{ start: a, end: a + 76, content: text.slice(a, a + 76) }] }];
    const painted = await c.evaluate({ jobId: result.jobId, questions, settings });
    const given = await c.evaluate({ options, questions, settings, ranges: true });
    const library = await evaluate([{ id: 'document', text }], questions, { ...options, retriever: 'bm25', chunksInContext: 3 });
    expect(painted.result.means).toEqual(library.means);
    expect(given.result.means).toEqual(library.means);
    expect(Array.from(given.starts!)).toEqual(Array.from(result.starts));
    expect(painted.result.questions[0]!.retrieved.map((r) => r.start)).toEqual(library.questions[0]!.retrieved.map((r) => r.start));
  });
});

describe('lab RPC: an LLM feature\'s chunks scored beside the painted ones', () => {
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 1 });
  const answer = 'Gift cards cannot be refunded or exchanged for cash under any circumstances.';
  const questions = [{ question: 'can gift cards be refunded', references: [{ start: text.indexOf(answer), end: text.indexOf(answer) + answer.length, content: answer }] }];

  it('scores propositions by their support spans, as core evaluateDerived does', async () => {
    const c = start();
    const options = { strategy: 'recursive' as const, size: 160, overlap: 0 };
    const result = await c.chunk(options);
    const chunks = await chunk(text, options);
    // One proposition per passage restating its first sentence exactly.
    const props = chunks.map((p, i) => {
      const first = p.text.split(/(?<=\.)\s/)[0]!;
      return { ...p, index: i, content: first, metadata: { ...p.metadata, kind: 'proposition', support: [{ start: p.start, end: p.start + first.length }], supportStatus: 'exact' } };
    });
    const plain = await c.evaluate({ jobId: result.jobId, questions, settings, summary: true });
    const derived = await c.evaluate({ jobId: result.jobId, questions, settings, derived: { chunks: props, retrieval: 'flat' } });
    const expected = await evaluateDerived([{ id: 'document', text, chunks: props }], questions, validateOptions(options), settings);
    expect(derived.result.means).toEqual(expected.means);
    expect(derived.result.questions).toEqual([]);
    expect(derived.result.means.precision).toBeGreaterThan(plain.result.means.precision);
  });

  it('refuses chunks made over another version of the document, in one line', async () => {
    const c = start();
    const result = await c.chunk({ strategy: 'recursive', size: 160 });
    const stale = [{ index: 0, start: 0, end: 5, text: 'Other', content: 'Other', size: 5, id: 'x', metadata: { strategy: 'recursive' as const, compat: 'none' as const } }];
    await expect(c.evaluate({ jobId: result.jobId, questions, settings, derived: { chunks: stale, retrieval: 'flat' } })).rejects.toThrow(/another version of the document/);
  });
});

describe('lab RPC over several open documents', () => {
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 2 });
  const other = 'Parcels leave the warehouse within two working days.\n\nTracking numbers arrive by email once scanned.\n\nRefunds of shipping fees take a week.';
  const at = (doc: string, s: string) => ({ start: doc.indexOf(s), end: doc.indexOf(s) + s.length, content: s });
  const questions = [
    { question: 'Can gift cards be refunded?', references: [at(text, 'Gift cards cannot be refunded')], corpusId: 'policy.txt' },
    { question: 'When do parcels leave?', references: [at(other, 'Parcels leave the warehouse')], corpusId: 'shipping.txt' },
    { question: 'How long do shipping refunds take?', references: [at(other, 'Refunds of shipping fees take a week.')], corpusId: 'shipping' },
    { question: 'Revenue?', references: [{ start: 0, end: 7, content: 'Revenue' }], corpusId: 'finance' },
  ];

  it("evaluates the job's document and the others as one index: the library's pooled and per-document means", async () => {
    const c = start();
    const options = { strategy: 'recursive' as const, size: 90, overlap: 0 };
    const job = await c.chunk(options);
    const corpus = { active: 'policy.txt', others: [{ id: 'shipping.txt', text: other, options }] };
    const page = (await c.evaluate({ jobId: job.jobId, questions, settings, corpus })).result;
    const library = await evaluate(
      [
        { id: 'policy.txt', text },
        { id: 'shipping.txt', text: other },
      ],
      questions,
      { ...options, retriever: 'bm25', chunksInContext: 2 },
    );
    expect(page.means).toEqual(library.means);
    expect(page.byDocument).toEqual(library.byDocument);
    expect(page.spread).toEqual(library.spread);
    expect(page.skipped.map((s) => s.kind)).toEqual(['unknown-corpus']);
    // The shipping questions retrieved chunks of the other document (one index, not one per document).
    expect(page.questions.find((q) => q.question === 'When do parcels leave?')!.retrieved[0]!.document).toBe('shipping.txt');
    // Asked again (the other document's chunks memoized), and through the options path a sweep takes: the same.
    expect((await c.evaluate({ jobId: job.jobId, questions, settings, corpus })).result.means).toEqual(page.means);
    expect((await c.evaluate({ options, questions, settings, corpus, summary: true })).result.means).toEqual(page.means);
  });

  it('without a corpus, corpus ids are ignored as the one-document page always did', async () => {
    const c = start();
    const job = await c.chunk({ strategy: 'recursive', size: 90 });
    const result = (await c.evaluate({ jobId: job.jobId, questions: questions.slice(0, 1).map((q) => ({ ...q, corpusId: 'elsewhere' })), settings })).result;
    expect(result.measured).toBe(1);
  });
});
