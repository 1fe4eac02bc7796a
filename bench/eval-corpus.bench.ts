/**
 * Corpus evaluation and comparison benchmark (`npm run bench`; CHUNKSCOPE_BENCH_ONLY=eval-corpus runs it alone).
 * Prints figures and ratios measured side by side in one run; not a timed test.
 *
 *   corpus   five documents shaped like chunking_evaluation's general set (chatlogs, finance, pubmed,
 *            state_of_the_union, wikitexts): ../shared/eval's speech copied 1, 13, 10, 1 and 12 times (1.8 MB in
 *            all), and its 76 questions spread to 472 (76 on state_of_the_union, 99 on each other document, each
 *            pointing into one copy), plus 12 questions naming a corpus that is not open (set aside).
 *   (a) `chunkscope eval <dir>` cold, BM25, Chroma's setup (recursive 400 cl100k / 0, LangChain): a fresh Node process
 *       on a bundle of the CLI: read, chunk, index, answer, per-document means and spread, rank metrics, recall@1..20,
 *       explanations. Target < 2 s.
 *   (b) `chunkscope compare` cold (A: 400 tokens, B: 200 tokens, 1,000 bootstrap resamples) against two cold evals
 *       of A and B: what the comparison adds. Target < 0.5 s. And the significance step alone, in process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './cliBundle';
import { compareQuestionResults, evaluate, formatGoldenSet, parseGoldenSet, type GoldenQuestion } from '../src/core/eval/index';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const shared = resolve(root, '..', 'shared', 'eval');
const speech = readFileSync(join(shared, 'state_of_the_union.md'), 'utf8');
const base = parseGoldenSet(readFileSync(join(shared, 'state_of_the_union.questions.csv'), 'utf8'));

const SHAPE: [string, number, number][] = [
  ['chatlogs.md', 1, 99],
  ['finance.md', 13, 99],
  ['pubmed.md', 10, 99],
  ['state_of_the_union.md', 1, 76],
  ['wikitexts.md', 12, 99],
];
const JOIN = '\n\n';
const docs = SHAPE.map(([id, copies]) => ({ id, text: Array.from({ length: copies }, () => speech).join(JOIN) }));
const questions: GoldenQuestion[] = SHAPE.flatMap(([id, copies, count]) =>
  Array.from({ length: count }, (_, j) => {
    const q = base[j % base.length]!;
    const shift = (j % copies) * (speech.length + JOIN.length);
    return { question: q.question, references: q.references.map((r) => ({ ...r, start: r.start + shift, end: r.end + shift })), corpusId: id.replace(/\.md$/, '') };
  }),
);
const foreign: GoldenQuestion[] = Array.from({ length: 12 }, (_, i) => ({ question: `q${i}`, references: [{ start: 0, end: 1, content: 'x' }], corpusId: 'not-open' }));

const CHROMA_FLAGS = ['--size', '400', '--overlap', '0', '--unit', 'cl100k_base', '--compat', 'langchain', '--k', '5'];
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;


function cold(run: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [run, ...args], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`chunkscope ${args[0]} failed (${r.status}): ${r.stderr}`);
  return ms;
}

async function main(): Promise<void> {
  const mb = docs.reduce((n, d) => n + d.text.length, 0) / 1e6;
  console.log(`eval-corpus benchmark: ${docs.length} documents, ${mb.toFixed(2)} MB, ${questions.length} questions (+${foreign.length} naming a corpus not open), BM25`);
  const work = mkdtempSync(join(tmpdir(), 'chunkscope-eval-corpus-bench-'));
  mkdirSync(join(work, 'corpus'));
  for (const d of docs) writeFileSync(join(work, 'corpus', d.id), d.text);
  writeFileSync(join(work, 'corpus', 'LICENSE'), 'not a document');
  const qs = join(work, 'questions.csv');
  writeFileSync(qs, formatGoldenSet([...questions, ...foreign], 'csv'));
  const run = await bundleCli(root, 'chunkscope-eval-corpus-bench');
  const dir = join(work, 'corpus');

  const RUNS = 3;
  const evalA: number[] = [];
  const evalB: number[] = [];
  const compare: number[] = [];
  // Interleaved, so a load spike on this shared machine hits all three alike.
  for (let i = 0; i < RUNS; i++) {
    evalA.push(cold(run, ['eval', dir, '--questions', qs, ...CHROMA_FLAGS]));
    evalB.push(cold(run, ['eval', dir, '--questions', qs, ...CHROMA_FLAGS, '--size', '200']));
    compare.push(cold(run, ['compare', dir, '--questions', qs, ...CHROMA_FLAGS, '--a', '--size 400', '--b', '--size 200', '--resamples', '1000']));
  }
  console.log(`(a) chunkscope eval, cold process, recursive 400 cl100k / 0, LangChain, k 5: ${evalA.map(fmt).join(', ')} (median ${fmt(median(evalA))}; target < 2000 ms)`);
  const added = median(compare) - median(evalA) - median(evalB);
  console.log(
    `(b) chunkscope compare 400 vs 200 tokens, 1,000 resamples, cold: ${compare.map(fmt).join(', ')} (median ${fmt(median(compare))}); ` +
      `eval of 200 tokens alone: median ${fmt(median(evalB))}; compare − (eval A + eval B) = ${fmt(added)} ` +
      `(one process start, reading and anchoring saved, the significance added; target < 500 ms)`,
  );

  // The significance step alone (the same questions, in process).
  const options = { strategy: 'recursive', size: 400, overlap: 0, unit: 'cl100k_base', compat: 'langchain', retriever: 'bm25', chunksInContext: 5 } as const;
  const a = await evaluate(docs, [...questions, ...foreign], options);
  const b = await evaluate(docs, [...questions, ...foreign], { ...options, size: 200 });
  const times: number[] = [];
  let verdict = '';
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const s = compareQuestionResults(a.questions, b.questions, { resamples: 1000 });
    times.push(performance.now() - t0);
    verdict = `${s.verdict} (recall ${s.difference.recall.mean.toFixed(4)}, CI ${s.difference.recall.ci95.map((x) => x.toFixed(4)).join('..')}, p ${s.difference.recall.pValue.toExponential(2)})`;
  }
  console.log(`    significance alone (8 metrics, ${a.measured} paired questions, 1,000 resamples, Wilcoxon): ${times.map(fmt).join(', ')}; verdict ${verdict}`);
  console.log(
    `    in process: evaluate A ${fmt(a.timings.chunkMs + a.timings.indexMs + a.timings.searchMs)} (chunk ${fmt(a.timings.chunkMs)}, index ${fmt(a.timings.indexMs)}, ${a.measured} questions ${fmt(a.timings.searchMs)}); ` +
      `pooled recall ${a.means.recall.toFixed(3)}, across documents ${a.spread.recall.mean.toFixed(3)} ± ${a.spread.recall.std.toFixed(3)}; NDCG ${a.rankMeans.ndcg.toFixed(3)}, MAP ${a.rankMeans.map.toFixed(3)}`,
  );
}

await main();
