/**
 * One measured case of bench/scale.bench.ts, run in its own process so its peak memory is its own:
 *   node --expose-gc --import tsx bench/scale-case.ts '<json>'
 * where json = { input, mib, strategy, unit, size, overlap, side } (side: chunkscope | langchain | chonkie). Prints one
 * JSON line: { ms, chunks, peakMiB (max RSS over the RSS before the run), heapMiB (heap used after, before a collection) }.
 * Module loading, the text and the token ranks are in place before the baseline is taken; the run itself starts
 * on a new document with empty caches.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChunkOptions, StrategyName, UnitName } from '../src/core/types';

export type InputName = 'english' | 'markdown' | 'nospace' | 'emoji' | 'blank-lines' | 'one-word';

export interface Case {
  input: InputName;
  mib: number;
  strategy: StrategyName;
  unit: UnitName;
  size: number;
  overlap: number;
  side: 'chunkscope' | 'langchain' | 'chonkie';
}

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');

/** The inputs of issue 10: ordinary English, its markdown form, and four pathological texts, `mib` MiB long. */
export function makeInput(input: InputName, mib: number): string {
  const length = Math.round(mib * 1024 * 1024);
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  switch (input) {
    case 'english':
      return fill(readFileSync(CORPUS, 'utf8') + '\n\n');
    case 'markdown': {
      // The corpus with a chapter heading every 40 paragraphs and a section every 8 (as bench/structure does).
      const paragraphs = readFileSync(CORPUS, 'utf8').split(/\n\s*\n/);
      let out = '';
      let i = 0;
      while (out.length < length) {
        const p = paragraphs[i % paragraphs.length]!;
        if (i % 40 === 0) out += `# Chapter ${i / 40 + 1}\n\n`;
        else if (i % 8 === 0) out += `## Section ${i}\n\n`;
        out += p + '\n\n';
        i++;
      }
      return out.slice(0, length);
    }
    case 'nospace': {
      // One line of letters with no space: a single pre-token piece for BPE.
      let x = 12345;
      let out = '';
      const block: string[] = [];
      for (let i = 0; i < 4096; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        block.push(String.fromCharCode(97 + ((x >>> 8) % 26)));
      }
      const b = block.join('');
      while (out.length < length) out += b;
      return out.slice(0, length);
    }
    case 'emoji':
      return fill('😀');
    case 'blank-lines':
      return fill('\n');
    case 'one-word':
      return fill('lorem ');
  }
}

async function main(): Promise<void> {
  const c = JSON.parse(process.argv[2]!) as Case;
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const text = makeInput(c.input, c.mib);
  // Semantic chunks have no size (its own breakpoints decide them).
  const options: ChunkOptions = c.strategy === 'semantic' ? { strategy: c.strategy, unit: c.unit } : { strategy: c.strategy, unit: c.unit, size: c.size, overlap: c.overlap };
  let run: () => Promise<number>;
  if (c.side === 'chunkscope') {
    const { chunk } = await import('../src/core/index');
    const { getUnit } = await import('../src/core/units');
    await getUnit(c.unit);
    const hooks: Parameters<typeof chunk>[2] = {};
    if (c.strategy === 'semantic') {
      const { createEmbedder } = await import('../src/embed/index');
      const embedder = await createEmbedder({ model: 'builtin' });
      hooks.embed = (texts) => embedder.embed(texts);
    }
    // Warm the code paths on a small other text, so the figure is the document's cost, not compilation's.
    await chunk(makeInput(c.input, 1 / 64) + ' warm', options, hooks);
    run = async () => (await chunk(text, options, hooks)).length;
  } else if (c.side === 'langchain') {
    const { RecursiveCharacterTextSplitter, TokenTextSplitter } = await import('@langchain/textsplitters');
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
    const encoder = new Tiktoken(ranks);
    if (c.strategy === 'token') {
      const splitter = new TokenTextSplitter({ chunkSize: c.size, chunkOverlap: c.overlap, encodingName: 'cl100k_base' });
      // TokenTextSplitter would download its ranks; hand it the bundled ones.
      (splitter as unknown as { tokenizer: unknown }).tokenizer = encoder;
      run = async () => (await splitter.splitText(text)).length;
    } else {
      const lengthFunction = c.unit === 'chars' ? undefined : (t: string) => encoder.encode(t, [], []).length;
      const splitter = new RecursiveCharacterTextSplitter({ chunkSize: c.size, chunkOverlap: c.overlap, ...(lengthFunction ? { lengthFunction } : {}) });
      run = async () => (await splitter.splitText(text)).length;
    }
  } else {
    const { RecursiveChunker, SentenceChunker, TokenChunker } = await import('@chonkiejs/core');
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
    const encoder = new Tiktoken(ranks);
    const tokenizer =
      c.unit === 'chars'
        ? 'character'
        : {
            countTokens: (t: string) => encoder.encode(t, [], []).length,
            encode: (t: string) => encoder.encode(t, [], []),
            decode: (ids: number[]) => encoder.decode(ids),
            decodeBatch: (b: number[][]) => b.map((ids) => encoder.decode(ids)),
          };
    const fields = { chunkSize: c.size, tokenizer, ...(c.strategy === 'recursive' ? {} : { chunkOverlap: c.overlap }) } as never;
    const chunker =
      c.strategy === 'recursive' ? await RecursiveChunker.create(fields) : c.strategy === 'sentence' ? await SentenceChunker.create(fields) : await TokenChunker.create(fields);
    run = async () => (await chunker.chunk(text)).length;
  }
  gc();
  const before = process.memoryUsage().rss;
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const t0 = performance.now();
  const chunks = await run();
  const ms = performance.now() - t0;
  const heapMiB = process.memoryUsage().heapUsed / 2 ** 20;
  const peakAfter = process.resourceUsage().maxRSS * 1024;
  // If the run never exceeded the process's earlier peak, its own peak is at most this figure.
  const peakMiB = (peakAfter - before) / 2 ** 20;
  console.log(JSON.stringify({ ms, chunks, peakMiB, heapMiB, peakIsBound: peakAfter === peakBefore }));
}

// Only as the entry script (scale.bench.ts and others import makeInput).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
