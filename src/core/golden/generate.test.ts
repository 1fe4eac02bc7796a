import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../eval/evaluate';
import { parseGoldenSet } from '../eval/golden';
import { fakeGoldenAnswer, startFakeLlmServer, type FakeLlmServer } from '../../testing/fakeLlmServer';
import { generateGoldenSet, keepsAlignment, sampleSections } from './generate';
import { seededRandom } from '../random';
import { chunk } from '../chunk';

const paragraph = (topic: string, n: number) =>
  `The ${topic} report ${n} describes how the ${topic} team measured progress in quarter ${n}. Results improved after the ${topic} review. Further work is planned for the next ${topic} cycle.`;
const DOCS = [
  { id: 'alpha', text: [1, 2, 3, 4, 5, 6].map((n) => paragraph('harbour', n)).join('\n\n') },
  { id: 'beta', text: [1, 2, 3, 4, 5].map((n) => paragraph('orchard', n)).join('\n\n') },
];
const CHUNKING = { strategy: 'recursive', size: 200, overlap: 0 } as const;

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

describe('generated golden sets (fake server on loopback)', () => {
  it('keeps excerpts that align to their section, marks them generated, and loads as a golden set in eval', async () => {
    const { candidates, report } = await generateGoldenSet(DOCS, { baseUrl: server.baseUrl, model: 'fake', perDocument: 3, seed: 7, chunkOptions: CHUNKING });
    expect(report).toMatchObject({ sampled: 6, kept: 6, dropped: 0, requests: 6, failed: 0 });
    expect(candidates.filter((c) => c.document === 'alpha')).toHaveLength(3);
    for (const c of candidates) {
      const text = DOCS.find((d) => d.id === c.document)!.text;
      const ref = c.references[0]!;
      expect(ref.content).toBe(text.slice(ref.start, ref.end));
      expect(ref.content).toBe(fakeGoldenAnswer(text.slice(c.section.start, c.section.end)).excerpt);
      expect(ref.start).toBeGreaterThanOrEqual(c.section.start);
      expect(ref.end).toBeLessThanOrEqual(c.section.end);
      expect(c).toMatchObject({ generated: true, corpusId: c.document, alignment: { match: 'verbatim', score: 1 } });
    }
    const jsonl = candidates.map((c) => JSON.stringify(c)).join('\n');
    const golden = parseGoldenSet(jsonl, { name: 'candidates.jsonl' });
    expect(golden).toHaveLength(6);
    const result = await evaluate(DOCS, golden, { ...CHUNKING, retriever: 'bm25', chunksInContext: 5 });
    expect(result.measured).toBe(6);
    expect(result.skipped).toEqual([]);
  });

  it('the same seed samples the same sections; a cached run sends nothing', async () => {
    const { MemoryCache } = await import('../llm/cache');
    const cache = new MemoryCache();
    const a = await generateGoldenSet(DOCS, { baseUrl: server.baseUrl, model: 'fake', perDocument: 2, seed: 3, chunkOptions: CHUNKING, cache });
    const b = await generateGoldenSet(DOCS, { baseUrl: server.baseUrl, model: 'fake', perDocument: 2, seed: 3, chunkOptions: CHUNKING, cache });
    expect(b.candidates).toEqual(a.candidates);
    expect(b.report).toMatchObject({ cached: 4, sent: 0 });
  });

  it('an invented excerpt is dropped and counted; invalid JSON is a counted failure', async () => {
    server.failNext('invent');
    server.failNext('invalid-json');
    const { candidates, report } = await generateGoldenSet([DOCS[0]!], { baseUrl: server.baseUrl, model: 'fake', perDocument: 3, seed: 11, chunkOptions: CHUNKING, policy: { retries: 0 } });
    expect(report).toMatchObject({ sampled: 3, kept: 1, dropped: 1, failed: 1, failuresByKind: { 'invalid-json': 1 } });
    expect(candidates).toHaveLength(1);
  });
});

describe('sampling and the keep rule', () => {
  it('samples distinct sections in document order, never more than there are', async () => {
    const chunks = await chunk(DOCS[0]!.text, CHUNKING);
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 30 }), (seed, count) => {
        const picked = sampleSections(chunks, count, seededRandom(seed));
        expect(picked.length).toBe(Math.min(count, chunks.length));
        expect(new Set(picked.map((c) => c.start)).size).toBe(picked.length);
        expect(picked.map((c) => c.start)).toEqual([...picked.map((c) => c.start)].sort((x, y) => x - y));
      }),
    );
  });

  it('keeps exact alignments and token alignments of at least 0.9, nothing else', () => {
    expect(keepsAlignment({ status: 'exact', match: 'verbatim', score: 1, support: [] })).toBe(true);
    expect(keepsAlignment({ status: 'fuzzy', match: 'tokens', score: 0.9, support: [] })).toBe(true);
    expect(keepsAlignment({ status: 'fuzzy', match: 'tokens', score: 0.8, support: [] })).toBe(false);
    expect(keepsAlignment({ status: 'unsupported', match: 'none', score: 0.5, support: [] })).toBe(false);
  });
});
