import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packRecord, storedRecordProblem } from './embeddingCache';

const texts = ['One sentence.', 'Another one.', 'A third.'];
const good = (dims: number) => ({ texts: [...texts], dims, vectors: Float32Array.from({ length: texts.length * dims }, (_, i) => Math.sin(i)), savedAt: 1 });

describe('a cached embedding record read back', () => {
  it('is accepted when it has the document\'s texts and texts × dims finite values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1024 }), (dims) => {
        expect(storedRecordProblem(good(dims), texts)).toBeNull();
      }),
    );
  });

  it('is refused when damaged: negative or fractional dims, NaN or Infinity, wrong lengths, wrong types', () => {
    const damaged: [string, unknown][] = [
      ['negative dims', { ...good(4), dims: -4 }],
      ['zero dims', { ...good(4), dims: 0 }],
      ['fractional dims', { ...good(4), dims: 2.5 }],
      ['huge dims', { ...good(4), dims: 1e9 }],
      ['dims as text', { ...good(4), dims: '4' }],
      ['vectors too short', { ...good(4), vectors: new Float32Array(11) }],
      ['vectors too long', { ...good(4), vectors: new Float32Array(13) }],
      ['vectors as a plain array', { ...good(4), vectors: Array.from(good(4).vectors) }],
      ['texts missing', { ...good(4), texts: undefined }],
      ['one text less', { ...good(4), texts: texts.slice(1) }],
      ['null', null],
      ['a string', 'vectors'],
    ];
    for (const [what, record] of damaged) expect(storedRecordProblem(record, texts), what).not.toBeNull();
  });

  it('property: one non-finite value anywhere makes the record refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity), (dims, at, bad) => {
        const record = good(dims);
        record.vectors[at % record.vectors.length] = bad;
        expect(storedRecordProblem(record, texts)).toBe('values that are not numbers');
      }),
    );
  });
});

describe('a document\'s vectors packed for IndexedDB', () => {
  const vectorsOf = (rows: number[][]) => rows.map((r) => Float32Array.from(r));
  const notStale = () => false;

  it('property: the record holds every vector in order, and reads back as the same document', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 16 }).chain((dims) =>
          fc.array(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: dims, maxLength: dims }), { minLength: 1, maxLength: 300 }),
        ),
        async (rows) => {
          const docTexts = rows.map((_, i) => `Sentence ${i}.`);
          const record = await packRecord(docTexts, vectorsOf(rows), notStale);
          expect(record).not.toBeNull();
          expect(record!.dims).toBe(rows[0]!.length);
          expect(Array.from(record!.vectors)).toEqual(rows.flat().map((x) => Math.fround(x)));
          expect(storedRecordProblem(record, docTexts)).toBeNull();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes nothing a read would refuse: a value that is not finite, or vectors of two widths', async () => {
    expect(await packRecord(['a', 'b'], vectorsOf([[1, 2], [3, NaN]]), notStale)).toBeNull();
    expect(await packRecord(['a', 'b'], vectorsOf([[1, 2], [3, Infinity]]), notStale)).toBeNull();
    expect(await packRecord(['a', 'b'], vectorsOf([[1, 2], [3]]), notStale)).toBeNull();
    expect(await packRecord(['a', 'b'], vectorsOf([[1, 2]]), notStale)).toBeNull();
  });

  it('lets other work in between slices of a large document, and gives up once a newer write is scheduled', async () => {
    // 24,000 vectors (about 1 MiB of English); slices of no time at all, so the test does not depend on this machine's speed.
    const rows = Array.from({ length: 24_000 }, (_, i) => new Float32Array(16).fill(i % 7));
    const docTexts = rows.map((_, i) => `Sentence ${i}.`);
    let yields = 0;
    const counted = async () => {
      yields++;
    };
    expect(await packRecord(docTexts, rows, notStale, counted, -1)).not.toBeNull();
    expect(yields).toBe(Math.floor(24_000 / 64));
    let stale = false;
    const superseded = async () => {
      stale = true; // a newer document's write was scheduled while this one yielded
    };
    expect(await packRecord(docTexts, rows, () => stale, superseded, -1)).toBeNull();
  });
});
