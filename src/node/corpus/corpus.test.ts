/**
 * The corpus pipeline on a generated corpus of ~300 mixed documents (src/testing/corpus.ts): single run vs 4
 * shards merged, incremental re-runs with exact changes.json, failures, walking rules, the library iterator and
 * the sink. The kill-and-resume test is in ./resume.test.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, symlinkSync, unlinkSync, writeFileSync, appendFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestCorpus } from '../../testing/corpus';
import { chunkCorpus, mergeShards, runCorpus, type CorpusChanges, type CorpusChunkRecord, type CorpusManifest, type CorpusSink } from './index';
import { globMatcher } from './walk';
import { processDocument } from './document';
import { parseShard } from '../../cli/corpus';
import { main } from '../../cli/main';

const base = mkdtempSync(join(tmpdir(), 'chunkscope-corpus-'));
const source = join(base, 'corpus');
let failing: string[] = [];
const OPTIONS = { size: 300, overlap: 30 };

const read = (path: string) => readFileSync(path, 'utf8');
const readJson = <T>(path: string) => JSON.parse(read(path)) as T;
const sortedLines = (text: string) => text.split('\n').filter(Boolean).sort();

beforeAll(async () => {
  ({ failing } = await writeTestCorpus(source));
  await runCorpus({ inputs: [source], outDir: join(base, 'single'), options: OPTIONS, jobs: 1 });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('corpus run', () => {
  it('writes one line per chunk, each exactly its span of the document, with deterministic sha256 ids', () => {
    const manifest = readJson<CorpusManifest>(join(base, 'single', 'manifest.json'));
    const lines = read(join(base, 'single', 'chunks.jsonl')).split('\n').filter(Boolean);
    expect(manifest.totals.documents).toBe(300 + 3); // the generated documents, the PDF, the DOCX, the empty file
    expect(lines.length).toBe(manifest.totals.chunks);
    expect(manifest.documents['docs/empty.txt']).toMatchObject({ chunkCount: 0, chunkIds: [] });
    expect(manifest.documents['docs/travel-policy.pdf']!.format).toBe('pdf');
    expect(manifest.documents['docs/expense-guide.docx']!.format).toBe('docx');
    expect(manifest.failed.map((f) => f.id)).toEqual(failing);
    expect(manifest.failed[0]!.reason).toMatch(/binary/);
    expect(manifest.failed[1]!.reason).toMatch(/UTF-8/);
    expect(Object.keys(manifest.documents).some((id) => id.endsWith('.png'))).toBe(false);
    const records = lines.map((l) => JSON.parse(l) as CorpusChunkRecord);
    // Document-id order, chunks in order; ids unique and as the manifest lists them.
    const ids = records.map((r) => r.documentId);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(records.map((r) => r.chunkId)).size).toBe(records.length);
    for (const id of ['part-0/note-0.md', 'part-3/page-3.html', 'docs/expense-guide.docx']) {
      expect(records.filter((r) => r.documentId === id).map((r) => r.chunkId)).toEqual(manifest.documents[id]!.chunkIds);
    }
    const text = read(join(source, 'part-0', 'note-0.md'));
    for (const r of records.filter((x) => x.documentId === 'part-0/note-0.md')) {
      expect(r.text).toBe(text.slice(r.start, r.end));
      expect(r.chunkId).toMatch(/^[0-9a-f]{64}$/);
      expect(r.configHash).toBe(manifest.configHash);
    }
    expect(records.find((r) => r.documentId === 'docs/travel-policy.pdf')!.metadata.pages).toEqual([1]);
  });

  it('gives the same files with a worker pool (--jobs 2) as in one thread', async () => {
    const out = join(base, 'pool');
    await runCorpus({ inputs: [source], outDir: out, options: OPTIONS, jobs: 2 });
    for (const name of ['chunks.jsonl', 'manifest.json', 'changes.json']) expect(read(join(out, name))).toBe(read(join(base, 'single', name)));
  }, 60_000);

  it('4 shards merged equal the single run exactly', async () => {
    const out = join(base, 'shards');
    for (let index = 0; index < 4; index++) await runCorpus({ inputs: [source], outDir: out, options: OPTIONS, jobs: 1, shard: { index, count: 4 } });
    const parts = readdirSync(out).sort();
    expect(parts).toContain('chunks-00003-of-00004.jsonl');
    expect(parts).toContain('manifest-00000-of-00004.json');
    const counts = [0, 1, 2, 3].map((i) => Object.keys(readJson<CorpusManifest>(join(out, `manifest-0000${i}-of-00004.json`)).documents).length);
    expect(Math.min(...counts)).toBeGreaterThan(40); // the hash spreads documents over the shards
    const union = [0, 1, 2, 3].flatMap((i) => sortedLines(read(join(out, `chunks-0000${i}-of-00004.jsonl`)))).sort();
    expect(union).toEqual(sortedLines(read(join(base, 'single', 'chunks.jsonl'))));
    const merged = await mergeShards(out);
    expect(merged.shards).toBe(4);
    for (const name of ['chunks.jsonl', 'manifest.json', 'changes.json']) expect(read(join(out, name))).toBe(read(join(base, 'single', name)));
  });

  it('re-chunks only what changed and lists the changes exactly (edit, add, delete)', async () => {
    const tree = join(base, 'edited');
    cpSync(source, tree, { recursive: true });
    // Files last modified an hour ago: their size and mtime are cached with their hash, so a re-run reads only edited ones.
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const entry of readdirSync(tree, { recursive: true, withFileTypes: true })) if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), hourAgo, hourAgo);
    const out = join(base, 'incremental');
    await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1 });
    const before = readJson<CorpusManifest>(join(out, 'manifest.json'));
    appendFileSync(join(tree, 'part-0', 'note-0.md'), '\nOne more sentence at the end.\n');
    writeFileSync(join(tree, 'part-1', 'note-1.md'), '# Rewritten\n\nShort now.\n');
    writeFileSync(join(tree, 'docs', 'added.md'), '# Added\n\nA new document.\n');
    writeFileSync(join(tree, 'part-2', 'added.txt'), 'Another new one.\n');
    unlinkSync(join(tree, 'part-2', 'text-2.txt'));
    unlinkSync(join(tree, 'docs', 'travel-policy.pdf'));
    const summary = await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1 });
    // Read: the 4 edited or added files and the 3 that failed last time (retried); the others not opened.
    expect(summary).toMatchObject({ added: 2, changed: 2, deleted: 2, read: 4 + 3, chunked: 4, rebuildReason: null });
    const changes = readJson<CorpusChanges & { rebuildReason: string | null }>(join(out, 'changes.json'));
    expect(changes.added).toEqual(['docs/added.md', 'part-2/added.txt']);
    expect(changes.changed).toEqual(['part-0/note-0.md', 'part-1/note-1.md']);
    expect(changes.deleted).toEqual(['docs/travel-policy.pdf', 'part-2/text-2.txt']);
    expect(changes.unchanged.length).toBe(303 - 2 - 2);
    const gone = ['part-0/note-0.md', 'part-1/note-1.md', 'docs/travel-policy.pdf', 'part-2/text-2.txt'].flatMap((id) => before.documents[id]!.chunkIds);
    expect(changes.deleteChunkIds).toEqual([...gone].sort());
    // The result is what a clean run over the edited tree writes.
    const clean = join(base, 'clean-after-edit');
    await runCorpus({ inputs: [tree], outDir: clean, options: OPTIONS, jobs: 1 });
    expect(read(join(out, 'chunks.jsonl'))).toBe(read(join(clean, 'chunks.jsonl')));
    expect(read(join(out, 'manifest.json'))).toBe(read(join(clean, 'manifest.json')));
    // Nothing changed: nothing chunked.
    const again = await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1 });
    expect(again).toMatchObject({ chunked: 0, added: 0, changed: 0, deleted: 0, unchanged: 303 });
    expect(readdirSync(out).sort()).toEqual(['.chunkscope-stat.json', 'changes.json', 'chunks.jsonl', 'manifest.json']);
    // A file rewritten with the same size and its old mtime restored is missed by the stat cache; without the cache
    // (or with it deleted), hashes decide.
    const note = join(tree, 'part-3', 'note-10.md');
    const original = read(note);
    writeFileSync(note, original.replace(/[a-z]/, 'Z'));
    utimesSync(note, hourAgo, hourAgo);
    rmSync(join(out, '.chunkscope-stat.json'));
    const rehashed = await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1 });
    expect(rehashed).toMatchObject({ changed: 1, read: 303 + 3 });
  });

  it('a changed configuration re-chunks everything and says why', async () => {
    const out = join(base, 'reconfigured');
    cpSync(join(base, 'single'), out, { recursive: true });
    const summary = await runCorpus({ inputs: [source], outDir: out, options: { size: 400, overlap: 30 }, jobs: 1 });
    expect(summary.rebuildReason).toBe('the configuration changed (size 300 → 400)');
    expect(summary).toMatchObject({ changed: 303, unchanged: 0, chunked: 303 });
    const changes = readJson<CorpusChanges>(join(out, 'changes.json'));
    expect(changes.deleteChunkIds.length).toBe(readJson<CorpusManifest>(join(base, 'single', 'manifest.json')).totals.chunks);
  });

  it('re-chunks everything when the chunks file does not match its manifest (edited by hand)', async () => {
    const out = join(base, 'damaged');
    cpSync(join(base, 'single'), out, { recursive: true });
    appendFileSync(join(out, 'chunks.jsonl'), '{"documentId":"x"}\n');
    const summary = await runCorpus({ inputs: [source], outDir: out, options: OPTIONS, jobs: 1 });
    expect(summary).toMatchObject({ rebuildReason: 'the previous chunks file does not match its manifest', chunked: 303 });
    expect(read(join(out, 'chunks.jsonl'))).toBe(read(join(base, 'single', 'chunks.jsonl')));
  });

  it('hands the sink the deletions and only the new chunks, before the files are committed', async () => {
    const out = join(base, 'sunk');
    cpSync(join(base, 'single'), out, { recursive: true });
    const tree = join(base, 'sink-tree');
    cpSync(source, tree, { recursive: true });
    appendFileSync(join(tree, 'part-4', 'code-4.ts'), '// changed\n');
    const seen: { records: CorpusChunkRecord[]; changes: CorpusChanges | null; manifestAtApply: string } = { records: [], changes: null, manifestAtApply: '' };
    const sink: CorpusSink = {
      async apply(records, changes) {
        for await (const r of records) seen.records.push(r);
        seen.changes = changes;
        seen.manifestAtApply = read(join(out, 'manifest.json'));
      },
    };
    await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1, sink });
    expect(seen.changes!.changed).toEqual(['part-4/code-4.ts']);
    expect(new Set(seen.records.map((r) => r.documentId))).toEqual(new Set(['part-4/code-4.ts']));
    expect(seen.manifestAtApply).toBe(read(join(base, 'single', 'manifest.json')));
    // A failing sink leaves the previous files; the next run applies the same changes.
    const failing: CorpusSink = { apply: async () => Promise.reject(new Error('index down')) };
    appendFileSync(join(tree, 'part-2', 'code-9.py'), '# changed\n');
    await expect(runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1, sink: failing })).rejects.toThrow('index down');
    const retried = await runCorpus({ inputs: [tree], outDir: out, options: OPTIONS, jobs: 1, sink });
    expect(retried).toMatchObject({ changed: 1, chunked: 0, resumed: 1 });
    expect(seen.changes!.changed).toEqual(['part-2/code-9.py']);
  });
});

describe('one document', () => {
  it('spills a large document\'s lines to a file as they are made, the same bytes as returned lines', async () => {
    const spillDir = mkdtempSync(join(base, 'spill-'));
    const task = { id: 'part-0/note-0.md', path: join(source, 'part-0', 'note-0.md'), knownHash: null, options: { size: 40, overlap: 0 }, configHash: 'h', maxBytes: 1e6, dropPageFurniture: false };
    const inMemory = await processDocument(task);
    const spilled = await processDocument({ ...task, spillDir, spillAboveChars: 10 });
    if (inMemory.kind !== 'chunked' || spilled.kind !== 'chunked') throw new Error('not chunked');
    expect(spilled.lines).toEqual([]);
    expect(read(spilled.spill!)).toBe(inMemory.lines.join(''));
    expect(spilled.chunkIds).toEqual(inMemory.chunkIds);
    expect(inMemory.chunkIds.length).toBeGreaterThan(3);
  });
});

describe('walking', () => {
  it('matches globs as .gitignore does (a name without a slash at any depth)', () => {
    expect(globMatcher('*.md')('a/b/c.md')).toBe(true);
    expect(globMatcher('docs/**/*.md')('docs/x/y/z.md')).toBe(true);
    expect(globMatcher('docs/**/*.md')('docs/z.md')).toBe(true);
    expect(globMatcher('docs/*.md')('docs/x/z.md')).toBe(false);
    expect(globMatcher('*.{md,txt}')('a/b.txt')).toBe(true);
    expect(globMatcher('part-?')('part-3')).toBe(true);
  });

  it('follows --include/--exclude and symbolic links inside the tree only', async () => {
    const tree = join(base, 'links');
    mkdirSync(join(tree, 'inside'), { recursive: true });
    mkdirSync(join(base, 'outside'), { recursive: true });
    writeFileSync(join(tree, 'inside', 'a.md'), '# A\n\nText.\n');
    writeFileSync(join(tree, 'b.rst'), 'B text.\n');
    writeFileSync(join(tree, 'skip.md'), '# skip\n');
    writeFileSync(join(base, 'outside', 'secret.md'), '# Secret\n');
    symlinkSync(join(base, 'outside'), join(tree, 'out-link'));
    symlinkSync(join(tree, 'inside'), join(tree, 'in-link'));
    symlinkSync(tree, join(tree, 'inside', 'loop'));
    const ids: string[] = [];
    for await (const r of chunkCorpus(tree, { jobs: 1, exclude: ['skip.md'] })) ids.push(r.documentId);
    expect([...new Set(ids)]).toEqual(['b.rst', 'in-link/a.md', 'inside/a.md']);
    const only: string[] = [];
    for await (const r of chunkCorpus(tree, { jobs: 1, include: ['inside/**'] })) only.push(r.documentId);
    expect([...new Set(only)]).toEqual(['inside/a.md']);
  });
});

