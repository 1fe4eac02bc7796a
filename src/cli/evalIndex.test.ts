/**
 * `chunkscope eval --index lancedb:DIR`: the chunks the filter mode made, written by the LanceDB sink, evaluated
 * as read back. The same configuration gives the same report as a fresh chunking; a table made with another
 * configuration gives that configuration's results (the rows are what is measured); stored vectors are used.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusChunkRecord } from '../node/corpus/record';
import { openLanceSink } from '../node/lancedb/sink';
import { createEmbedder } from '../embed/index';
import { main } from './main';

const root = mkdtempSync(join(tmpdir(), 'chunkscope-eval-index-'));
const corpus = join(root, 'corpus');
mkdirSync(corpus);
const topics = ['the river delta', 'a night train', 'old sea maps', 'salt harvest', 'glass blowing', 'bee keeping'];
const texts: Record<string, string> = {};
for (const [d, name] of ['one.md', 'two.txt', 'three.md'].entries()) {
  texts[name] = Array.from({ length: 14 }, (_, i) => `Section ${i} of ${name} is about ${topics[(i + d) % topics.length]} in detail number ${i * 7 + d}.`).join('\n\n');
  writeFileSync(join(corpus, name), texts[name]);
}
const questionsPath = join(root, 'questions.jsonl');
const questions = Object.entries(texts).flatMap(([name, text]) =>
  [2, 9].map((i) => {
    const content = text.split('\n\n')[i]!;
    const start = text.indexOf(content);
    return { question: content.replace(/^Section \d+ of \S+ is about /, '').replace(/\.$/, ''), references: [{ start, end: start + content.length, content }], corpusId: name };
  }),
);
writeFileSync(questionsPath, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');

async function cli(argv: string[], stdin = '') {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new TextEncoder().encode(stdin) });
  return { code, out, err };
}

/** The corpus through the filter mode, into a fresh LanceDB directory. */
async function indexWith(flags: string[], embed = false): Promise<string> {
  const lines = Object.entries(texts).map(([id, text]) => JSON.stringify({ id, text })).join('\n');
  const r = await cli(['chunk', '-', '--input', 'jsonl', ...flags], lines);
  expect(r.code).toBe(0);
  const records = r.out.trim().split('\n').map((l) => JSON.parse(l) as CorpusChunkRecord);
  const dir = mkdtempSync(join(root, 'lance-'));
  const embedder = embed ? await createEmbedder({ model: 'builtin' }) : undefined;
  const sink = await openLanceSink(dir, { embedder, embeddingCacheDir: join(dir, 'cache') });
  await sink.apply(records, { added: Object.keys(texts), changed: [], unchanged: [], deleted: [], deleteChunkIds: [] });
  await sink.close();
  await embedder?.dispose();
  return dir;
}

const report = (out: string) => {
  const { means, questions: qs, index } = JSON.parse(out);
  return { means, index, questions: qs };
};

describe('chunkscope eval --index lancedb:DIR', () => {
  it('gives the report of a fresh chunking with the same configuration', async () => {
    const dir = await indexWith(['--size', '90', '--overlap', '10']);
    const fresh = await cli(['eval', corpus, '--questions', questionsPath, '--size', '90', '--overlap', '10', '--k', '3']);
    const indexed = await cli(['eval', corpus, '--questions', questionsPath, '--size', '90', '--overlap', '10', '--k', '3', '--index', `lancedb:${dir}`]);
    expect(indexed.err).toBe('');
    expect(indexed.code).toBe(0);
    expect(report(indexed.out)).toEqual(report(fresh.out));
    expect(report(indexed.out).means.recall).toBeGreaterThan(0.5);
  });

  it('measures the rows, not a new chunking: an index of another size gives that size’s results', async () => {
    const dir = await indexWith(['--size', '40', '--overlap', '0']);
    const asIndexed = await cli(['eval', corpus, '--questions', questionsPath, '--size', '40', '--overlap', '0']);
    const flagsSayOther = await cli(['eval', corpus, '--questions', questionsPath, '--size', '300', '--index', `lancedb:${dir}`]);
    expect(flagsSayOther.code).toBe(0);
    expect(flagsSayOther.err).toMatch(/^chunkscope: note: lancedb:.* was chunked with another configuration .*\n$/);
    expect(report(flagsSayOther.out).questions).toEqual(report(asIndexed.out).questions);
  });

  it('ranks with the stored vectors (dense retriever): the report of a fresh dense evaluation', async () => {
    const dir = await indexWith(['--size', '90'], true);
    const fresh = await cli(['eval', corpus, '--questions', questionsPath, '--size', '90', '--retriever', 'dense']);
    const indexed = await cli(['eval', corpus, '--questions', questionsPath, '--size', '90', '--retriever', 'dense', '--index', `lancedb:${dir}`]);
    expect(indexed.code).toBe(0);
    expect(report(indexed.out)).toEqual(report(fresh.out));
  }, 60_000);

  it('refuses in one line: a bad --index, an empty directory, a file the index does not match, --index on a sweep', async () => {
    const dir = await indexWith(['--size', '90']);
    const stale = join(root, 'stale');
    mkdirSync(stale);
    for (const [name, text] of Object.entries(texts)) writeFileSync(join(stale, name), name === 'two.txt' ? 'Edited. ' + text : text);
    const cases: [string[], RegExp][] = [
      [['eval', corpus, '--questions', questionsPath, '--index', dir], /--index takes lancedb:<dir>/],
      [['eval', corpus, '--questions', questionsPath, '--index', `lancedb:${mkdtempSync(join(root, 'empty-'))}`], /has no table "chunks"/],
      [['eval', stale, '--questions', questionsPath, '--index', `lancedb:${dir}`], /is stale for "two.txt"/],
      [['eval', corpus, '--questions', questionsPath, '--index', `lancedb:${join(root, 'never-written')}`], /never-written does not exist/],
      [['sweep', corpus, '--questions', questionsPath, '--size', '50,90', '--index', `lancedb:${dir}`], /--index is for eval/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect([r.code, r.out]).toEqual([2, '']);
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(existsSync(join(root, 'never-written'))).toBe(false); // reading an index makes no directory
  });
});
