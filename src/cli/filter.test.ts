/**
 * The JSONL filter mode (`chunkscope chunk - --input jsonl --format jsonl`): the records it writes, bad lines,
 * the split of input into blocks anywhere (fast-check), and streaming through a real pipe (a spawned CLI that
 * answers each line before standard input closes).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, optionsKey, validateOptions } from '../node/index';
import { CHUNKER_VERSION } from '../core/version';
import type { CorpusChunkRecord } from '../node/corpus/record';
import { main } from './main';

const FILTER = ['chunk', '-', '--input', 'jsonl', '--format', 'jsonl'];

async function runFilter(flags: string[], stdin: Uint8Array | string | Uint8Array[]) {
  let out = '';
  let err = '';
  const blocks = typeof stdin === 'string' ? [new TextEncoder().encode(stdin)] : stdin instanceof Uint8Array ? [stdin] : stdin;
  const code = await main([...FILTER, ...flags], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readStdin: () =>
      (async function* () {
        yield* blocks;
      })(),
  });
  return { code, out, err, records: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as CorpusChunkRecord) };
}

const paragraph = (i: number): string => `Paragraph ${i} says something about chunk boundaries. It has two sentences.`;
const documents = Array.from({ length: 6 }, (_, d) => ({
  id: `docs/note-${d}.md`,
  text: Array.from({ length: 3 + d }, (_, i) => paragraph(i + d)).join('\n\n'),
}));
const jsonl = (docs: readonly object[]): string => docs.map((d) => JSON.stringify(d) + '\n').join('');

describe('chunkscope chunk - --input jsonl', () => {
  it('writes each document’s chunks as records: its id, exact spans, the engine’s chunks, unique deterministic ids', async () => {
    const r = await runFilter(['--size', '90', '--overlap', '10'], jsonl(documents));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    for (const document of documents) {
      const mine = r.records.filter((x) => x.documentId === document.id);
      const engine = await chunk(document.text, { size: 90, overlap: 10, documentId: document.id });
      expect(mine.map((x) => [x.start, x.end, x.text, x.content])).toEqual(engine.map((c) => [c.start, c.end, c.text, c.content]));
      for (const x of mine) expect(x.text).toBe(document.text.slice(x.start, x.end));
    }
    expect(new Set(r.records.map((x) => x.chunkId)).size).toBe(r.records.length);
    expect(new Set(r.records.map((x) => x.configHash)).size).toBe(1);
    // The recipe, re-derivable anywhere: sha256 of document id, configuration hash, level ('' for none) and span.
    const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
    for (const x of r.records) expect(x.chunkId).toBe(sha256([x.documentId, x.configHash, '', x.start, x.end].join('\u0000')));
    expect(r.records[0]!.configHash).toBe(sha256(JSON.stringify(['chunkscope', CHUNKER_VERSION, optionsKey(validateOptions({ size: 90, overlap: 10 })), false])));
    // Same input, same ids; another configuration, other ids and hash.
    expect((await runFilter(['--size', '90', '--overlap', '10'], jsonl(documents))).out).toBe(r.out);
    const other = await runFilter(['--size', '91', '--overlap', '10'], jsonl(documents));
    expect(other.records[0]!.configHash).not.toBe(r.records[0]!.configHash);
    expect(other.records[0]!.chunkId).not.toBe(r.records[0]!.chunkId);
  });

  it('writes the corpus command’s chunks.jsonl lines, byte for byte, for a file of the same text and id', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chunkscope-filter-corpus-'));
    // In document-id order, the corpus command's order.
    const docs = [{ id: 'code/f.py', text: 'def f():\n    return 1\n\n\ndef g():\n    return 2\n' }, ...documents.slice(0, 3).map((d) => ({ ...d, id: d.id.replace(/\.md$/, '.txt') }))];
    for (const d of docs) {
      mkdirSync(dirname(join(root, 'in', d.id)), { recursive: true });
      writeFileSync(join(root, 'in', d.id), d.text);
    }
    for (const flags of [['--size', '90', '--overlap', '10'], ['--size', '40', '--retrieval', 'parent-child', '--parent-size', '120']]) {
      const out = join(root, `out-${flags.join('')}`);
      expect(await main(['corpus', join(root, 'in'), '--out', out, '--jobs', '1', ...flags], { stdout: () => {}, stderr: () => {}, readStdin: async () => new Uint8Array() })).toBe(0);
      const filtered = await runFilter(flags, jsonl(docs));
      expect(filtered.code).toBe(0);
      expect(filtered.out).toBe(readFileSync(join(out, 'chunks.jsonl'), 'utf8'));
    }
  });

  it('carries the line’s metadata and path into each chunk’s metadata, the engine’s keys after it', async () => {
    const r = await runFilter(['--size', '200'], jsonl([{ id: 7, text: 'def f():\n    return 1\n', path: 'src/f.py', metadata: { team: 'search', strategy: 'mine' } }]));
    expect(r.code).toBe(0);
    expect(r.records[0]).toMatchObject({ documentId: '7', metadata: { team: 'search', path: 'src/f.py', strategy: 'recursive', documentId: '7' } });
  });

  it('names a retrieval unit’s parent by the parent’s chunkId, a record of the same output', async () => {
    const r = await runFilter(['--size', '40', '--retrieval', 'parent-child', '--parent-size', '120'], jsonl(documents.slice(3, 4)));
    expect(r.code).toBe(0);
    const children = r.records.filter((x) => x.metadata.parentId !== undefined);
    expect(children.length).toBeGreaterThan(0);
    const ids = new Set(r.records.map((x) => x.chunkId));
    for (const child of children) expect(ids.has(child.metadata.parentId as string)).toBe(true);
  });

  it('reports a bad line in one stderr line with its number and goes on', async () => {
    const input = [
      JSON.stringify(documents[0]),
      'not json',
      JSON.stringify({ text: 'no id' }),
      JSON.stringify({ id: 'x' }),
      '[1,2]',
      JSON.stringify({ id: 'm', text: 't', metadata: [1] }),
      '',
      JSON.stringify(documents[1]),
    ].join('\n');
    const r = await runFilter(['--size', '90'], input);
    expect(r.code).toBe(0);
    const errors = r.err.trimEnd().split('\n');
    expect(errors).toEqual([
      expect.stringMatching(/^chunkscope: line 2: not JSON/),
      expect.stringMatching(/^chunkscope: line 3: no "id"/),
      expect.stringMatching(/^chunkscope: line 4: no "text"/),
      expect.stringMatching(/^chunkscope: line 5: not a JSON object/),
      expect.stringMatching(/^chunkscope: line 6: "metadata" must be an object/),
    ]);
    expect(new Set(r.records.map((x) => x.documentId))).toEqual(new Set([documents[0]!.id, documents[1]!.id]));
  });

  it('skips a line over --max-bytes and a line of invalid UTF-8, and keeps the lines around them', async () => {
    const long = JSON.stringify({ id: 'long', text: 'x'.repeat(5000) });
    const bytes = new Uint8Array([...new TextEncoder().encode(`${long}\n`), 0x7b, 0xff, 0xfe, 0x7d, 0x0a, ...new TextEncoder().encode(jsonl([documents[2]!]))]);
    const r = await runFilter(['--size', '90', '--max-bytes', '1000'], bytes);
    expect(r.err).toMatch(/^chunkscope: line 1: longer than 1,000 bytes.*\nchunkscope: line 2: not valid UTF-8.*\n$/);
    expect(r.code).toBe(0);
    expect(new Set(r.records.map((x) => x.documentId))).toEqual(new Set([documents[2]!.id]));
  });

  it('exits 1 only when no line could be chunked; an empty input is fine', async () => {
    expect((await runFilter([], 'nope\n')).code).toBe(1);
    const empty = await runFilter([], '');
    expect([empty.code, empty.out, empty.err]).toEqual([0, '', '']);
  });

  it.each([
    [['--input', 'csv'], /--input takes jsonl/],
    [['--format', 'json'], /writes --format jsonl only/],
    [['--llm', 'contextual'], /--llm is not available/],
    [['--size', 'ten'], /--size must be a whole number/],
  ])('refuses %j in one line, exit 2', async (flags, message) => {
    const r = await runFilter(flags, jsonl(documents));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.out).toBe('');
  });

  it('refuses a file instead of standard input', async () => {
    const r = await main(['chunk', 'a.txt', '--input', 'jsonl'], { stdout: () => {}, stderr: () => {}, readStdin: async () => new Uint8Array() });
    expect(r).toBe(2);
  });

  it('gives the same output however standard input is cut into blocks (inside a line, inside a character)', async () => {
    const docs = [...documents.slice(0, 3), { id: 'ünï', text: 'Grüße aus Köln — 日本語のテキスト。\n\n😀 emoji line. '.repeat(4) }];
    const whole = new TextEncoder().encode(jsonl(docs));
    const reference = await runFilter(['--size', '60'], whole);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), whole.length];
        const blocks = points.slice(1).map((end, i) => whole.slice(points[i], end));
        const r = await runFilter(['--size', '60'], blocks);
        expect(r.out).toBe(reference.out);
        expect(r.err).toBe('');
      }),
      { numRuns: 25 },
    );
  });
});

describe('the filter through a real pipe', () => {
  const runner = join(mkdtempSync(join(tmpdir(), 'chunkscope-filter-')), 'run.mjs');
  writeFileSync(runner, `const { main } = await import(${JSON.stringify(fileURLToPath(new URL('./main.ts', import.meta.url)))});\nprocess.exitCode = await main(process.argv.slice(2));\n`);

  it('answers each line before standard input closes (a dataflow engine’s pipe)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', runner, ...FILTER, '--size', '90'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let exited = false;
    const waiting: (() => void)[] = [];
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      waiting.splice(0).forEach((wake) => wake());
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.once('exit', () => {
      exited = true;
      waiting.splice(0).forEach((wake) => wake());
    });
    const waitFor = async (documentId: string): Promise<void> => {
      while (!out.includes(`"documentId":${JSON.stringify(documentId)}`)) {
        if (exited) throw new Error(`exited before answering ${documentId}: ${err}`);
        await new Promise<void>((wake) => waiting.push(wake));
      }
    };
    for (const document of documents.slice(0, 3)) {
      child.stdin.write(JSON.stringify(document) + '\n');
      await waitFor(document.id); // stdin is still open: the chunks came out as the line went in
    }
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(err).toBe('');
    const reference = await runFilter(['--size', '90'], jsonl(documents.slice(0, 3)));
    expect(out).toBe(reference.out);
  }, 30_000);
});
