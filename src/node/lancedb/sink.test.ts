/**
 * The LanceDB sink on a real embedded LanceDB (no mock): a first run, then an incremental run after editing,
 * adding and deleting documents. The table's chunk ids after each run are exactly what the changes say, and the rows
 * of unchanged documents are not rewritten (their row addresses, which move when a row is rewritten, stay put).
 * Then vectors (the built-in model) and their cache, a table of the wrong kind, and reading the index back.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../embed/index';
import type { Embedder } from '../../embed/types';
import type { CorpusChunkRecord } from '../corpus/record';
import { CORPUS_FIRST, CORPUS_SECOND, corpusRun } from '../../testing/corpusRun';
import { LanceSinkError, openLanceSink } from './sink';
import { readLanceIndex } from './readIndex';
import { applyOutputFolder } from './applyOutput';

const FIRST = CORPUS_FIRST;
const SECOND = CORPUS_SECOND;

async function rowsOf(dir: string): Promise<Map<string, { rowAddress: string; documentId: string; text: string }>> {
  const db = await lancedb.connect(dir);
  if (!(await db.tableNames()).includes('chunks')) {
    db.close();
    return new Map(); // nothing written yet (only empty runs)
  }
  const table = await db.openTable('chunks');
  const rows = await table.query().withRowId().select(['chunkId', 'documentId', 'text']).toArray();
  db.close();
  return new Map(rows.map((r) => [String(r.chunkId), { rowAddress: String(r._rowid), documentId: String(r.documentId), text: String(r.text) }]));
}

const newDir = () => mkdtempSync(join(tmpdir(), 'chunkscope-lancedb-'));

describe('LanceDB sink: incremental clean-up', () => {
  it.each([
    ['every record of the run', false],
    ['only the records of added and changed documents', true],
  ])('applies a re-run given %s: ids are exactly the changes’, unchanged rows untouched', async (_label, onlyNew) => {
    const dir = newDir();
    const first = await corpusRun(FIRST);
    const sink = await openLanceSink(dir, { batchRows: 7 });
    const r1 = await sink.apply(first.records, first.changes);
    expect(r1).toMatchObject({ upserted: first.records.length, deleted: 0, kept: 0 });
    const before = await rowsOf(dir);
    expect([...before.keys()].sort()).toEqual(first.records.map((r) => r.chunkId).sort());

    const second = await corpusRun(SECOND, first.state);
    expect(second.changes).toMatchObject({ added: ['e.md'], changed: ['b.md'], unchanged: ['a.md', 'c/c.txt'], deleted: ["d'quote.md"] });
    const given = onlyNew ? second.records.filter((r) => !second.changes.unchanged.includes(r.documentId)) : second.records;
    // An async iterable, as a corpus run streams its records.
    const r2 = await sink.apply((async function* () { yield* given; })(), second.changes);
    await sink.close();
    const after = await rowsOf(dir);

    const expected = new Set([...before.keys()].filter((id) => !second.changes.deleteChunkIds.includes(id)));
    for (const r of second.records) expected.add(r.chunkId);
    expect([...after.keys()].sort()).toEqual([...expected].sort());
    expect([...after.keys()].sort()).toEqual(second.records.map((r) => r.chunkId).sort());
    const unchangedIds = [...before].filter(([, row]) => second.changes.unchanged.includes(row.documentId));
    expect(unchangedIds.length).toBeGreaterThan(0);
    for (const [id, row] of unchangedIds) expect(after.get(id)).toEqual(row); // same row address: not rewritten
    const oldChunksOfChangedAndDeleted = [...before.values()].filter((row) => ['b.md', "d'quote.md"].includes(row.documentId)).length;
    expect(r2.deleted).toBe(oldChunksOfChangedAndDeleted);
    expect(r2.kept).toBe(onlyNew ? 0 : unchangedIds.length);
    expect(r2.upserted).toBe(given.length - r2.kept);
    for (const r of second.records) expect(after.get(r.chunkId)!.text).toBe(r.text);
  });

  it('fills in unchanged documents’ rows when the table lacks them (a sink added to an existing --out)', async () => {
    const dir = newDir();
    const first = await corpusRun(FIRST);
    const again = await corpusRun(FIRST, first.state); // everything unchanged
    const sink = await openLanceSink(dir);
    const r = await sink.apply(again.records, again.changes);
    await sink.close();
    expect(r).toMatchObject({ upserted: again.records.length, kept: 0 });
    expect([...(await rowsOf(dir)).keys()].sort()).toEqual(first.records.map((x) => x.chunkId).sort());
  });

  it('reads back exactly the records written', async () => {
    const dir = newDir();
    const first = await corpusRun(FIRST);
    const sink = await openLanceSink(dir);
    await sink.apply(first.records, first.changes);
    await sink.close();
    const rows = await readLanceIndex(dir);
    const byId = (a: CorpusChunkRecord, b: CorpusChunkRecord) => a.chunkId.localeCompare(b.chunkId);
    expect(rows.map((r) => r.record).sort(byId)).toEqual([...first.records].sort(byId));
    expect(rows.every((r) => r.vector === undefined)).toBe(true);
  });
});

describe('LanceDB sink: any sequence of runs (fast-check)', () => {
  it('after every run the table holds exactly that run’s chunks, and unchanged documents’ rows never move', async () => {
    const names = ['a.md', 'b.md', 'c/d.md', 'e.txt', 'f.md'];
    const step = fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 1, max: 9 }), { maxKeys: names.length });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), fc.boolean(), async (steps, passAll) => {
        const dir = newDir();
        const sink = await openLanceSink(dir, { batchRows: 5 });
        let state = undefined as Awaited<ReturnType<typeof corpusRun>>['state'] | undefined;
        let before = new Map<string, { rowAddress: string; documentId: string; text: string }>();
        for (const versions of steps) {
          const documents = Object.fromEntries(Object.entries(versions).map(([name, v]) => [name, `${name} version ${v}. `.repeat(3 + v * 4)]));
          const run = await corpusRun(documents, state);
          const given = passAll ? run.records : run.records.filter((r) => !run.changes.unchanged.includes(r.documentId));
          await sink.apply(given, run.changes);
          const after = await rowsOf(dir);
          expect([...after.keys()].sort()).toEqual(run.records.map((r) => r.chunkId).sort());
          for (const [id, row] of before) if (run.changes.unchanged.includes(row.documentId)) expect(after.get(id)).toEqual(row);
          before = after;
          state = run.state;
        }
        await sink.close();
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe('applyOutputFolder', () => {
  it('applies a corpus folder’s changes.json and chunks.jsonl: everything into an empty table, then only the changes', async () => {
    const out = newDir();
    const lance = newDir();
    const write = (run: Awaited<ReturnType<typeof corpusRun>>) => {
      writeFileSync(join(out, 'chunks.jsonl'), run.records.map((r) => JSON.stringify(r) + '\n').join(''));
      writeFileSync(join(out, 'changes.json'), JSON.stringify({ rebuildReason: null, ...run.changes }));
    };
    const first = await corpusRun(FIRST);
    const unchangedFirst = await corpusRun(FIRST, first.state); // an --out whose last run changed nothing
    write(unchangedFirst);
    const sink = await openLanceSink(lance);
    expect(await sink.isEmpty()).toBe(true);
    expect(await applyOutputFolder(out, sink)).toMatchObject({ upserted: first.records.length, deleted: 0 });
    const second = await corpusRun(SECOND, first.state);
    write(second);
    const fresh = second.records.filter((r) => ['b.md', 'e.md'].includes(r.documentId));
    expect(await applyOutputFolder(out, sink)).toMatchObject({ upserted: fresh.length, kept: 0 });
    await sink.close();
    expect([...(await rowsOf(lance)).keys()].sort()).toEqual(second.records.map((r) => r.chunkId).sort());
  });
});

describe('LanceDB sink: vectors', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await createEmbedder({ model: 'builtin' });
  });
  afterAll(async () => embedder.dispose());

  it('stores each chunk’s content vector, computed once: a second table with the same cache embeds nothing', async () => {
    const cache = newDir();
    const first = await corpusRun(FIRST);
    const sink = await openLanceSink(newDir(), { embedder, embeddingCacheDir: cache });
    const r1 = await sink.apply(first.records, first.changes);
    expect(r1.embedded).toEqual({ cached: 0, computed: first.records.length });
    // The same sink again: this call's counts, not the sink's totals.
    const again = await sink.apply(first.records.slice(0, 2), { ...first.changes, added: [], changed: [first.records[0]!.documentId] });
    expect(again.embedded).toEqual({ cached: 2, computed: 0 });
    const other = newDir();
    const sink2 = await openLanceSink(other, { embedder, embeddingCacheDir: cache });
    const r2 = await sink2.apply(first.records, first.changes);
    expect(r2.embedded).toEqual({ cached: first.records.length, computed: 0 });
    await Promise.all([sink.close(), sink2.close()]);
    const rows = await readLanceIndex(other);
    const direct = await embedder.embed(rows.map((r) => r.record.content));
    rows.forEach((r, i) => expect(Array.from(r.vector!)).toEqual(Array.from(direct[i]!)));
  });

  it('refuses in one sentence a table written without vectors when an embedder is given, and the reverse', async () => {
    const plain = newDir();
    const first = await corpusRun(FIRST);
    const sink = await openLanceSink(plain);
    await sink.apply(first.records.slice(0, 3), first.changes);
    await sink.close();
    await expect(openLanceSink(plain, { embedder })).rejects.toThrow(LanceSinkError);
    await expect(openLanceSink(plain, { embedder })).rejects.toThrow(/written without vectors/);
    const embedded = newDir();
    const sink2 = await openLanceSink(embedded, { embedder, embeddingCacheDir: newDir() });
    await sink2.apply(first.records.slice(0, 3), first.changes);
    await sink2.close();
    await expect(openLanceSink(embedded)).rejects.toThrow(/holds vectors/);
  });
});
