/**
 * Compat mode `chonkie` against @chonkiejs/core 0.0.11 itself, side by side on ../shared/corpus/english-1mib.txt
 * (or the file given): RecursiveChunker, TokenChunker and SentenceChunker at Chonkie's defaults, characters and
 * cl100k_base. Prints each side's time, the ratio, and whether the chunk texts are identical. Not a timed test.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { compatChunks, referenceChunker, type ChonkieCase } from '../src/core/compat/chonkie/fixtures/harness';

const file = process.argv[2] ?? '../shared/corpus/english-1mib.txt';
const whole = readFileSync(file, 'utf8');

/** [name, case, UTF-16 units of the text used (default: all)]. The package's TokenChunker rebuilds the text's
 * prefix for every window (quadratic: 244 s on the whole MiB here), so that case runs on the first 256 Ki. */
const CASES: [string, ChonkieCase, number?][] = [
  ['RecursiveChunker 512 chars', { strategy: 'recursive' }],
  ['RecursiveChunker 512 cl100k', { strategy: 'recursive', unit: 'cl100k_base' }],
  ['TokenChunker 512/0 chars', { strategy: 'token' }, 256 * 1024],
  ['TokenChunker 512/64 cl100k', { strategy: 'token', unit: 'cl100k_base', size: 512, overlap: 64 }],
  ['SentenceChunker 2048/0 chars', { strategy: 'sentence' }],
  ['SentenceChunker 512/64 cl100k', { strategy: 'sentence', unit: 'cl100k_base', size: 512, overlap: 64 }],
];

async function time<T>(f: () => Promise<T>, runs: number): Promise<{ ms: number; value: T }> {
  let best = Infinity;
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await f();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, value };
}

console.log(`chonkie compat vs @chonkiejs/core 0.0.11 on ${file} (${(whole.length / 1024).toFixed(0)} Ki UTF-16 units); best of runs`);
for (const [name, c, length] of CASES) {
  const text = length === undefined ? whole : whole.slice(0, length);
  // Warm both sides (WASM init, rank loading, JIT) on a small piece first.
  const chunker = await referenceChunker(c);
  await chunker.chunk(text.slice(0, 10_000));
  await compatChunks(text.slice(0, 10_000), c);
  const ref = await time(async () => (await chunker.chunk(text)).map((x) => x.text), 1);
  const ours = await time(async () => (await compatChunks(text, c)).map((x) => x.content), 3);
  const same = ref.value.length === ours.value.length && ref.value.every((t, i) => t === ours.value[i]);
  const ratio = ref.ms / ours.ms;
  console.log(
    `${(name + (length === undefined ? '' : ` (first ${length / 1024} Ki)`)).padEnd(44)} chonkie ${ref.ms.toFixed(0).padStart(7)} ms   compat ${ours.ms.toFixed(0).padStart(6)} ms   ${ratio >= 1 ? `${ratio.toFixed(1)}x faster` : `${(1 / ratio).toFixed(1)}x slower`}   ${ours.value.length} chunks, ${same ? 'identical' : 'DIFFERENT'}`,
  );
}
