import { describe, expect, it } from 'vitest';
import { boundaryDiff, meanDelta, questionWinner, winnerCounts } from './labCompare';
import { addQuestion, deleteQuestion, markAnswer, parseStoredGolden, presentReferences, reanchor, removeReference, renameQuestion, serializeGolden } from './labGolden';
import { labMarks } from './labMarks';
import { parseNumberList, sweepConfigurations, sweepSeries } from './labSweep';
import { decodePinned, encodePinned } from './urlCodec';
import { DEFAULT_CONFIG } from './configSlice';
import { STRATEGY_NAMES, UNIT_NAMES } from '../core/describe';

const m = (recall: number, iou = 0, rr = 0) => ({ recall, precision: 0, iou, precisionOmega: 0, hit: recall > 0 ? 1 : 0, reciprocalRank: rr, firstAnswerRank: null });

describe('golden set editing', () => {
  const text = 'Alpha beta.  Gamma delta epsilon. Zeta.';
  it('adds, renames, deletes', () => {
    let set = addQuestion([], '  What is gamma? ', 'a');
    expect(set).toEqual([{ id: 'a', question: 'What is gamma?', references: [] }]);
    set = renameQuestion(set, 'a', 'Gamma?');
    expect(set[0]!.question).toBe('Gamma?');
    expect(deleteQuestion(set, 'a')).toEqual([]);
  });
  it('marks answers trimmed, merges overlapping spans, removes one', () => {
    let set = addQuestion([], 'q', 'a');
    set = markAnswer(set, 'a', text, 11, 19); // "  Gamma " → "Gamma"
    expect(set[0]!.references).toEqual([{ start: 13, end: 18, content: 'Gamma' }]);
    set = markAnswer(set, 'a', text, 16, 24);
    expect(set[0]!.references).toEqual([{ start: 13, end: 24, content: 'Gamma delta' }]);
    set = markAnswer(set, 'a', text, 34, 39);
    expect(set[0]!.references.map((r) => r.content)).toEqual(['Gamma delta', 'Zeta.']);
    expect(markAnswer(set, 'a', text, 11, 13)).toEqual(set); // blank selection
    expect(removeReference(set, 'a', 0)[0]!.references.map((r) => r.content)).toEqual(['Zeta.']);
  });
  it('follows an edit by text search and flags a reference that is gone, never shifting it', () => {
    const set = markAnswer(addQuestion([], 'q', 'a'), 'a', text, 13, 18);
    const moved = reanchor(set, `Inserted. ${text}`);
    expect(moved.changed).toBe(true);
    expect(moved.set[0]!.references[0]).toEqual({ start: 23, end: 28, content: 'Gamma' });
    const gone = reanchor(set, 'Alpha beta. Delta.');
    expect(gone.changed).toBe(false);
    expect(gone.states.get('a')![0]!.status).toBe('missing');
    expect(gone.set[0]!.references[0]).toEqual({ start: 13, end: 18, content: 'Gamma' });
    expect(presentReferences(gone.set, 'Alpha beta. Delta.')[0]!.references).toEqual([]);
  });
  it('round-trips through storage and rejects junk', () => {
    const set = markAnswer(addQuestion([], 'q', 'a'), 'a', text, 0, 5);
    expect(parseStoredGolden(serializeGolden(set))).toEqual(set);
    expect(parseStoredGolden(null)).toBeNull();
    expect(parseStoredGolden('{nope')).toBe('corrupt');
    expect(parseStoredGolden('{"version":2}')).toBe('corrupt');
  });
});

