import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-eval-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const a = 'Alpha bravo charlie.\n\nDelta echo foxtrot.\n\nGolf hotel india.';
const b = 'Juliet kilo lima.\n\nMike november oscar.';
mkdirSync(join(dir, 'corpus'));
file('corpus/a.txt', a);
file('corpus/b.md', b);
const csv = file(
  'corpus/questions.csv',
  'question,references,corpus_id\n' +
    'echo foxtrot,"[{""content"": ""Delta echo foxtrot."", ""start_index"": 22, ""end_index"": 41}]",a\n' +
    'november,"[{""content"": ""Mike november oscar."", ""start_index"": 19, ""end_index"": 39}]",b.md\n',
);

describe('chunkscope eval', () => {
  it('prints the configuration, means and per question the retrieved chunks and metrics (a directory: corpus_id names the file)', async () => {
    const r = await runCli(['eval', join(dir, 'corpus'), '--questions', csv, '--size', '20', '--overlap', '0', '--k', '2']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.configuration).toMatchObject({ strategy: 'recursive', size: 20, overlap: 0, retriever: 'bm25', k: 2 });
    expect(out.means.recall).toBe(1);
    expect(out.index).toMatchObject({ documents: 2, chunks: 5 });
    expect(out.questions[0].retrieved[0]).toEqual({ document: 'a.txt', start: 22, end: 41, rank: 1, score: expect.any(Number), chunk: 1 });
    expect(out.questions[1].document).toBe('b.md');
    expect(out.questions[0].metrics).toMatchObject({ recall: 1, hit: 1, reciprocalRank: 1 });
  });

  it('says why a question missed', async () => {
    const q = file('q.jsonl', JSON.stringify({ question: 'alpha golf', references: [{ start: 22, end: 41, content: 'Delta echo foxtrot.' }] }) + '\n');
    const r = await runCli(['eval', join(dir, 'corpus/a.txt'), '--questions', q, '--size', '20', '--overlap', '0', '--k', '1']);
    const out = JSON.parse(r.out);
    expect(out.questions[0].failures[0].message).toMatch(/did not match the question at all/);
  });

  it('refuses bad settings with one line before reading files', async () => {
    for (const [args, message] of [
      [['--retriever', 'tfidf'], /unknown retriever "tfidf" \(expected one of bm25, dense, hybrid\)/],
      [['--k', '0'], /k \(chunks per query\) must be between 1 and 1000/],
      [['--hybrid-weight', '2'], /hybridWeight must be between 0 and 1/],
      [['--overlap', '30', '--size', '20'], /overlap \(30\) must be smaller than size \(20\)/],
    ] as const) {
      const r = await runCli(['eval', 'missing.txt', '--questions', 'missing.csv', ...args]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    }
    expect((await runCli(['eval', join(dir, 'corpus')])).err).toMatch(/missing --questions/);
  });
});

describe('chunkscope sweep', () => {
  it('prints one row per configuration, as JSON or CSV', async () => {
    const args = ['sweep', join(dir, 'corpus'), '--questions', csv, '--size', '20,40', '--overlap', '0,10'];
    const json = JSON.parse((await runCli(args)).out);
    expect(json.map((r: { values: unknown }) => r.values)).toEqual([
      { size: 20, overlap: 0 },
      { size: 20, overlap: 10 },
      { size: 40, overlap: 0 },
      { size: 40, overlap: 10 },
    ]);
    expect(json[0].means.recall).toBe(1);
    const r = await runCli([...args, '--format', 'csv', '--retriever', 'bm25']);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('size,overlap,recall,precision,iou,precisionOmega,hit,reciprocalRank,chunks,indexed,embeddingTokens,error');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^20,0,1,/);
  });
});
