import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitOptionString } from './compare';
import { HAVE_SHARED_EVAL, NEEDS_SHARED_EVAL, SHARED_EVAL_DOCUMENT_PATH, SHARED_EVAL_QUESTIONS_PATH } from '../testing/sharedData';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-compare-'));

// Twelve facts, one a paragraph; each question asks for one. Chunks of one paragraph answer every question;
// chunks of 12 characters cut each answer apart.
const facts = Array.from({ length: 12 }, (_, i) => `Fact ${i} says the ${['red', 'blue', 'green', 'gold'][i % 4]} item number ${i} weighs ${i * 3 + 7} kilograms exactly.`);
const text = facts.join('\n\n');
const doc = join(dir, 'facts.txt');
writeFileSync(doc, text);
const questions = join(dir, 'q.jsonl');
writeFileSync(
  questions,
  facts.map((f, i) => JSON.stringify({ question: `How much does item number ${i} weigh?`, references: [{ start: text.indexOf(f), end: text.indexOf(f) + f.length, content: f }] })).join('\n'),
);

describe('chunkscope compare', () => {
  it('a configuration against itself: no difference, verdict "none"', async () => {
    const r = await runCli(['compare', doc, '--questions', questions, '--a', '--size 60 --overlap 0', '--b', '--size 60 --overlap 0', '--k', '1']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.a).toEqual(out.b);
    expect(out.verdict).toBe('none');
    expect(out.difference.recall).toEqual({ mean: 0, ci95: [0, 0], pValue: 1, test: 'exact', wins: 0, losses: 0, ties: 12 });
    expect(Object.keys(out.difference)).toEqual(['recall', 'precision', 'iou', 'precisionOmega', 'hit', 'reciprocalRank', 'ndcg', 'map']);
  });

  it('names the better configuration when it wins on every question, with its interval', async () => {
    const r = await runCli(['compare', doc, '--questions', questions, '--a', '--size 12 --overlap 0', '--b', '--size 90 --overlap 0', '--k', '1']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.configurations.a).toMatchObject({ size: 12, k: 1 });
    expect(out.configurations.b).toMatchObject({ size: 90, k: 1 });
    expect(out.b.recall).toBe(1);
    expect(out.wins).toBe(12);
    expect(out.verdict).toBe('b');
    expect(out.difference.recall.pValue).toBeLessThan(0.05);
    expect(out.difference.recall.ci95[0]).toBeGreaterThan(0);
    // Swapped: A is the better one.
    const swapped = JSON.parse((await runCli(['compare', doc, '--questions', questions, '--a', '--size 90', '--b', '--size 12', '--k', '1'])).out);
    expect(swapped.verdict).toBe('a');
  });

  it('refuses a bad side with one line naming it, before reading files', async () => {
    for (const [args, message] of [
      [['--a', '--size 20 --overlap 30', '--b', '--size 20'], /^chunkscope: --a: overlap \(30\) must be smaller than size \(20\)\n$/],
      [['--a', '--size 20', '--b', '--sise 20'], /^chunkscope: --b: Unknown option '--sise'/],
      [['--a', '--size 20'], /missing --a "<options>" or --b/],
      [['--a', '', '--b', '', '--metric', 'f1'], /unknown metric "f1"/],
      [['--a', '', '--b', '', '--alpha', '2'], /--alpha must be between 0 and 1/],
    ] as const) {
      const r = await runCli(['compare', 'missing.txt', '--questions', 'missing.csv', ...args]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('splits option strings as a shell would', () => {
    expect(splitOptionString(`--size 400 --separators '\\n\\n' --separators "a b" --flag`)).toEqual(['--size', '400', '--separators', '\\n\\n', '--separators', 'a b', '--flag']);
  });

  it.skipIf(!HAVE_SHARED_EVAL)(`state_of_the_union, recursive 400 cl100k against itself: "none"; against 100 tokens: a significant verdict or "none" with its p-value ${NEEDS_SHARED_EVAL}`, async () => {
    const base = ['compare', SHARED_EVAL_DOCUMENT_PATH, '--questions', SHARED_EVAL_QUESTIONS_PATH, '--unit', 'cl100k_base', '--compat', 'langchain', '--k', '5'];
    const same = JSON.parse((await runCli([...base, '--a', '--size 400 --overlap 0', '--b', '--size 400 --overlap 0'])).out);
    expect(same.verdict).toBe('none');
    expect(same.measured).toBe(76);
    const r = JSON.parse((await runCli([...base, '--a', '--size 400 --overlap 0', '--b', '--size 100 --overlap 0'])).out);
    const d = r.difference.recall;
    expect(d.mean).toBeCloseTo(r.b.recall - r.a.recall, 12);
    expect(d.ci95[0]).toBeLessThanOrEqual(d.mean);
    expect(d.ci95[1]).toBeGreaterThanOrEqual(d.mean);
    expect(r.verdict).toBe(d.pValue < 0.05 ? (d.mean > 0 ? 'b' : 'a') : 'none');
  }, 60_000);
});