describe('compare', () => {
  it('splits boundaries into only A, only B, both', () => {
    const a = { starts: [0, 10, 20], ends: [10, 20, 30] };
    const b = { starts: [0, 15], ends: [15, 30] };
    expect(boundaryDiff(a, b)).toEqual({ onlyA: [10, 20], onlyB: [15], both: [0, 30] });
  });
  it('picks a winner by recall, then IoU, then MRR', () => {
    expect(questionWinner(m(1), m(0.5))).toBe('A');
    expect(questionWinner(m(0.5, 0.1), m(0.5, 0.2))).toBe('B');
    expect(questionWinner(m(1, 0.2, 1), m(1, 0.2, 1))).toBe('tie');
    expect(winnerCounts(['A', 'B', 'B', 'tie'])).toEqual({ A: 1, B: 2, tie: 1 });
    const means = { recall: 0.5, precision: 0.1, iou: 0.1, precisionOmega: 0.2, hit: 1, reciprocalRank: 0.5 };
    expect(meanDelta(means, { ...means, recall: 0.75 }).recall).toBeCloseTo(0.25);
  });
  it('puts the pinned configuration into the link and reads it back', () => {
    const pinned = { ...DEFAULT_CONFIG, size: 300, overlap: 30, retriever: 'hybrid' as const };
    const key = encodePinned(pinned);
    expect(key.startsWith('pin=')).toBe(true);
    const back = decodePinned(`?strategy=recursive&${key}`, { strategies: STRATEGY_NAMES, units: UNIT_NAMES })!;
    expect([back.size, back.overlap, back.retriever]).toEqual([300, 30, 'hybrid']);
    expect(decodePinned('?size=3', { strategies: STRATEGY_NAMES, units: UNIT_NAMES })).toBeNull();
  });
});

describe('sweep', () => {
  it('parses lists and builds the grid without overlap >= size', () => {
    expect(parseNumberList('128, 256 256;512')).toEqual([128, 256, 512]);
    expect(parseNumberList('128, x')).toBeNull();
    const grid = sweepConfigurations({ sizes: [50, 100], overlaps: [0, 50], strategies: [], retrievers: ['bm25', 'dense'] });
    expect(grid).toEqual([
      { size: 50, overlap: 0, retriever: 'bm25' },
      { size: 100, overlap: 0, retriever: 'bm25' },
      { size: 100, overlap: 50, retriever: 'bm25' },
      { size: 50, overlap: 0, retriever: 'dense' },
      { size: 100, overlap: 0, retriever: 'dense' },
      { size: 100, overlap: 50, retriever: 'dense' },
    ]);
  });
  it('draws one line per overlap, points in size order, failed points left out', () => {
    const p = (size: number, overlap: number, recall: number | null) => ({ values: { size, overlap }, means: recall === null ? null : { recall }, chunks: null, tokens: null, ms: 0 });
    const series = sweepSeries([p(200, 0, 0.5), p(100, 0, 0.7), p(200, 20, 0.6), p(100, 20, null)], (x) => x.means?.recall ?? null);
    expect(series.map((s) => s.label)).toEqual(['overlap 0', 'overlap 20']);
    expect(series[0]!.points).toEqual([
      { x: 100, y: 0.7, point: 1 },
      { x: 200, y: 0.5, point: 0 },
    ]);
    expect(series[1]!.points).toHaveLength(1);
  });
});

describe('editor marks', () => {
  const result = { jobId: 3, version: 7, starts: Int32Array.from([0, 10]), ends: Int32Array.from([10, 20]) } as never;
  const base = { labOpen: true, labTab: 'probe' as const, probe: null, result, golden: [], activeQuestion: null, run: null, comparison: null, text: 'x'.repeat(20) };
  it('marks probe hits with rank badges, and matched children of a parent', () => {
    const probe = {
      jobId: 3,
      query: 'q',
      requestedAt: 0,
      version: 7,
      settingsKey: '{}',
      retriever: 'bm25',
      embedder: 'builtin',
      matched: 2,
      units: 2,
      indexMs: 0,
      searchMs: 0,
      hits: [{ rank: 1, score: 2.5, start: 0, end: 20, leaf: -1, kind: 'parent' as const, matched: [{ leaf: 1, start: 10, end: 20, score: 2.5 }] }],
    };
    expect(labMarks({ ...base, probe })).toEqual([
      { start: 0, end: 20, kind: 'hit', badge: '#1 2.50', title: 'Rank 1, score 2.50' },
      { start: 10, end: 20, kind: 'matched', title: 'Matched child, score 2.50' },
    ]);
    expect(labMarks({ ...base, probe: { ...probe, jobId: 2 } })).toHaveLength(2); // the last ranking stays while the next is computed
    expect(labMarks({ ...base, probe: { ...probe, version: 6 } })).toEqual([]); // another text: its offsets mean nothing
    expect(labMarks({ ...base, probe, labOpen: false })).toEqual([]);
  });
  it('draws A/B boundaries in compare', () => {
    const comparison = { starts: Int32Array.from([0, 5]), ends: Int32Array.from([5, 20]), runA: null, runB: null, jobId: 3 };
    const marks = labMarks({ ...base, labTab: 'compare', comparison });
    expect(marks.map((x) => [x.kind, x.start])).toEqual([
      ['only-a', 5],
      ['only-b', 10],
      ['both', 0],
      ['both', 20],
    ]);
  });
});

