/**
 * LlamaIndex benchmark (`npm run bench [file]`): compat mode `llamaindex` against @llamaindex/core's own splitters,
 * side by side in one process on the same text. It prints figures and ratios; it is not a timed test and exits
 * non-zero only if the chunks differ.
 *
 *   SentenceSplitter with its defaults (1024 / 200 cl100k tokens) on the whole file. The package's run on 1 MiB
 *   takes 60-94 s on these machines (its sentence tokenizer reverts every sentence against every placeholder of the
 *   paragraph, and splits with one alternation of all of them: quadratic in the longest paragraph), and it is
 *   measured on the whole file. `--quick` runs it on two prefixes instead and extrapolates with the growth exponent
 *   they show (t = a * n^k) — which UNDERESTIMATES it badly (9 s instead of 60 s here: the corpus's longest
 *   paragraph, 230 KB, dominates). Target: at least 100x faster with identical chunks.
 *   TokenTextSplitter (1024 / 20) and MarkdownNodeParser on the whole file, both sides measured.
 *   SentenceWindowNodeParser and HierarchicalNodeParser (on SentenceSplitter) on prefixes, both sides; ours on the
 *   whole file too.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MarkdownNodeParser, SentenceSplitter, SentenceWindowNodeParser, TokenTextSplitter } from '@llamaindex/core/node-parser';
import { Document } from '@llamaindex/core/schema';
import { chunk, getUnit } from '../src/core/index';
import type { Chunk, ChunkOptions } from '../src/core/types';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const full = !args.includes('--quick');
const fileArg = args.find((a) => !a.startsWith('--'));
const file = fileArg ? resolve(fileArg) : resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');
const text = readFileSync(file, 'utf8');
const SILENT = { log() {}, warn() {}, error() {} };

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

function differs(ours: Chunk[], theirs: string[]): string | null {
  if (ours.length !== theirs.length) return `${ours.length} chunks vs LlamaIndex's ${theirs.length}`;
  for (let i = 0; i < ours.length; i++) if (ours[i]!.content !== theirs[i]) return `chunk ${i} differs`;
  return null;
}

/** The first `bytes` characters of the text, cut at a line end. */
function prefix(chars: number): string {
  if (chars >= text.length) return text;
  const cut = text.lastIndexOf('\n', chars);
  return text.slice(0, cut > 0 ? cut + 1 : chars);
}

const fmt = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);
const kib = (s: string): string => `${(s.length / 1024).toFixed(0)} KiB`;
let failed = false;

console.log(`\nLlamaIndex compat (@llamaindex/core 0.6.23) on ${file} (${kib(text)}, ${text.length} UTF-16 units)`);

// The package loads its tokenizer (js-tiktoken cl100k_base) when it is imported; ours is loaded before timing too.
await getUnit('cl100k_base');
await chunk('Load the splitters. Two sentences.', { strategy: 'sentence', compat: 'llamaindex' });
await chunk('Load the splitters. Two sentences.', { strategy: 'token', compat: 'llamaindex' });
await chunk('# Load\nthe splitters.', { strategy: 'markdown', compat: 'llamaindex' });

// ---- SentenceSplitter, defaults
{
  const options: ChunkOptions = { strategy: 'sentence', compat: 'llamaindex' };
  const cold = await time(() => chunk(text, options));
  await chunk(text, { ...options, size: 900, overlap: 150 }); // a slider move
  const warm = await time(() => chunk(text, options));
  const reference = (t: string) => new SentenceSplitter({ logger: SILENT }).splitText(t);
  let theirsMs: number;
  let how: string;
  if (full) {
    const r = await time(() => reference(text));
    theirsMs = r.ms;
    how = 'measured on the whole file';
    const d = differs(cold.value, r.value);
    if (d) failed = true;
    console.log(`  SentenceSplitter: chunks ${d ?? `identical (${r.value.length})`} on the whole file`);
  } else {
    const small = prefix(64 * 1024);
    const large = prefix(192 * 1024);
    const points: { n: number; ms: number }[] = [];
    for (const part of [small, large]) {
      const r = await time(() => reference(part));
      const ours = await chunk(part, options);
      const d = differs(ours, r.value);
      if (d) failed = true;
      points.push({ n: part.length, ms: r.ms });
      console.log(`  SentenceSplitter on a ${kib(part)} prefix: LlamaIndex ${fmt(r.ms)}; chunks ${d ?? `identical (${r.value.length})`}`);
    }
    const [a, b] = points as [{ n: number; ms: number }, { n: number; ms: number }];
    const k = Math.log(b.ms / a.ms) / Math.log(b.n / a.n);
    theirsMs = b.ms * (text.length / b.n) ** k;
    how = `extrapolated from the ${kib(small)} and ${kib(large)} prefixes (time grows as n^${k.toFixed(2)} between them; an underestimate: run without --quick)`;
  }
  console.log(`  SentenceSplitter 1024/200 cl100k on ${kib(text)}: LlamaIndex ${fmt(theirsMs)} (${how})`);
  console.log(`    Chunkscope cold ${fmt(cold.ms)}  -> ${(theirsMs / cold.ms).toFixed(0)}x faster (first run on this document; target >= 100x)`);
  console.log(`    Chunkscope warm ${fmt(warm.ms)}  -> ${(theirsMs / warm.ms).toFixed(0)}x faster (same document, after a size change)`);
}

