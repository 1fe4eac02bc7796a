/**
 * Node benchmark (`npm run bench [file]`, or `npx tsx bench/node.bench.ts [file] [--quick]`): recursive chunking of
 * one document, Chunkscope native and LangChain-compat against @langchain/textsplitters and Chonkie
 * (@chonkiejs/core's RecursiveChunker; @chonkiejs/chunk's WASM byte scanner as the floor for characters), side by
 * side in one process, interleaved round by round, medians printed with ratios. Not a timed test; it exits
 * non-zero only if compat chunks differ from LangChain's.
 *
 * Three figures per Chunkscope mode, each on a document it has not seen before in this round:
 *   cold    a new document, nothing cached: the unit's per-piece token cache is empty (a fresh copy of the unit:
 *           what a newly started worker has; rank tables loaded, as on every side), and every per-document
 *           cache (pre-token table, span memo, tokens) is built inside the measured time;
 *   slider  right after that, the same document at a size not chunked before (what moving the size slider does);
 *   re-run  the same document and options again (memoized paths: the least work a request can cost).
 * LangChain and Chonkie keep nothing between calls, so their one figure per round stands for all three.
 *
 * Each round starts after a garbage collection when run with --expose-gc (npm run bench does), and the first
 * WARM_UP_ROUNDS rounds, not counted, warm every side up: V8 needs several calls on a megabyte before its optimizing
 * tiers settle (a first call of the native packer took 40-60 ms, the tenth 3 ms), and a page's worker has chunked
 * the sample and earlier documents before the one measured. "Cold" is about the document, not the JIT.
 *
 * Also: one pass of each tokenizer over the whole text (ours with an empty cache, js-tiktoken), and the token
 * strategy cold against that pass (target: within 1.2x).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecursiveChunker } from '@chonkiejs/core';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { buildChunks, loadStrategy, validateOptions } from '../src/core/index';
import type { Chunk, ChunkOptions, Unit } from '../src/core/types';
import { charsUnit } from '../src/core/units';
import { loadTiktokenUnit, type TiktokenUnit } from '../src/core/units/tiktoken';

// @chonkiejs/chunk ships no types at its root; its two functions used here, as its README documents them.
const chonkieChunk = (await import('@chonkiejs/chunk' as string)) as {
  init(): Promise<void>;
  chunk_offsets(text: string, options: { size: number }): [number, number][];
};
const initChunkWasm = chonkieChunk.init;
const chunkOffsets = chonkieChunk.chunk_offsets;

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** --only chars | tokens | passes: one part of the benchmark. */
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const fileArg = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--only');
const file = fileArg ? resolve(fileArg) : resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');
const base = readFileSync(file, 'utf8');

// LangChain warns on every oversize chunk; that is console noise, not part of the measurement.
console.warn = () => {};

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** With --expose-gc, every round starts on a collected heap, so garbage from earlier rounds is not charged to it. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** chunk() for one unit object (chunk() itself resolves units by name, which would share their caches). */
async function chunkWith(text: string, options: ChunkOptions, unit: Unit): Promise<Chunk[]> {
  const resolved = validateOptions(options);
  const strategy = await loadStrategy(resolved.strategy);
  const spans = await strategy.split(text, { unit, options: resolved });
  return buildChunks(text, spans, resolved, unit);
}

/** Uncounted rounds before the measured ones, on every side alike. */
const WARM_UP_ROUNDS = quick ? 1 : 4;

/** A document no cache has seen: the text with a line naming the round in front. */
const documentFor = (round: number, tag: string) => `${tag} ${round}\n${base}`;

interface Contender {
  name: string;
  /** Chunkscope modes are measured three ways; the others once per round. */
  kind: 'chunkscope' | 'reference';
  run(text: string, size: number, round: number): Promise<string[]>;
}

interface Scenario {
  name: string;
  size: number;
  overlap: number;
  rounds: number;
  contenders: Contender[];
  /** Which contender's chunks must equal which (compat vs LangChain). */
  identical?: [string, string];
}