import { orphanBits } from '../core/describe';
import { corpusBudget, formatBytes, measuredFrom } from './corpusBudget';
import { orphanLabel, orphanSummary, ORPHAN_ENDS_MID, ORPHAN_STARTS_MID } from './labBudget';

describe('orphans and budget arithmetic', () => {
  it("sums the worker's orphan flags, from the result or, for the first job on a document, from its token counts", () => {
    const text = 'One sentence here. Two sentence there. Three.';
    const spans = [
      { start: 0, end: 24, text: text.slice(0, 24), metadata: {} },
      { start: 24, end: text.length, text: text.slice(24), metadata: {} },
    ];
    const flags = orphanBits(text, spans);
    const base = { jobId: 3, text, starts: Int32Array.from([0, 24]), ends: Int32Array.from([24, text.length]) };
    const o = orphanSummary({ ...base, orphans: flags } as never, null)!;
    expect(o.flags[0]! & ORPHAN_ENDS_MID).toBeTruthy();
    expect(o.flags[1]! & ORPHAN_STARTS_MID).toBeTruthy();
    expect(o.count).toBe(2);
    expect(orphanLabel(o.flags[1]!)).toBe('starts mid-sentence');
    expect(orphanSummary({ ...base, orphans: flags } as never, null)).toBe(o); // memoized per flag set
    // Without flags: nothing (never segmented on the page) until the counts for that very job bring them.
    const bare = base as never;
    expect(orphanSummary(bare, null)).toBeNull();
    expect(orphanSummary(bare, { jobId: 2, tokens: new Int32Array(2), encoding: 'cl100k_base', orphans: flags })).toBeNull();
    expect(orphanSummary(bare, { jobId: 3, tokens: new Int32Array(2), encoding: 'cl100k_base', orphans: flags })?.count).toBe(2);
  });
  it("works the seeds' example: 1,000 documents × 2,000 tokens at 500-token chunks with 10% overlap", () => {
    // A 10,000-character document of 2,500 tokens cut into 5 chunks of 550 tokens (overlap counted twice).
    const result = { text: 'x'.repeat(10_000), starts: Int32Array.from([0, 1800, 3600, 5400, 7200]), ends: Int32Array.from([2200, 4000, 5800, 7600, 10_000]) } as never;
    const m = measuredFrom(result, [550, 550, 550, 550, 550])!;
    const chunkChars = 2200 * 4 + 2800;
    expect(m.documentTokens).toBeCloseTo((10_000 * 2750) / chunkChars);
    const b = corpusBudget({ documentTokens: 2500, chunks: 5, chunkTokens: 2750 }, { documents: 1000, meanTokens: 2000, dims: 1536, bytesPerDim: 4, k: 5, contextWindow: 8192 });
    expect(b.corpusTokens).toBe(2_000_000);
    expect(b.chunks).toBe(4000);
    expect(b.embeddingTokens).toBeCloseTo(2_200_000);
    expect(b.indexBytes).toBe(4000 * 1536 * 4);
    expect(b.contextTokens).toBe(2750);
    expect(b.contextFraction).toBeCloseTo(2750 / 8192);
    expect(formatBytes(b.indexBytes)).toBe('24.6 MB');
  });
});
