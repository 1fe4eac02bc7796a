/**
 * The LLM layer's own overhead (`npx tsx bench/llm.bench.ts`, also in `npm run bench`). No real model: the requests
 * go to the project's fake OpenAI-compatible server on loopback, so only the layer's mechanics are measured.
 *
 *   (a) contextual retrieval over 1,000 chunks of the 1 MiB corpus: a first run through the fake server (HTTP on
 *       loopback, concurrency 4), then the same run answered from the cache (in memory; a directory), the figure
 *       the target is about (redraw within 100 ms), with the base chunking's own time beside it.
 *   (b) alignment of 1,000 propositions against the 1 MiB corpus, each within its ~2,000-character passage: 400
 *       verbatim sentences, 300 changed in case and spacing (normalised), 200 with words dropped and reordered
 *       (fuzzy), 100 invented (unsupported: their verbatim search also scans the whole megabyte). Target < 1 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunk } from '../src/core/index';
import { alignProposition } from '../src/core/llm/align';
import { MemoryCache } from '../src/core/llm/cache';
import { runLlmFeature } from '../src/core/llm/run';
import { DirectoryCache } from '../src/node/llmCache';
import { startFakeLlmServer } from '../src/testing/fakeLlmServer';
import { HAVE_SHARED_CORPUS, readSharedCorpus, SHARED_CORPUS_PATH } from '../src/testing/sharedData';

const ms = (t: number) => `${t.toFixed(1)} ms`;

async function cacheHits(corpus: string): Promise<void> {
  // About 1,000 chunks: recursive at 1,000 characters over the first ~950 KB.
  const text = corpus.slice(0, 950_000);
  const options = { strategy: 'recursive', size: 1000, overlap: 0 } as const;
  const server = await startFakeLlmServer();
  const dir = mkdtempSync(join(tmpdir(), 'chunkscope-llm-bench-'));
  try {
    let t = performance.now();
    const base = await chunk(text, options);
    const baseMs = performance.now() - t;
    const memory = new MemoryCache();
    const disk = new DirectoryCache(dir);
    const settings = { contextBudget: 8_000 };
    const llm = (cache: MemoryCache | DirectoryCache) => ({ feature: 'contextual', baseUrl: server.baseUrl, model: 'fake-1', cache, settings });
    t = performance.now();
    const first = await runLlmFeature(text, options, llm(memory));
    const firstMs = performance.now() - t;
    await runLlmFeature(text, options, llm(disk));
    const hits: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      const again = await runLlmFeature(text, options, llm(memory));
      hits.push(performance.now() - t);
      if (again.report.sent !== 0) throw new Error('a cached run sent requests');
    }
    const diskHits: number[] = [];
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      await runLlmFeature(text, options, llm(disk));
      diskHits.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`(a) contextual over ${base.length} chunks (${(text.length / 1e6).toFixed(2)} MB, recursive 1000 chars):`);
    console.log(`    base chunking alone                         ${ms(baseMs)}`);
    console.log(`    first run, fake server on loopback          ${ms(firstMs)}  (${first.report.sent} requests, concurrency 4)`);
    console.log(`    all cache hits, in memory (median of 5)     ${ms(median(hits))}  (of which the layer: ~${ms(median(hits) - baseMs)})`);
    console.log(`    all cache hits, a directory (median of 3)   ${ms(median(diskHits))}`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function alignment(corpus: string): void {
  const sentences = corpus.match(/[A-Z][^.!?\n]{40,200}[.!?]/g) ?? [];
  const step = Math.floor(sentences.length / 1000);
  const cases: { proposition: string; passage: { start: number; end: number }; kind: string }[] = [];
  let searchFrom = 0;
  for (let i = 0; i < 1000; i++) {
    const sentence = sentences[i * step]!;
    const at = corpus.indexOf(sentence, searchFrom);
    searchFrom = at;
    const passage = { start: Math.max(0, at - 1000), end: Math.min(corpus.length, at + sentence.length + 1000) };
    let proposition = sentence;
    let kind = 'verbatim';
    if (i % 10 >= 4 && i % 10 < 7) {
      proposition = sentence.toLowerCase().replace(/ /g, '  ');
      kind = 'normalised';
    } else if (i % 10 >= 7 && i % 10 < 9) {
      const words = sentence.split(' ');
      proposition = [...words.slice(Math.ceil(words.length / 2)), ...words.slice(1, Math.ceil(words.length / 2))].join(' ');
      kind = 'reordered';
    } else if (i % 10 === 9) {
      proposition = `Zorblax quintessence ${i} hovers over the violet marmalade.`;
      kind = 'invented';
    }
    cases.push({ proposition, passage, kind });
  }
  for (const c of cases.slice(0, 20)) alignProposition(corpus, c.proposition, c.passage); // warm up
  const t = performance.now();
  const results = cases.map((c) => alignProposition(corpus, c.proposition, c.passage));
  const total = performance.now() - t;
  const byKind = new Map<string, Record<string, number>>();
  cases.forEach((c, i) => {
    const row = byKind.get(c.kind) ?? {};
    row[results[i]!.status] = (row[results[i]!.status] ?? 0) + 1;
    byKind.set(c.kind, row);
  });
  console.log(`(b) alignment of 1,000 propositions against ${(corpus.length / 1e6).toFixed(2)} MB: ${ms(total)} (target < 1000 ms)`);
  for (const [kind, row] of byKind) console.log(`    ${kind.padEnd(11)} ${JSON.stringify(row)}`);
}

async function main(): Promise<void> {
  if (!HAVE_SHARED_CORPUS) {
    console.log(`llm bench: skipped, ${SHARED_CORPUS_PATH} is absent`);
    return;
  }
  const corpus = readSharedCorpus();
  console.log('llm bench (no real model: the fake OpenAI-compatible server on loopback)');
  await cacheHits(corpus);
  alignment(corpus);
}

await main();
