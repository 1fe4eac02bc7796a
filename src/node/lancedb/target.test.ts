/**
 * `--to lancedb:DIR` as the corpus command will call it: openLanceTarget (with and without an embedder) and
 * asCorpusSink, given only added and changed documents' chunks as a corpus run gives them. An empty table is
 * filled in with the unchanged documents' chunks from the previous chunks file (a sink added to an existing --out).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_FIRST, CORPUS_SECOND, corpusRun } from '../../testing/corpusRun';
import type { CorpusChunkRecord } from '../corpus/record';
import { readLanceIndex } from './readIndex';
import { asCorpusSink, openLanceTarget } from './target';

const newDir = () => mkdtempSync(join(tmpdir(), 'chunkscope-lance-target-'));
const stream = (records: readonly CorpusChunkRecord[]) => (async function* () { yield* records; })();
const ids = async (dir: string) => (await readLanceIndex(dir)).map((r) => r.record.chunkId).sort();

describe('openLanceTarget and asCorpusSink', () => {
  it.each([
    ['a whole-corpus run', null, 'chunks.jsonl'],
    ['shard 1 of 4', { index: 1, count: 4 }, 'chunks-00001-of-00004.jsonl'],
  ])('fills an empty table with the unchanged documents’ chunks from the previous chunks file (%s)', async (_label, shard, file) => {
    const out = newDir();
    const lance = newDir();
    const first = await corpusRun(CORPUS_FIRST);
    writeFileSync(join(out, file), first.records.map((r) => JSON.stringify(r) + '\n').join(''));
    const second = await corpusRun(CORPUS_SECOND, first.state);
    const fresh = second.records.filter((r) => [...second.changes.added, ...second.changes.changed].includes(r.documentId));
    const sink = (await openLanceTarget(`lancedb:${lance}`))!;
    const corpusSink = asCorpusSink(sink);
    await corpusSink.apply(stream(fresh), second.changes, { outDir: out, shard });
    expect(await ids(lance)).toEqual(second.records.map((r) => r.chunkId).sort());
    // The next run: the table is not empty, nothing is read from the chunks file.
    const third = await corpusRun({ ...CORPUS_SECOND, 'f.md': 'A late addition. '.repeat(12) }, second.state);
    const added = third.records.filter((r) => r.documentId === 'f.md');
    await corpusSink.apply(stream(added), third.changes, { outDir: out, shard });
    await sink.close();
    expect(corpusSink.results[1]).toMatchObject({ upserted: added.length, kept: 0, deleted: 0 });
    expect(await ids(lance)).toEqual(third.records.map((r) => r.chunkId).sort());
  });

  it('makes the embedder for --embed and writes vectors; a spec that is not lancedb: gives null', async () => {
    expect(await openLanceTarget('qdrant:x')).toBeNull();
    const lance = newDir();
    const first = await corpusRun(CORPUS_FIRST);
    const sink = (await openLanceTarget(`lancedb:${lance}`, { embedModel: 'builtin' }))!;
    await asCorpusSink(sink).apply(stream(first.records), first.changes, { outDir: newDir(), shard: null });
    await sink.close();
    const rows = await readLanceIndex(lance);
    expect(rows).toHaveLength(first.records.length);
    expect(rows.every((r) => r.vector !== undefined && r.vector.length > 0)).toBe(true);
  });
});