describe('chunkCorpus (library)', () => {
  it('yields the same records as the command writes, in order, with progress', async () => {
    const progress: number[] = [];
    const failures: string[] = [];
    const lines: string[] = [];
    for await (const record of chunkCorpus(source, { ...OPTIONS, jobs: 1, onProgress: (p) => progress.push(p.documents), onFailure: (path) => failures.push(path) })) lines.push(JSON.stringify(record));
    expect(lines.join('\n') + '\n').toBe(read(join(base, 'single', 'chunks.jsonl')));
    expect(progress.at(-1)).toBe(306);
    expect(failures).toEqual(failing);
  }, 60_000);
});

describe('the command', () => {
  const cli = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
    return { code, out, err };
  };

  it('reports each failing document on one line, goes on, and ends with a summary', async () => {
    const r = await cli(['corpus', source, '--out', join(base, 'cli'), '--size', '300', '--overlap', '30', '--jobs', '1']);
    expect(r.code).toBe(0);
    const lines = r.err.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('chunkscope: skipped '))).toHaveLength(3);
    expect(lines).toContain('chunkscope: skipped broken/not-a.pdf: is not a PDF (no %PDF header)');
    expect(lines.at(-1)).toMatch(/^chunkscope: 303 documents \(303 added, 0 changed, 0 unchanged, 0 deleted\), 3 failed; [\d,]+ chunks; 303 chunked in [\d.]+ s → /);
    expect(read(join(base, 'cli', 'chunks.jsonl'))).toBe(read(join(base, 'single', 'chunks.jsonl')));
  });

  it('exits 1 when nothing could be chunked, 2 on bad flags', async () => {
    const broken = join(base, 'only-broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'x.txt'), new Uint8Array([0, 1, 2, 0]));
    const r = await cli(['corpus', broken, '--out', join(base, 'cli-broken'), '--jobs', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no document could be chunked/);
    expect((await cli(['corpus', source])).err).toBe('chunkscope: corpus needs --out <dir>, the folder to write chunks.jsonl and manifest.json into\n');
    expect((await cli(['corpus', source, '--out', 'x', '--size', 'big'])).code).toBe(2);
    expect((await cli(['corpus', source, '--out', 'x', '--shard', '4/4'])).err).toMatch(/^chunkscope: --shard: index 4 is not below the number of shards, 4/);
    expect((await cli(['corpus', 'merge', join(base, 'single')])).err).toMatch(/^chunkscope: no shard manifests/);
  });

  it('--shard auto/N takes the index from the job array environment', () => {
    expect(parseShard('auto/16', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 3, count: 16 });
    expect(parseShard('auto/16', { AWS_BATCH_JOB_ARRAY_INDEX: '15' })).toEqual({ index: 15, count: 16 });
    expect(parseShard('2/4', {})).toEqual({ index: 2, count: 4 });
    expect(() => parseShard('auto/16', {})).toThrow(/needs JOB_COMPLETION_INDEX .* or AWS_BATCH_JOB_ARRAY_INDEX .*; neither is set/);
    expect(() => parseShard('1-4', {})).toThrow(/--shard must be i\/N or auto\/N/);
  });
});

