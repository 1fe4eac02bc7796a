import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_SHARED_EVAL, NEEDS_SHARED_EVAL, SHARED_EVAL_DOCUMENT_PATH, SHARED_EVAL_QUESTIONS_PATH } from '../testing/sharedData';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-eval-corpus-'));
const write = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const a = 'Alpha bravo charlie.\n\nDelta echo foxtrot.\n\nGolf hotel india.';
const b = 'Juliet kilo lima.\n\nMike november oscar.';
mkdirSync(join(dir, 'corpus'));
write('corpus/a.txt', a);
write('corpus/b.md', b);
write('corpus/LICENSE', 'Permission is hereby granted, free of charge, echo foxtrot november');
write('corpus/logo.png', 'not really a picture');
const line = (question: string, content: string, start: number, corpus: string) =>
  `${question},"[{""content"": ""${content}"", ""start_index"": ${start}, ""end_index"": ${start + content.length}}]",${corpus}\n`;
const header = 'question,references,corpus_id\n';

describe('chunkscope eval over a corpus', () => {
  it('takes the files of known document types from a directory and lists them', async () => {
    const q = write('q1.csv', header + line('echo foxtrot', 'Delta echo foxtrot.', 22, 'a') + line('november', 'Mike november oscar.', 19, 'b'));
    const r = await runCli(['eval', join(dir, 'corpus'), '--questions', q, '--size', '20', '--overlap', '0', '--k', '2']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('chunkscope: note: left out 2 files of no known document type: LICENSE, logo.png\n');
    const out = JSON.parse(r.out);
    expect(out.files).toEqual([join(dir, 'corpus', 'a.txt'), join(dir, 'corpus', 'b.md')]);
    expect(out.index.documents).toBe(2);
  });

  it('walks sub-directories (a folder as people keep it), skipping hidden ones, node_modules and links to directories', async () => {
    for (const sub of ['nested/deeper', 'nested/.git', 'nested/node_modules']) mkdirSync(join(dir, sub), { recursive: true });
    write('nested/a.txt', a);
    write('nested/deeper/b.md', b);
    write('nested/.git/c.md', 'hidden');
    write('nested/node_modules/d.md', 'a dependency');
    write('nested/deeper/Makefile', 'all:');
    symlinkSync(join(dir, 'nested', 'deeper'), join(dir, 'nested', 'loop'));
    const q = write('q-nested.csv', header + line('echo foxtrot', 'Delta echo foxtrot.', 22, 'a') + line('november', 'Mike november oscar.', 19, 'b'));
    const r = await runCli(['eval', join(dir, 'nested'), '--questions', q, '--size', '20', '--overlap', '0', '--k', '2']);
    expect(r.code).toBe(0);
    expect(r.err.split('\n').filter(Boolean)).toEqual([
      `chunkscope: note: left out "${join(dir, 'nested', 'loop')}": a link to a directory (not followed)`,
      'chunkscope: note: left out 1 file of no known document type: Makefile',
    ]);
    const out = JSON.parse(r.out);
    expect(out.files).toEqual([join(dir, 'nested', 'a.txt'), join(dir, 'nested', 'deeper', 'b.md')]);
    expect(out.measured).toBe(2);
    expect(out.means.recall).toBe(1);
  });

  it('sets aside questions naming corpora that are not open in one line, scores the rest, and gives each document its means and the spread', async () => {
    const others = Array.from({ length: 5 }, (_, i) => line(`q${i}`, 'x', 0, ['finance', 'pubmed', 'wikitexts'][i % 3]!)).join('');
    const q = write('q2.csv', header + line('echo foxtrot', 'Delta echo foxtrot.', 22, 'a') + line('alpha golf', 'Mike november oscar.', 19, 'b.md') + others);
    const r = await runCli(['eval', join(dir, 'corpus', 'a.txt'), join(dir, 'corpus', 'b.md'), '--questions', q, '--size', '20', '--overlap', '0', '--k', '1']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('chunkscope: note: 5 questions name corpora that are not open: finance, pubmed, wikitexts (set aside, not scored)\n');
    const out = JSON.parse(r.out);
    expect(out.measured).toBe(2);
    expect(out.skipped).toHaveLength(5);
    // Pooled over the 2 measured questions: the set-aside ones are not zeros in the mean.
    expect(out.means.recall).toBe(0.5);
    expect(out.byDocument).toEqual([
      { document: 'a.txt', questions: 1, chunks: 3, means: expect.objectContaining({ recall: 1 }), rankMeans: { ndcg: 1, map: 1 } },
      { document: 'b.md', questions: 1, chunks: 2, means: expect.objectContaining({ recall: 0 }), rankMeans: { ndcg: 0, map: 0 } },
    ]);
    expect(out.spread.documents).toBe(2);
    expect(out.spread.recall.mean).toBe(0.5);
    expect(out.spread.recall.std).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('exits 2 with one line when no question matches any document', async () => {
    const q = write('q3.csv', header + line('q', 'x', 0, 'finance') + line('r', 'x', 0, 'pubmed'));
    const r = await runCli(['eval', join(dir, 'corpus', 'a.txt'), join(dir, 'corpus', 'b.md'), '--questions', q]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('chunkscope: no question matches any document: the questions name finance, pubmed; the documents are a.txt, b.md (a corpus_id names a file, with or without extension)\n');
  });

  it.skipIf(!HAVE_SHARED_EVAL)(`on chunking_evaluation's set with questions of four other corpora: one line, the same means as alone ${NEEDS_SHARED_EVAL}`, async () => {
    const corpus = join(dir, 'shared');
    mkdirSync(corpus, { recursive: true });
    writeFileSync(join(corpus, 'state_of_the_union.md'), readFileSync(SHARED_EVAL_DOCUMENT_PATH));
    writeFileSync(join(corpus, 'LICENSE'), 'MIT');
    const own = readFileSync(SHARED_EVAL_QUESTIONS_PATH, 'utf8');
    const foreign = ['chatlogs', 'finance', 'pubmed', 'wikitexts'].flatMap((c) => Array.from({ length: 3 }, (_, i) => line(`q${i}`, 'x', 0, c))).join('');
    const mixed = join(dir, 'mixed.csv');
    writeFileSync(mixed, own.replace(/\r?\n?$/, '\n') + foreign);
    const flags = ['--size', '400', '--overlap', '0', '--unit', 'cl100k_base', '--compat', 'langchain', '--k', '5'];
    const alone = await runCli(['eval', SHARED_EVAL_DOCUMENT_PATH, '--questions', SHARED_EVAL_QUESTIONS_PATH, ...flags]);
    const r = await runCli(['eval', corpus, '--questions', mixed, ...flags]);
    expect(r.code).toBe(0);
    expect(r.err.trimEnd().split('\n')).toEqual([
      'chunkscope: note: left out 1 file of no known document type: LICENSE',
      'chunkscope: note: 12 questions name corpora that are not open: chatlogs, finance, pubmed, wikitexts (set aside, not scored)',
    ]);
    const out = JSON.parse(r.out);
    expect(out.measured).toBe(76);
    expect(out.means).toEqual(JSON.parse(alone.out).means);
    expect(out.byDocument[0].means).toEqual(out.means);
  }, 60_000);
});
