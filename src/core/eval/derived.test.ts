import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../chunk';
import { validateOptions } from '../options';
import type { Chunk, Range } from '../types';
import { evaluateDerived, scoredSpans } from './derived';
import { evaluateChunks } from './evaluate';
import { validateEvalOptions } from './options';
import type { GoldenQuestion } from './types';

const resolved = validateOptions({});
const bm25 = (k: number) => validateEvalOptions({ retriever: 'bm25', chunksInContext: k });

/** A source chunk (content = its text). */
function span(source: string, start: number, end: number, index: number): Chunk {
  const text = source.slice(start, end);
  return { index, start, end, text, content: text, size: text.length, id: `c${index}`, metadata: { strategy: 'recursive', compat: 'none' } };
}

/** A proposition of `passage` restating `support` (content: the statement). */
function proposition(passage: Chunk, statement: string, support: Range[], index: number): Chunk {
  return {
    ...passage,
    index,
    content: statement,
    id: `p${index}`,
    metadata: { ...passage.metadata, kind: 'proposition', derivedFrom: { start: passage.start, end: passage.end }, support, supportStatus: support.length ? 'exact' : 'unsupported' },
  };
}

function summary(source: string, of: Range, content: string, index: number): Chunk {
  return { ...span(source, of.start, of.end, index), content, id: `s${index}`, metadata: { strategy: 'recursive', compat: 'none', kind: 'summary', summaryOf: of, derivedFrom: of } };
}

const question = (source: string, q: string, answer: string): GoldenQuestion => {
  const start = source.indexOf(answer);
  return { question: q, references: [{ start, end: start + answer.length, content: answer }] };
};

describe('derived chunks are scored on source characters', () => {
  const source = 'Alpha bravo tango. Charlie delta kilo. Echo foxtrot lima.';
  const passage = span(source, 0, 38, 0);

  it('a retrieved proposition counts as its support spans, not its passage', async () => {
    const charlie = source.indexOf('Charlie delta kilo.');
    const props = [
      proposition(passage, 'Alpha bravo tango.', [{ start: 0, end: 18 }], 0),
      proposition(passage, 'Charlie delta kilo.', [{ start: charlie, end: charlie + 19 }], 1),
    ];
    const q = question(source, 'charlie delta', 'Charlie delta kilo.');
    const result = await evaluateDerived([{ id: 'd', text: source, chunks: props }], [q], resolved, bm25(1));
    expect(result.means).toMatchObject({ recall: 1, precision: 1, iou: 1, hit: 1, reciprocalRank: 1 });
    expect(result.questions[0]!.retrieved[0]).toMatchObject({ start: 0, end: 38, kind: 'proposition', spans: [{ start: charlie, end: charlie + 19 }], chunk: 1 });
    // The passage itself retrieves 19 answer characters of its 38.
    const plain = await evaluateDerived([{ id: 'd', text: source, chunks: [passage] }], [q], resolved, bm25(1));
    expect(plain.means.recall).toBe(1);
    expect(plain.means.precision).toBeCloseTo(19 / 38, 12);
  });

  it('an unsupported proposition retrieves no source character but takes its place in the k', async () => {
    const props = [proposition(passage, 'Charlie delta invented claim.', [], 0), proposition(passage, 'Alpha bravo tango.', [{ start: 0, end: 18 }], 1)];
    const q = question(source, 'charlie delta', 'Charlie delta kilo.');
    const result = await evaluateDerived([{ id: 'd', text: source, chunks: props }], [q], resolved, bm25(1));
    expect(result.means).toMatchObject({ recall: 0, precision: 0, iou: 0, hit: 0 });
    expect(result.questions[0]!.retrieved[0]).toMatchObject({ kind: 'proposition', spans: [] });
    expect(scoredSpans({ start: 0, end: 38 }, props[0]!)).toEqual([]);
  });

  it('a contextual chunk is found by its context but counts as its own span', async () => {
    const [a, b] = [span(source, 0, 18, 0), span(source, 19, 38, 1)];
    const contextual = { ...b, content: `Context: the zulu section.\n\n${b.text}`, metadata: { ...b.metadata, context: 'Context: the zulu section.' } };
    const q = question(source, 'zulu', 'Charlie delta kilo.');
    const before = await evaluateDerived([{ id: 'd', text: source, chunks: [a, b] }], [q], resolved, bm25(1));
    const after = await evaluateDerived([{ id: 'd', text: source, chunks: [a, contextual] }], [q], resolved, bm25(1));
    expect(before.means.recall).toBe(0);
    expect(after.means).toMatchObject({ recall: 1, precision: 1, iou: 1 });
    expect(after.questions[0]!.retrieved[0]).toMatchObject({ start: 19, end: 38 });
  });

  it('summaries count as nothing in flat retrieval and route the chunks in two-stage retrieval', async () => {
    const doc = '# Stripes\nzebra zebra zebra stripes.\n\n# Grassland\nThe habitat is open grassland.';
    const split = doc.indexOf('# Grassland');
    const chunks = [span(doc, 0, split - 2, 0), span(doc, split, doc.length, 1)];
    const withSummaries = [
      ...chunks,
      summary(doc, { start: 0, end: split - 2 }, 'Summary: stripes on the animal.', 2),
      summary(doc, { start: split, end: doc.length }, 'Summary: where the zebra lives, its habitat.', 3),
    ];
    const q = question(doc, 'zebra habitat', 'The habitat is open grassland.');
    const docs = [{ id: 'd', text: doc, chunks: withSummaries }];
    const flat = await evaluateDerived(docs, [q], resolved, bm25(1));
    // The flat index ranks the summary of the grassland section first: model text, no source characters.
    expect(flat.questions[0]!.retrieved[0]).toMatchObject({ kind: 'summary', spans: [] });
    expect(flat.means.recall).toBe(0);
    const twoStage = await evaluateDerived(docs, [q], resolved, bm25(1), {}, { retrieval: 'two-stage' });
    expect(twoStage.summaries).toBe(2);
    expect(twoStage.questions[0]!.retrieved[0]).toMatchObject({ start: split, end: doc.length, chunk: 1 });
    expect(twoStage.means).toMatchObject({ recall: 1, hit: 1 });
    // Without routing the chunk with three "zebra" wins.
    const plain = await evaluateDerived([{ id: 'd', text: doc, chunks }], [q], resolved, bm25(1));
    expect(plain.questions[0]!.retrieved[0]!.chunk).toBe(0);
    expect(twoStage.configuration).toMatchObject({ retrieval: 'two-stage', summariesFirst: 1 });
  });

  it('two-stage without any summary is plain retrieval; chunks no summary covers stay candidates', async () => {
    const [a, b] = [span(source, 0, 18, 0), span(source, 19, 38, 1)];
    const q = question(source, 'charlie', 'Charlie delta kilo.');
    const onlyFirst = [a, b, summary(source, { start: 0, end: 18 }, 'Summary: alpha.', 2)];
    const routed = await evaluateDerived([{ id: 'd', text: source, chunks: onlyFirst }], [q], resolved, bm25(2), {}, { retrieval: 'two-stage' });
    expect(routed.means.recall).toBe(1);
    const none = await evaluateDerived([{ id: 'd', text: source, chunks: [a, b] }], [q], resolved, bm25(2), {}, { retrieval: 'two-stage' });
    expect(none.means.recall).toBe(1);
    expect(none.summaries).toBe(0);
  });
});

