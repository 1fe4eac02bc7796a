/**
 * `chunkscope corpus --to lancedb:DIR` end to end through the CLI, on a real embedded LanceDB: a first run, then a
 * re-run after editing, adding and deleting files. The table's chunk ids equal chunks.jsonl's after each run, rows of
 * unchanged documents are not rewritten (their row addresses stay put), and `eval --index lancedb:DIR` gives the
 * same means as eval on the files. Then `corpus merge --to`, `--embed` and the one-line refusals.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import type { CorpusChanges, CorpusChunkRecord } from '../node/corpus/record';
import { main } from './main';

const root = mkdtempSync(join(tmpdir(), 'chunkscope-corpus-lance-'));
const corpus = join(root, 'corpus');
const topics = ['the river delta', 'a night train', 'old sea maps', 'salt harvest', 'glass blowing', 'bee keeping'];
const textOf = (name: string, d: number) => Array.from({ length: 12 }, (_, i) => `Section ${i} of ${name} is about ${topics[(i + d) % topics.length]} in detail number ${i * 7 + d}.`).join('\n\n');
const NAMES = ['a.md', 'b.txt', 'c/c.md', 'd.md'];
mkdirSync(join(corpus, 'c'), { recursive: true });
NAMES.forEach((name, d) => writeFileSync(join(corpus, name), textOf(name, d)));
const FLAGS = ['--size', '90', '--overlap', '10', '--jobs', '1'];

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
  return { code, out, err };
}

async function rowsOf(dir: string): Promise<Map<string, { rowId: string; documentId: string; hasVector: boolean }>> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable('chunks');
  const rows = await table.query().withRowId().toArray();
  db.close();
  return new Map(rows.map((r) => [String(r.chunkId), { rowId: String(r._rowid), documentId: String(r.documentId), hasVector: r.vector != null }]));
}

const linesOf = (out: string): CorpusChunkRecord[] => readFileSync(join(out, 'chunks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CorpusChunkRecord);
const sorted = (ids: Iterable<string>) => [...ids].sort();

describe('chunkscope corpus --to lancedb:DIR', () => {
  it('writes chunks.jsonl’s chunks to the table, applies a re-run’s changes there, and eval reads the same index back', async () => {
    const out = join(root, 'out');
    const index = join(root, 'index');
    const first = await cli(['corpus', corpus, '--out', out, '--to', `lancedb:${index}`, ...FLAGS]);
    expect(first.code).toBe(0);
    expect(first.err).toMatch(new RegExp(`chunkscope: lancedb:${index}: ${linesOf(out).length} rows written, 0 deleted, 0 kept\\n`));
    expect(sorted((await rowsOf(index)).keys())).toEqual(sorted(linesOf(out).map((r) => r.chunkId)));
    const before = await rowsOf(index);

    writeFileSync(join(corpus, 'a.md'), textOf('a.md', 0).replace('Section 3 of a.md', 'Section three of a.md, edited,'));
    writeFileSync(join(corpus, 'e.md'), textOf('e.md', 4));
    rmSync(join(corpus, 'd.md'));
    const second = await cli(['corpus', corpus, '--out', out, '--to', `lancedb:${index}`, ...FLAGS]);
    expect(second.code).toBe(0);
    const changes = JSON.parse(readFileSync(join(out, 'changes.json'), 'utf8')) as CorpusChanges;
    expect(changes).toMatchObject({ added: ['e.md'], changed: ['a.md'], unchanged: ['b.txt', 'c/c.md'], deleted: ['d.md'] });
    const after = await rowsOf(index);
    expect(sorted(after.keys())).toEqual(sorted(linesOf(out).map((r) => r.chunkId)));
    // An edited document's chunks before the edit keep their span, hence their id: deleted, then written again.
    const now = new Set(linesOf(out).map((r) => r.chunkId));
    for (const id of changes.deleteChunkIds) expect(after.has(id)).toBe(now.has(id));
    expect([...after.values()].some((r) => r.documentId === 'd.md')).toBe(false);
    // Unchanged documents' rows are the same rows: not deleted and written again.
    const unchanged = [...before].filter(([, row]) => changes.unchanged.includes(row.documentId));
    expect(unchanged.length).toBeGreaterThan(0);
    for (const [id, row] of unchanged) expect(after.get(id)?.rowId).toBe(row.rowId);

    const questions = join(root, 'questions.jsonl');
    const qs = ['a.md', 'b.txt', 'e.md'].flatMap((name) =>
      [2, 9].map((i) => {
        const text = readFileSync(join(corpus, name), 'utf8');
        const content = text.split('\n\n')[i]!;
        const start = text.indexOf(content);
        return { question: content.replace(/^Section \d+ of \S+ is about /, '').replace(/\.$/, ''), references: [{ start, end: start + content.length, content }], corpusId: name };
      }),
    );
    writeFileSync(questions, qs.map((q) => JSON.stringify(q)).join('\n') + '\n');
    const evalFlags = ['--questions', questions, '--size', '90', '--overlap', '10', '--k', '3'];
    const fresh = await cli(['eval', corpus, ...evalFlags]);
    const indexed = await cli(['eval', corpus, ...evalFlags, '--index', `lancedb:${index}`]);
    expect(indexed.err).toBe('');
    expect(indexed.code).toBe(0);
    expect(JSON.parse(indexed.out).means).toEqual(JSON.parse(fresh.out).means);
    expect(JSON.parse(indexed.out).means.recall).toBeGreaterThan(0.5);
  });

  it('corpus merge --to lancedb:DIR puts the merged shards in the table; --embed stores vectors', async () => {
    const out = join(root, 'shards');
    for (const i of [0, 1]) expect((await cli(['corpus', corpus, '--out', out, '--shard', `${i}/2`, ...FLAGS])).code).toBe(0);
    const index = join(root, 'merged-index');
    const merged = await cli(['corpus', 'merge', out, '--to', `lancedb:${index}`, '--embed']);
    expect(merged.err).toMatch(/^chunkscope: merged 2 shards: .*\nchunkscope: lancedb:.*: \d+ rows written, 0 deleted, 0 kept; vectors: \d+ computed/);
    expect(merged.code).toBe(0);
    const rows = await rowsOf(index);
    expect(sorted(rows.keys())).toEqual(sorted(linesOf(out).map((r) => r.chunkId)));
    expect([...rows.values()].every((r) => r.hasVector)).toBe(true);
  });

  it('refuses a bad target in one line, before reading any document', async () => {
    const out = join(root, 'refused');
    expect(await cli(['corpus', corpus, '--out', out, '--to', 'qdrant:x'])).toEqual({ code: 2, out: '', err: 'chunkscope: --to takes lancedb:<dir> (got "qdrant:x")\n' });
    expect((await cli(['corpus', corpus, '--out', out, '--embed'])).err).toBe('chunkscope: --embed needs --to lancedb:<dir> (where the vectors go)\n');
    // A table written without vectors refuses a run with them (the sink's LanceSinkError), in one line.
    const index = join(root, 'plain-index');
    expect((await cli(['corpus', corpus, '--out', join(root, 'plain'), '--to', `lancedb:${index}`, ...FLAGS])).code).toBe(0);
    const mixed = await cli(['corpus', corpus, '--out', join(root, 'plain'), '--to', `lancedb:${index}`, '--embed', ...FLAGS]);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/^chunkscope: [^\n]+\n$/);
  });
});