// ---- TokenTextSplitter and MarkdownNodeParser, whole file on both sides
for (const [name, options, reference] of [
  ['TokenTextSplitter 1024/20', { strategy: 'token', compat: 'llamaindex' }, (t: string) => new TokenTextSplitter({ logger: SILENT }).splitText(t)],
  [
    'MarkdownNodeParser',
    { strategy: 'markdown', compat: 'llamaindex' },
    (t: string) => new MarkdownNodeParser().getNodesFromDocuments([new Document({ text: t })]).map((n) => n.text),
  ],
] as const) {
  const cold = await time(() => chunk(text, options as ChunkOptions));
  const theirs = await time(() => reference(text));
  const d = differs(cold.value, theirs.value);
  if (d) failed = true;
  console.log(
    `  ${name} on ${kib(text)}: LlamaIndex ${fmt(theirs.ms)}, Chunkscope ${fmt(cold.ms)} -> ${(theirs.ms / cold.ms).toFixed(1)}x; chunks ${d ?? `identical (${theirs.value.length})`}`,
  );
}

// ---- Retrieval units: SentenceWindowNodeParser, and HierarchicalNodeParser's algorithm on SentenceSplitter (the TS
// package has no HierarchicalNodeParser; the reference composes its SentenceSplitter per level as the generated
// program does). Both sides on a prefix (the package's sentence tokenizer runs over the whole document at once for
// windows, quadratic in it; three SentenceSplitters for levels), ours also on the whole file.
for (const [name, options, chars, reference] of [
  [
    'SentenceWindowNodeParser (window 3)',
    { strategy: 'sentence', compat: 'llamaindex', retrieval: 'window' },
    32 * 1024,
    (t: string) => new SentenceWindowNodeParser().getNodesFromDocuments([new Document({ text: t })]).map((n) => n.text),
  ],
  [
    'HierarchicalNodeParser 2048/512/128, overlap 20',
    { strategy: 'sentence', compat: 'llamaindex', retrieval: 'hierarchical' },
    128 * 1024,
    (t: string) => {
      const splitters = [2048, 512, 128].map((chunkSize) => new SentenceSplitter({ chunkSize, chunkOverlap: 20, logger: SILENT }));
      const out: string[] = [];
      const visit = (x: string, level: number): void => {
        for (const piece of splitters[level]!.splitText(x)) {
          out.push(piece);
          if (level + 1 < splitters.length) visit(piece, level + 1);
        }
      };
      visit(t, 0);
      return out;
    },
  ],
] as const) {
  const part = prefix(chars);
  const theirs = await time(() => reference(part));
  const ours = await time(() => chunk(part, options as ChunkOptions));
  const d = differs(ours.value, theirs.value);
  if (d) failed = true;
  const whole = await time(() => chunk(text, options as ChunkOptions));
  const again = await time(() => chunk(text, options as ChunkOptions));
  console.log(
    `  ${name} on a ${kib(part)} prefix: LlamaIndex ${fmt(theirs.ms)}, Chunkscope ${fmt(ours.ms)} -> ${(theirs.ms / ours.ms).toFixed(0)}x; chunks ${d ?? `identical (${theirs.value.length})`}`,
  );
  console.log(`    Chunkscope on ${kib(text)}: first run ${fmt(whole.ms)}, again ${fmt(again.ms)} (${whole.value.length} units)`);
}

if (failed) {
  console.log('  MISMATCH: compat llamaindex differs from the package');
  process.exit(1);
}