describe('property: a proposition whose support is its passage scores like the passage; one whole-document summary routes like none', () => {
  const words = ['river', 'stone', 'lamp', 'north', 'quiet', 'paper', 'grain', 'wolf', 'glass', 'ember'];
  const sentence = fc.array(fc.constantFrom(...words), { minLength: 3, maxLength: 9 }).map((w) => w.join(' ') + '.');
  const documentArb = fc.array(sentence, { minLength: 4, maxLength: 16 }).map((s) => s.join(' '));
  it('gives the same means under BM25 for any document, questions and k', async () => {
    await fc.assert(
      fc.asyncProperty(documentArb, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 4 }), async (text, picks, k) => {
        const options = { size: 60, overlap: 0, unit: 'chars' as const };
        const chunks = await chunk(text, options);
        const questions: GoldenQuestion[] = picks.map(([a, b, q]) => {
          const start = a % text.length;
          const end = Math.min(text.length, start + 1 + (b % 40));
          return { question: q.join(' '), references: [{ start, end, content: text.slice(start, end) }] };
        });
        const settings = bm25(k);
        const plain = await evaluateChunks([{ id: 'd', text, chunks }], questions, validateOptions(options), settings);
        const props = chunks.map((c, i) => proposition(c, c.text, [{ start: c.start, end: c.end }], i));
        const derived = await evaluateDerived([{ id: 'd', text, chunks: props }], questions, validateOptions(options), settings);
        for (const [name, value] of Object.entries(plain.means)) expect(derived.means[name as keyof typeof plain.means]).toBeCloseTo(value, 12);
        // One summary of the whole document routes every chunk to itself: two-stage retrieval is plain retrieval.
        const routed = await evaluateDerived([{ id: 'd', text, chunks: [...chunks, summary(text, { start: 0, end: text.length }, 'Summary: river lamp.', chunks.length)] }], questions, validateOptions(options), settings, {}, { retrieval: 'two-stage' });
        for (const [name, value] of Object.entries(plain.means)) expect(routed.means[name as keyof typeof plain.means]).toBeCloseTo(value, 12);
      }),
      { numRuns: 60 },
    );
  });
});
