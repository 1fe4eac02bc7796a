import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorReference } from './anchor';
import { evaluate, documentForCorpus, prepareQuestions } from './evaluate';
import { explainQuestion, ordinal } from './failures';
import { formatGoldenSet, parseGoldenSet, GoldenSetError } from './golden';
import { sweep, sweepGrid } from './sweep';
import { HAVE_SHARED_EVAL, NEEDS_SHARED_EVAL, SHARED_EVAL_DOCUMENT_PATH as speechPath, SHARED_EVAL_QUESTIONS_PATH as csvPath } from '../../testing/sharedData';

describe('golden sets', () => {
  const questions = [
    { question: 'Who, "exactly"?', references: [{ start: 0, end: 5, content: 'Alice’s' }], corpusId: 'doc' },
    { question: 'What\nelse', references: [] },
  ];
  it('round-trip through JSON, JSONL and CSV', () => {
    for (const format of ['json', 'jsonl'] as const) expect(parseGoldenSet(formatGoldenSet(questions, format), { format })).toEqual(questions);
    const csv = formatGoldenSet(questions, 'csv');
    expect(csv).toContain('"[{""content"": ""Alice\\u2019s"", ""start_index"": 0, ""end_index"": 5}]"');
    expect(parseGoldenSet(csv)).toEqual([questions[0], { question: 'What\nelse', references: [] }]);
  });

  it('detects the format and reads Chroma keys in JSON', () => {
    const q = parseGoldenSet('{"question":"q","references":[{"content":"x","start_index":1,"end_index":2}],"corpus_id":"c"}\n{"question":"r","references":[]}');
    expect(q).toEqual([{ question: 'q', references: [{ start: 1, end: 2, content: 'x' }], corpusId: 'c' }, { question: 'r', references: [] }]);
  });

  it('refuses malformed sets with one line naming where', () => {
    expect(() => parseGoldenSet('[{"question": "", "references": []}]')).toThrow(/question 1: "question"/);
    expect(() => parseGoldenSet('[{"question": "q", "references": [{"start": 5, "end": 2, "content": ""}]}]')).toThrow(GoldenSetError);
    expect(() => parseGoldenSet('a,b\n1,2\n')).toThrow(/columns question and references/);
  });

  it.skipIf(!HAVE_SHARED_EVAL)(`reads chunking_evaluation's CSV and writes it back byte for byte ${NEEDS_SHARED_EVAL}`, () => {
    const csv = readFileSync(csvPath, 'utf8');
    const q = parseGoldenSet(csv);
    expect(q).toHaveLength(76);
    expect(q[0]!.corpusId).toBe('state_of_the_union');
    expect(formatGoldenSet(q, 'csv')).toBe(csv.replace(/\r\n/g, '\n'));
  });
});

describe('re-anchoring references', () => {
  const text = 'one two three two one';
  it('keeps a reference whose text is at its offsets, finds a moved one at the nearest occurrence, flags a lost one', () => {
    expect(anchorReference(text, { start: 4, end: 7, content: 'two' }).status).toBe('ok');
    expect(anchorReference(text, { start: 16, end: 19, content: 'two' })).toMatchObject({ status: 'moved', reference: { start: 14, end: 17 } });
    expect(anchorReference(text, { start: 0, end: 4, content: 'four' })).toMatchObject({ status: 'missing', reference: null });
  });
  it('converts Python code-point offsets where the text has characters outside the BMP', () => {
    const t = '😀 smile and 😀 again';
    // Code points: "again" starts at 14 (UTF-16: 16).
    expect(anchorReference(t, { start: 14, end: 19, content: "again" })).toMatchObject({ status: 'converted', reference: { start: 16, end: 21 } });
  });
});

describe('corpus ids', () => {
  const docs = [{ id: 'a/state_of_the_union.md' }, { id: 'notes.txt' }];
  it('name a file with or without extension', () => {
    expect(documentForCorpus(docs, 'state_of_the_union')).toBe(0);
    expect(documentForCorpus(docs, 'notes.txt')).toBe(1);
    expect(documentForCorpus(docs, 'notes')).toBe(1);
    expect(documentForCorpus(docs, 'other')).toBeNull();
    expect(documentForCorpus(docs, undefined)).toBeNull();
    expect(documentForCorpus([{ id: 'x' }], undefined)).toBe(0);
  });
  it('questions naming no document are skipped with the reason', () => {
    const { prepared, skipped } = prepareQuestions([{ id: 'a', text: 'abc' }, { id: 'b', text: 'def' }], [{ question: 'q', references: [{ start: 0, end: 1, content: 'a' }], corpusId: 'zzz' }]);
    expect(prepared).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/corpus_id "zzz" names none/);
  });
});

