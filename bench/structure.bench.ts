/**
 * Structure benchmark (`npm run bench`): the structure-aware strategies and retrieval units on ~1 MiB documents
 * built from the corpus, side by side in one process with the recursive splitter on the same text and with
 * LangChain JS's markdown splitter (RecursiveCharacterTextSplitter.fromLanguage('markdown'), the closest it has).
 * Prints figures and ratios; not a timed test. Cold = first run on the document (parsing included), warm = a re-run
 * at another size, as when a slider moves (the page keeps the parsed outline).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { MarkdownNodeParser } from '@llamaindex/core/node-parser';
import { Document } from '@llamaindex/core/schema';
import { Parser } from 'htmlparser2';
import { chunk } from '../src/node/index';
import { documentCache } from '../src/core/documentCache';
import { buildOutline } from '../src/core/structure/markdown';
import { buildHtmlOutline } from '../src/core/structure/html';
import { buildMdastOutline } from '../src/core/structure/mdastOutline.reference';
import type { ChunkOptions } from '../src/core/types';
import { corpusMarkdown } from './markdown-docs';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ? resolve(process.argv[2]) : resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');
const prose = readFileSync(file, 'utf8');
console.warn = () => {};

// Markdown: a chapter heading every 40 paragraphs, a section every 8, a small table every 30 (bench/markdown-docs.ts).
const paragraphs = prose.split(/\n\s*\n/).filter((p) => p.trim() !== '');
const markdown = corpusMarkdown(prose);
const html = `<html><head><title>Corpus</title></head><body>\n${paragraphs
  .map((p, i) => (i % 40 === 0 ? `<h1>Chapter ${i / 40 + 1}</h1>\n` : i % 8 === 0 ? `<h2>Section ${i / 8 + 1}</h2>\n` : '') + `<p>${p.replace(/[<&]/g, ' ')}</p>`)
  .join('\n')}\n</body></html>`;

async function run(label: string, text: string, options: ChunkOptions): Promise<{ cold: number; warm: number; count: number }> {
  const t0 = performance.now();
  const first = await chunk(text, options);
  const cold = performance.now() - t0;
  const warms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    await chunk(text, { ...options, size: (options.size ?? 1000) + 10 * (i + 1) });
    warms.push(performance.now() - t1);
  }
  const warm = warms.sort((a, b) => a - b)[1]!;
  console.log(`  ${label.padEnd(44)} ${String(first.length).padStart(6)} chunks   cold ${cold.toFixed(0).padStart(6)} ms   warm ${warm.toFixed(0).padStart(5)} ms`);
  return { cold, warm, count: first.length };
}

console.log(`Structure benchmark: ${(markdown.length / 1024).toFixed(0)} KiB markdown, ${(html.length / 1024).toFixed(0)} KiB HTML from ${file}`);
const recursive = await run('recursive (same markdown text)', markdown, { strategy: 'recursive', size: 1000, overlap: 0 });
const md = await run('markdown, headings to depth 3', markdown, { strategy: 'markdown', size: 1000, overlap: 0 });
await run('markdown + contextual headers', markdown, { strategy: 'markdown', size: 1000, overlap: 0, headers: true });
await run('markdown, parent–child (4000 / 1000)', markdown, { strategy: 'markdown', size: 1000, overlap: 0, parentSize: 4000 });
await run('markdown, hierarchical 2048/512/128', markdown, { strategy: 'markdown', size: 1000, overlap: 0, levels: [2048, 512, 128] });
await run('markdown, sentence windows (3)', markdown, { strategy: 'markdown', size: 1000, overlap: 0, window: 3 });
await run('markdown, cl100k_base 512', markdown, { strategy: 'markdown', size: 512, overlap: 0, unit: 'cl100k_base' });
const h = await run('html, headings to depth 3', html, { strategy: 'html', size: 1000, overlap: 0 });

const lc = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: 1000, chunkOverlap: 0 });
const t0 = performance.now();
const lcChunks = await lc.splitText(markdown);
const lcMs = performance.now() - t0;
console.log(`  ${"LangChain JS fromLanguage('markdown')".padEnd(44)} ${String(lcChunks.length).padStart(6)} chunks   ${lcMs.toFixed(0).padStart(11)} ms`);
const times = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
console.log('Ratios (same run; time over time):');
console.log(`  markdown warm / LangChain fromLanguage('markdown'): ${times(md.warm, lcMs)}   markdown cold / LangChain: ${times(md.cold, lcMs)} (cold = the markdown parse)`);
console.log(`  markdown warm / recursive warm on the same text: ${times(md.warm, recursive.warm)}`);
console.log(`  html cold / markdown cold: ${times(h.cold, md.cold)}`);

// ---- Cold parse, side by side: interleaved rounds on the same text, medians. Cold = the document cache cleared
// before each Chunkscope run (a new document: parse + split at size 1000).
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (f: () => unknown): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const rounds = 5;
const cold = { llama: [] as number[], outline: [] as number[], mdChunk: [] as number[], htmlparser2: [] as number[], htmlOutline: [] as number[], htmlChunk: [] as number[] };
for (let r = 0; r < rounds; r++) {
  cold.llama.push(await timed(() => new MarkdownNodeParser().getNodesFromDocuments([new Document({ text: markdown })])));
  cold.outline.push(await timed(() => buildOutline(markdown)));
  documentCache.clear();
  cold.mdChunk.push(await timed(() => chunk(markdown, { strategy: 'markdown', size: 1000, overlap: 0 })));
  cold.htmlparser2.push(
    await timed(() => {
      const parser = new Parser({ onopentag() {}, onclosetag() {}, ontext() {} }, { decodeEntities: true });
      parser.end(html);
    }),
  );
  cold.htmlOutline.push(await timed(() => buildHtmlOutline(html)));
  documentCache.clear();
  cold.htmlChunk.push(await timed(() => chunk(html, { strategy: 'html', size: 1000, overlap: 0 })));
}
const mdastMs = await timed(() => buildMdastOutline(markdown));
const ms = (xs: number[]): string => `${median(xs).toFixed(0).padStart(6)} ms`;
console.log(`Cold parse of a new document, medians of ${rounds} interleaved rounds (${(markdown.length / 1024).toFixed(0)} KiB markdown, ${(html.length / 1024).toFixed(0)} KiB HTML):`);
console.log(`  LlamaIndex MarkdownNodeParser (getNodesFromDocuments)   ${ms(cold.llama)}`);
console.log(`  markdown outline (markdown-it blocks + titles)          ${ms(cold.outline)}   (the mdast outline it replaced: ${mdastMs.toFixed(0)} ms, one run)`);
console.log(`  markdown strategy cold (outline + split, size 1000)     ${ms(cold.mdChunk)}`);
console.log(`  htmlparser2 Parser alone (no-op handlers)               ${ms(cold.htmlparser2)}`);
console.log(`  HTML outline (htmlparser2 + sections, tables)           ${ms(cold.htmlOutline)}`);
console.log(`  html strategy cold (outline + split, size 1000)         ${ms(cold.htmlChunk)}`);
console.log('Ratios (same run; time over time; markdown target <= 2x, see also bench/markdown.bench.ts):');
console.log(`  markdown outline / MarkdownNodeParser: ${times(median(cold.outline), median(cold.llama))}   markdown strategy cold / MarkdownNodeParser: ${times(median(cold.mdChunk), median(cold.llama))}`);
console.log(`  HTML outline / htmlparser2 parse: ${times(median(cold.htmlOutline), median(cold.htmlparser2))}   html strategy cold / htmlparser2 parse: ${times(median(cold.htmlChunk), median(cold.htmlparser2))}`);
