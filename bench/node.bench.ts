/**
 * Node benchmark (`npm run bench [file]`): Chunkscope's LangChain compat mode against @langchain/textsplitters,
 * side by side in one process on the same text. It prints figures and ratios; it is not a timed test and exits
 * non-zero only if the chunks differ from LangChain's.
 *
 *   (a) recursive, cl100k_base tokens, size 512, overlap 64. LangChain with a js-tiktoken length function; Chunkscope
 *       cold (first run on the document) and warm (re-run on the same document after a size change, as when a
 *       slider moves). Target: warm at least 20x faster.
 *   (b) the same with characters, size 1000, overlap 100. Target: at least 2x faster.
 *   (c) one js-tiktoken encode of the whole text, as the reference for what "one pass of BPE" costs.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { loadStrategy } from '../src/core/strategies';
import { chunk, getUnit, validateOptions } from '../src/core/index';
import type { Chunk, ChunkOptions } from '../src/core/types';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ? resolve(process.argv[2]) : resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');
const text = readFileSync(file, 'utf8');

// LangChain warns on every oversize chunk; that is console noise, not part of the measurement.
console.warn = () => {};

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

function sameChunks(ours: Chunk[], theirs: string[]): string | null {
  if (ours.length !== theirs.length) return `${ours.length} chunks vs LangChain's ${theirs.length}`;
  for (let i = 0; i < ours.length; i++) {
    if (ours[i]!.content !== theirs[i]) return `chunk ${i} differs`;
  }
  return null;
}

interface Row {
  name: string;
  langchainMs: number;
  coldMs: number;
  warmMs: number;
  /** The strategy's compat split alone, warm: the compat splitter without chunk()'s ids, sizes and objects. */
  splitMs: number;
  target: number;
  chunks: number;
  mismatch: string | null;
}

/**
 * One scenario. Order matters for honesty: Chunkscope's cold run comes first (nothing cached for this document),
 * then LangChain's runs, then Chunkscope's warm runs, each preceded by a run at another size (a slider move).
 */
async function scenario(
  name: string,
  options: ChunkOptions,
  reference: () => Promise<string[]>,
  langchainRuns: number,
  warmRuns: number,
  target: number,
): Promise<Row> {
  const size = options.size!;
  const cold = await time(() => chunk(text, options));
  const langchain: number[] = [];
  let theirs: string[] = [];
  for (let i = 0; i < langchainRuns; i++) {
    const r = await time(reference);
    langchain.push(r.ms);
    theirs = r.value;
  }
  const warm: number[] = [];
  let ours: Chunk[] = cold.value;
  for (let i = 0; i < warmRuns; i++) {
    await chunk(text, { ...options, size: size - 8 * (1 + (i % 3)) });
    const r = await time(() => chunk(text, options));
    warm.push(r.ms);
    ours = r.value;
  }
  const ctx = { unit: await getUnit(options.unit!), options: validateOptions(options) };
  const split: number[] = [];
  const strategy = await loadStrategy(ctx.options.strategy);
  for (let i = 0; i < warmRuns; i++) split.push((await time(async () => strategy.split(text, ctx))).ms);
  const mismatch = sameChunks(cold.value, theirs) ?? sameChunks(ours, theirs);
  return {
    name,
    langchainMs: median(langchain),
    coldMs: cold.ms,
    warmMs: median(warm),
    splitMs: median(split),
    target,
    chunks: theirs.length,
    mismatch,
  };
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

async function main(): Promise<void> {
  console.log(`Chunkscope Node benchmark: ${file}`);
  console.log(`${text.length.toLocaleString('en')} UTF-16 units, Node ${process.version}\n`);

  // Both sides start with their ranks loaded: "cold" is about a new document, not about loading the encoding.
  await getUnit('cl100k_base');

  // (c) The reference: one js-tiktoken encode of the whole text (a fresh encoder, as LangChain users build one).
  const encoder = new Tiktoken(cl100k);
  const encodes: number[] = [];
  let tokens = 0;
  for (let i = 0; i < 3; i++) {
    const r = await time(() => encoder.encode(text, [], []));
    encodes.push(r.ms);
    tokens = r.value.length;
  }

  const rows: Row[] = [];
  rows.push(
    await scenario(
      'recursive, cl100k_base, 512/64',
      { strategy: 'recursive', compat: 'langchain', unit: 'cl100k_base', size: 512, overlap: 64 },
      () =>
        new RecursiveCharacterTextSplitter({
          chunkSize: 512,
          chunkOverlap: 64,
          // Special-token strings count as text, as in Chunkscope's token units.
          lengthFunction: (t: string) => encoder.encode(t, [], []).length,
        }).splitText(text),
      3,
      7,
      20,
    ),
  );
  rows.push(
    await scenario(
      'recursive, chars, 1000/100',
      { strategy: 'recursive', compat: 'langchain', unit: 'chars', size: 1000, overlap: 100 },
      () => new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 100 }).splitText(text),
      15,
      15,
      2,
    ),
  );

  const header = [
    'scenario',
    'chunks',
    'LangChain ms',
    'ours cold ms',
    'ours warm ms',
    'cold ratio',
    'warm ratio',
    'target',
    'identical',
    'split-only warm ms',
  ];
  const lines = rows.map((r) => [
    r.name,
    String(r.chunks),
    fmt(r.langchainMs),
    fmt(r.coldMs),
    fmt(r.warmMs),
    `${(r.langchainMs / r.coldMs).toFixed(1)}x`,
    `${(r.langchainMs / r.warmMs).toFixed(1)}x`,
    `>= ${r.target}x ${r.langchainMs / r.warmMs >= r.target ? 'met' : 'MISSED'}`,
    r.mismatch ? `NO (${r.mismatch})` : 'yes',
    `${fmt(r.splitMs)} (${(r.langchainMs / r.splitMs).toFixed(1)}x)`,
  ]);
  lines.push([
    'js-tiktoken encode, whole text',
    `${tokens} tok`,
    fmt(median(encodes)),
    '',
    '',
    '',
    '',
    'reference',
    '',
    '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(row(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(row(l));
  console.log(
    [
      '',
      'Medians: LangChain over its runs; "warm" = chunk() re-run on the same document right after a run at another',
      'size (a slider move); "cold" = the first run on this document in this process (ranks already loaded on both',
      'sides, no counts cached yet). "split-only" times the compat splitter alone, without chunk()\'s ids, re-counted',
      'sizes and chunk objects. Both sides run here, now, on the same machine: the ratios hold even when the',
      'absolute times are noisy.',
    ].join('\n'),
  );
  if (rows.some((r) => r.mismatch)) {
    console.error('\nFAIL: compat chunks differ from LangChain\'s');
    process.exit(1);
  }
}

await main();