describe('failure reasons', () => {
  const unit = (start: number, end: number, index: number, rank: number | null, metadata: Record<string, unknown> = {}) => ({
    start,
    end,
    rank,
    chunk: { index, size: end - start, text: 'x', content: 'x', metadata: { strategy: 'recursive', compat: 'none', unit: 'chars', ...metadata } as never },
  });
  it('say the answer was cut across a boundary, ranked below k, oversized, in a table without header, or nothing matched', () => {
    const refs = [{ start: 15, end: 25, content: 'the answer' }];
    const cut = explainQuestion({ references: refs, units: [unit(0, 20, 0, 7), unit(20, 40, 1, 9)], k: 5, matchedCount: 9 });
    expect(cut.map((f) => f.message)).toEqual(['the answer "the answer" is cut across chunks 0 and 1 (boundary at offset 20); no part was retrieved (chunk 0 ranked 7th, chunk 1 ranked 9th; k = 5)', 'the chunk holding the answer "the answer" (chunk 0) ranked 7th, below k = 5']);
    const big = explainQuestion({ references: refs, units: [unit(0, 900, 0, 1, { oversize: true })], k: 5, matchedCount: 1, sizeLimit: 512, unitName: 'chars' });
    expect(big[0]!.message).toBe('the answer "the answer" sits in an oversized chunk (chunk 0: 900 chars, above the size 512), which dilutes it');
    const table = explainQuestion({ references: refs, units: [unit(0, 40, 3, 1, { contentType: 'table' })], k: 5, matchedCount: 1 });
    expect(table[0]!.kind).toBe('table-without-header');
    expect(explainQuestion({ references: refs, units: [unit(0, 40, 0, null)], k: 5, matchedCount: 0 }).map((f) => f.kind)).toEqual(['nothing-matched']);
    expect(explainQuestion({ references: refs, units: [unit(0, 40, 0, null)], k: 5, matchedCount: 3 }).map((f) => f.kind)).toEqual(['not-matched']);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal).join(' ')).toBe('1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 101st 111th');
  });
});

describe('evaluate', () => {
  const a = 'Alpha bravo charlie.\n\nDelta echo foxtrot.\n\nGolf hotel india.';
  const b = 'Juliet kilo lima.\n\nMike november oscar.';
  const qs = [
    { question: 'echo foxtrot', references: [{ start: 22, end: 41, content: 'Delta echo foxtrot.' }], corpusId: 'a.txt' },
    { question: 'november', references: [{ start: 19, end: 39, content: 'Mike november oscar.' }], corpusId: 'b' },
  ];
  it('puts every document into one index, and a chunk of another document counts only in Σ|r|', async () => {
    const r = await evaluate([{ id: 'a.txt', text: a }, { id: 'b.txt', text: b }], qs, { size: 20, overlap: 0, chunksInContext: 2 });
    expect(r.index).toMatchObject({ documents: 2, chunks: 5, indexed: 5 });
    expect(r.questions[0]!.retrieved[0]).toMatchObject({ document: 'a.txt', start: 22, end: 41, rank: 1 });
    expect(r.questions[1]!.metrics).toMatchObject({ recall: 1, hit: 1, reciprocalRank: 1 });
    expect(r.means.recall).toBe(1);
    expect(r.configuration).toMatchObject({ strategy: 'recursive', size: 20, overlap: 0, retriever: 'bm25', k: 2 });
  });

  it('sweeps a grid, refused configurations as rows with their message', async () => {
    const grid = sweepGrid({ size: [20, 40], overlap: [0, 30] });
    expect(grid).toEqual([{ size: 20, overlap: 0 }, { size: 20, overlap: 30 }, { size: 40, overlap: 0 }, { size: 40, overlap: 30 }]);
    const rows = await sweep([{ id: 'a.txt', text: a }, { id: 'b.txt', text: b }], qs, grid);
    expect(rows.map((r) => r.error ?? r.index!.chunks)).toEqual([5, 'overlap (30) must be smaller than size (20)', expect.any(Number), 3]);
  });

  it.skipIf(!HAVE_SHARED_EVAL)(`state_of_the_union with BM25, recursive 400 tokens / 0, Chroma's separators, LangChain compat, k 5: recall 0.961, IoU 0.0207 ${NEEDS_SHARED_EVAL}`, async () => {
    const text = readFileSync(speechPath, 'utf8');
    const questions = parseGoldenSet(readFileSync(csvPath, 'utf8'));
    const r = await evaluate([{ id: 'state_of_the_union.md', text }], questions, {
      strategy: 'recursive',
      size: 400,
      overlap: 0,
      unit: 'cl100k_base',
      compat: 'langchain',
      separators: ['\n\n', '\n', '.', '?', '!', ' ', ''],
      retriever: 'bm25',
      chunksInContext: 5,
    });
    expect(r.index.chunks).toBe(29);
    expect(r.measured).toBe(76);
    expect(r.means.recall).toBeCloseTo(0.961, 3);
    expect(r.means.iou).toBeCloseTo(0.0207, 4);
  });
});