async function main(): Promise<void> {
  console.log(`Chunkscope Node benchmark: ${file}`);
  console.log(`${base.length.toLocaleString('en')} UTF-16 units, Node ${process.version}${quick ? ', --quick' : ''}\n`);

  const cl100kUnit = await loadTiktokenUnit('cl100k_base');
  const encoder = new Tiktoken(cl100k); // LangChain's and Chonkie's length function, built once, as users do
  await initChunkWasm();
  const freshUnits = new Map<number, TiktokenUnit>();
  const unitForRound = (round: number): TiktokenUnit => {
    let u = freshUnits.get(round);
    if (!u) {
      u = cl100kUnit.withEmptyCaches();
      freshUnits.set(round, u);
    }
    return u;
  };

  const chunkscope = (name: string, options: ChunkOptions, tokens: boolean): Contender => ({
    name,
    kind: 'chunkscope',
    run: async (text, size, round) =>
      (await chunkWith(text, { ...options, size }, tokens ? unitForRound(round) : charsUnit)).map((c) => c.content),
  });
  const tokenLength = (t: string) => encoder.encode(t, [], []).length;
  const chonkieTokenizer = {
    countTokens: tokenLength,
    encode: (t: string) => encoder.encode(t, [], []),
    decode: (ids: number[]) => encoder.decode(ids),
    decodeBatch: (batch: number[][]) => batch.map((ids) => encoder.decode(ids)),
  };

  const scenarios: Scenario[] = [
    {
      name: 'recursive, characters, 1000 / 100',
      size: 1000,
      overlap: 100,
      rounds: quick ? 3 : 9,
      identical: ['Chunkscope compat langchain', 'LangChain RecursiveCharacterTextSplitter'],
      contenders: [
        chunkscope('Chunkscope native', { strategy: 'recursive', unit: 'chars', overlap: 100 }, false),
        chunkscope('Chunkscope compat langchain', { strategy: 'recursive', compat: 'langchain', unit: 'chars', overlap: 100 }, false),
        {
          name: 'LangChain RecursiveCharacterTextSplitter',
          kind: 'reference',
          run: (text, size) => new RecursiveCharacterTextSplitter({ chunkSize: size, chunkOverlap: 100 }).splitText(text),
        },
        {
          name: 'Chonkie RecursiveChunker (no overlap)',
          kind: 'reference',
          run: async (text, size) => (await (await RecursiveChunker.create({ chunkSize: size, tokenizer: 'character' } as never)).chunk(text)).map((c) => c.text),
        },
        {
          name: '@chonkiejs/chunk WASM scanner (floor)',
          kind: 'reference',
          run: async (text, size) => {
            const out: string[] = [];
            for (const [s, e] of chunkOffsets(text, { size })) out.push(String(e - s));
            return out;
          },
        },
      ],
    },
    {
      name: 'recursive, cl100k_base, 512 / 64',
      size: 512,
      overlap: 64,
      rounds: quick ? 2 : 5,
      identical: ['Chunkscope compat langchain', 'LangChain RecursiveCharacterTextSplitter'],
      contenders: [
        chunkscope('Chunkscope native', { strategy: 'recursive', unit: 'cl100k_base', overlap: 64 }, true),
        chunkscope('Chunkscope compat langchain', { strategy: 'recursive', compat: 'langchain', unit: 'cl100k_base', overlap: 64 }, true),
        {
          name: 'LangChain RecursiveCharacterTextSplitter',
          kind: 'reference',
          // Special-token strings count as text, as in Chunkscope's token units.
          run: (text, size) => new RecursiveCharacterTextSplitter({ chunkSize: size, chunkOverlap: 64, lengthFunction: tokenLength }).splitText(text),
        },
        {
          name: 'Chonkie RecursiveChunker (no overlap)',
          kind: 'reference',
          run: async (text, size) => (await (await RecursiveChunker.create({ chunkSize: size, tokenizer: chonkieTokenizer } as never)).chunk(text)).map((c) => c.text),
        },
      ],
    },
  ];

  let failed = false;
  for (const scenario of scenarios) {
    if (only && only !== (scenario.name.includes('characters') ? 'chars' : 'tokens')) continue;
    const results = new Map<string, { cold: number[]; slider: number[]; rerun: number[]; chunks: number }>();
    for (const c of scenario.contenders) results.set(c.name, { cold: [], slider: [], rerun: [], chunks: 0 });
    const outputs = new Map<string, string[]>();
    // Rounds below 0 warm every side up (the JIT tiers code up over several calls) and are not counted.
    for (let round = -WARM_UP_ROUNDS; round < scenario.rounds; round++) {
      if (round < 0) {
        for (const c of scenario.contenders) {
          const text = documentFor(round, `${scenario.size} ${c.name}`);
          await c.run(text, scenario.size, round);
          if (c.kind === 'chunkscope') await c.run(text, scenario.size - 3, round);
        }
        freshUnits.clear();
        continue;
      }
      collect();
      // Rotate the order so no side always runs first (or right after the garbage of another).
      const order = scenario.contenders.map((_, i) => scenario.contenders[(i + round) % scenario.contenders.length]!);
      for (const c of order) {
        const r = results.get(c.name)!;
        const text = documentFor(round, `${scenario.size} ${c.name}`);
        if (c.kind === 'reference') {
          const t = await time(() => c.run(text, scenario.size, round));
          r.cold.push(t.ms);
          r.chunks = t.value.length;
          if (round === 0) outputs.set(c.name, t.value);
          continue;
        }
        const cold = await time(() => c.run(text, scenario.size, round));
        r.cold.push(cold.ms);
        r.chunks = cold.value.length;
        if (round === 0) outputs.set(c.name, cold.value);
        // A size this document was never chunked at: 7, 14, 21 ... below the setting.
        const moved = scenario.size - 7 * (round + 1);
        r.slider.push((await time(() => c.run(text, moved, round))).ms);
        r.rerun.push((await time(() => c.run(text, moved, round))).ms);
      }
      freshUnits.clear();
    }

    let mismatch = '';
    if (scenario.identical) {
      const [a, b] = scenario.identical;
      const x = outputs.get(a)!;
      const y = outputs.get(b)!;
      // The documents differ by their first line (the round tag); compare from the second chunk on and the counts.
      if (x.length !== y.length) mismatch = `${x.length} chunks vs ${y.length}`;
      else for (let i = 1; i < x.length && !mismatch; i++) if (x[i] !== y[i]) mismatch = `chunk ${i} differs`;
    }

    const langchain = median(results.get('LangChain RecursiveCharacterTextSplitter')!.cold);
    console.log(`${scenario.name} (${scenario.rounds} rounds; medians in ms; ratio = LangChain's time / this one)`);
    const header = ['', 'chunks', 'cold', 'x LC', 'slider', 'x LC', 're-run', 'x LC'];
    const rows = scenario.contenders.map((c) => {
      const r = results.get(c.name)!;
      const cold = median(r.cold);
      if (c.kind === 'reference') return [c.name, String(r.chunks), fmt(cold), ratio(langchain, cold), '', '', '', ''];
      const slider = median(r.slider);
      const rerun = median(r.rerun);
      return [c.name, String(r.chunks), fmt(cold), ratio(langchain, cold), fmt(slider), ratio(langchain, slider), fmt(rerun), ratio(langchain, rerun)];
    });
    printTable(header, rows);
    if (scenario.identical) console.log(`compat chunks identical to LangChain's: ${mismatch ? `NO (${mismatch})` : 'yes'}`);
    console.log('');
    if (mismatch) failed = true;
  }

  // One pass of each tokenizer, and the token strategy cold against ours.
  if (only && only !== 'passes') return;
  const passes: Record<string, number[]> = { ours: [], jsTiktoken: [], tokenCold: [] };
  let tokens = 0;
  for (let round = 0; round < (quick ? 2 : 5); round++) {
    const text = documentFor(round, 'pass');
    const fresh = cl100kUnit.withEmptyCaches();
    const a = await time(() => fresh.encode(text));
    passes.ours!.push(a.ms);
    tokens = a.value.length;
    passes.jsTiktoken!.push((await time(() => encoder.encode(text, [], []))).ms);
    const unit = cl100kUnit.withEmptyCaches();
    passes.tokenCold!.push((await time(() => chunkWith(text, { strategy: 'token', unit: 'cl100k_base', size: 512, overlap: 64 }, unit))).ms);
  }
  const ours = median(passes.ours!);
  console.log(`tokenizer passes over the whole text (${tokens.toLocaleString('en')} cl100k tokens; empty caches; medians in ms)`);
  printTable(
    ['', 'ms', 'vs ours'],
    [
      ['Chunkscope BytePairEncoder (units/bpe.ts), one encode', fmt(ours), '1.00x'],
      ['js-tiktoken 1.0.21 encode', fmt(median(passes.jsTiktoken!)), `${(median(passes.jsTiktoken!) / ours).toFixed(2)}x`],
      ['token strategy 512 / 64, cold (target <= 1.2x)', fmt(median(passes.tokenCold!)), `${(median(passes.tokenCold!) / ours).toFixed(2)}x`],
    ],
  );
  console.log(
    [
      '',
      'cold = a new document and an empty token cache, every per-document table built inside the time; slider = the',
      'same document at a size not chunked before; re-run = the same document and options again (memoized). LangChain',
      'and Chonkie cache nothing between calls: their one figure is what every request costs them. All sides run',
      'here, interleaved, on the same machine: the ratios hold even when absolute times are noisy.',
    ].join('\n'),
  );
  if (failed) {
    console.error("\nFAIL: compat chunks differ from LangChain's");
    process.exit(1);
  }
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function ratio(reference: number, ms: number): string {
  return `${(reference / ms).toFixed(1)}x`;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((l) => l[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

await main();
