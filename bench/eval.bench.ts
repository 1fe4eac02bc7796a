/**
 * Evaluation benchmark (`npm run bench`): `chunkscope eval` and `sweep` with BM25 on ~1.5 MB. Prints figures; not a
 * timed test (exits non-zero only when the state_of_the_union figures differ from the reference's).
 *
 *   corpus   ../shared/eval's state_of_the_union speech (48 KB) copied 31 times as 31 documents (1.49 MB), and its 76
 *            questions repeated to 472 (Chroma's question count), each naming one copy by corpus_id.
 *   (a) `chunkscope eval` cold: a fresh Node process on a bundle of the CLI (built here with esbuild), reading the
 *       files, chunking (recursive, 512 chars / 64), indexing and answering 472 questions. Target < 2 s.
 *   (b) the same in process (what the page's worker pays), and with Chroma's setup (400 cl100k tokens / 0, LangChain).
 *   (c) a 24-configuration sweep (size 128..1024 × overlap 0..96, characters) in process. Target <= 10 s.
 *   (d) state_of_the_union alone with BM25 at recursive 400 tokens / 0, cl100k, Chroma's separators, LangChain compat,
 *       k 5: the means (the reference's plain Okapi BM25 gives recall 0.961, IoU 0.0207).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './cliBundle';
import { evaluate, sweep, sweepGrid, parseGoldenSet, formatGoldenSet } from '../src/core/index';
import type { ChunkOptions, GoldenQuestion } from '../src/core/index';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const shared = resolve(root, '..', 'shared', 'eval');
const speech = readFileSync(join(shared, 'state_of_the_union.md'), 'utf8');
const base = parseGoldenSet(readFileSync(join(shared, 'state_of_the_union.questions.csv'), 'utf8'));

const COPIES = 31;
const QUESTIONS = 472;
const docs = Array.from({ length: COPIES }, (_, i) => ({ id: `sotu-${String(i + 1).padStart(2, '0')}.md`, text: speech }));
const questions: GoldenQuestion[] = Array.from({ length: QUESTIONS }, (_, j) => ({ ...base[j % base.length]!, corpusId: `sotu-${String((j % COPIES) + 1).padStart(2, '0')}` }));
const mb = (docs.length * speech.length) / 1e6;

const CHROMA = { strategy: 'recursive', size: 400, overlap: 0, unit: 'cl100k_base', compat: 'langchain', separators: ['\n\n', '\n', '.', '?', '!', ' ', ''] } satisfies ChunkOptions;

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function main(): Promise<void> {
  console.log(`eval benchmark: ${docs.length} documents, ${mb.toFixed(2)} MB, ${questions.length} questions, BM25`);
  const work = mkdtempSync(join(tmpdir(), 'chunkscope-eval-bench-'));
  mkdirSync(join(work, 'corpus'));
  for (const d of docs) writeFileSync(join(work, 'corpus', d.id), d.text);
  writeFileSync(join(work, 'questions.csv'), formatGoldenSet(questions, 'csv'));

  // (a) cold CLI: bundled like scripts/build-lib.mjs (inside node_modules/.cache, so its externals resolve), then fresh processes.
  const run = await bundleCli(root, 'chunkscope-eval-bench', { stderr: true });
  const chromaFlags = ['--size', '400', '--overlap', '0', '--unit', 'cl100k_base', '--compat', 'langchain', ...CHROMA.separators.flatMap((s) => ['--separators', s.replace(/\n/g, '\\n')])];
  for (const [label, flags] of [
    ["Chroma's recursive 400 cl100k / 0, LangChain", chromaFlags],
    ['recursive 512 chars / 64 (plus loading cl100k for the embedding-token count)', []],
  ] as const) {
    const coldRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [run, 'eval', join(work, 'corpus'), '--questions', join(work, 'questions.csv'), ...flags], { encoding: 'utf8' });
      coldRuns.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`chunkscope eval failed: ${r.stderr}`);
    }
    console.log(`(a) chunkscope eval, cold process, ${label}: ${coldRuns.map(fmt).join(', ')} (target < 2000 ms)`);
  }

  // (b) in process
  for (const [label, options] of [
    ['recursive 512 chars / 64', {}],
    ["Chroma's recursive 400 cl100k / 0, LangChain", CHROMA],
  ] as const) {
    const t0 = performance.now();
    const r = await evaluate(docs, questions, options);
    const ms = performance.now() - t0;
    console.log(
      `(b) evaluate in process, ${label}: ${fmt(ms)} (chunk ${fmt(r.timings.chunkMs)}, index ${fmt(r.timings.indexMs)}, 472 questions ${fmt(r.timings.searchMs)}); ` +
        `${r.index.chunks} chunks, recall ${r.means.recall.toFixed(3)}, IoU ${r.means.iou.toFixed(4)}`,
    );
  }

  // (c) sweep
  const grid = sweepGrid({ size: [128, 256, 384, 512, 768, 1024], overlap: [0, 32, 64, 96] });
  const t0 = performance.now();
  const rows = await sweep(docs, questions, grid);
  const sweepMs = performance.now() - t0;
  console.log(`(c) sweep of ${grid.length} configurations (size 128..1024 × overlap 0..96, chars), in process: ${fmt(sweepMs)} (target <= 10000 ms); ${rows.filter((r) => r.error).length} refused`);
  for (const r of rows.filter((_, i) => i % 4 === 0)) console.log(`      size ${r.values.size} overlap ${r.values.overlap}: recall ${r.means?.recall.toFixed(3)} IoU ${r.means?.iou.toFixed(4)} chunks ${r.index?.chunks} ${fmt(r.ms)}`);

  // (d) the reference figures
  const one = await evaluate([{ id: 'state_of_the_union.md', text: speech }], base, { ...CHROMA, retriever: 'bm25', chunksInContext: 5 });
  const m = one.means;
  console.log(
    `(d) state_of_the_union, BM25, recursive 400 cl100k / 0, LangChain, k 5: ${one.index.chunks} chunks; recall ${m.recall.toFixed(4)}, precision ${m.precision.toFixed(4)}, ` +
      `IoU ${m.iou.toFixed(4)}, precision-Ω ${m.precisionOmega.toFixed(4)}, hit@5 ${m.hit.toFixed(4)}, MRR ${m.reciprocalRank.toFixed(4)} ` +
      `(reference BM25: recall 0.961, IoU 0.0207; Chroma's table, text-embedding-3-large: recall 0.895, IoU 0.036)`,
  );
  if (Math.abs(m.recall - 0.961) > 0.001 || Math.abs(m.iou - 0.0207) > 0.0001) process.exitCode = 1;
}

await main();
