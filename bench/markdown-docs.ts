/**
 * The two ~1 MiB markdown documents the markdown benchmarks time (bench/markdown.bench.ts, bench/structure.bench.ts):
 * - `corpusMarkdown`: the corpus with a chapter heading every 40 paragraphs, a section every 8 and a small pipe table
 *   with a caption every 30 (prose, as a book or a report reads);
 * - `readmeMarkdown`: the READMEs of installed packages, concatenated in a fixed order and repeated to 1 MiB (what
 *   people paste: headings with inline code and links, fenced code, tables, lists, HTML, badges).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS_FILE = resolve(here, '..', '..', 'shared', 'corpus', 'english-1mib.txt');

export function corpusMarkdown(prose: string = readFileSync(CORPUS_FILE, 'utf8')): string {
  const paragraphs = prose.split(/\n\s*\n/).filter((p) => p.trim() !== '');
  return paragraphs
    .map((p, i) => {
      const head = i % 40 === 0 ? `# Chapter ${i / 40 + 1}\n\n` : i % 8 === 0 ? `## Section ${i / 8 + 1}\n\n` : '';
      const table = i % 30 === 29 ? `\n\nTable ${i}: Figures\n\n| key | value |\n|---|---|\n| a | ${i} |\n| b | ${i * 2} |` : '';
      return head + p + table;
    })
    .join('\n\n');
}

/** Packages whose READMEs make the README-like document (those installed; the large ones, varied markdown). */
const README_PACKAGES = [
  '@huggingface/transformers',
  'enhanced-resolve',
  'regexp-tree',
  'fast-check',
  'dompurify',
  'expect-type',
  'langsmith',
  'tapable',
  'mammoth',
  'protobufjs',
  'picomatch',
  'fflate',
  'source-map-js',
  'semver',
  'debug',
  'zustand',
  'mustache',
  'htmlparser2',
];

export function readmeMarkdown(bytes = 1 << 20): { text: string; packages: string[] } {
  const root = resolve(here, '..', 'node_modules');
  const packages = README_PACKAGES.filter((name) => existsSync(resolve(root, name, 'README.md')));
  const parts = packages.map((name) => readFileSync(resolve(root, name, 'README.md'), 'utf8'));
  if (parts.length === 0) throw new Error('no package README found under node_modules (run npm install)');
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += parts[i % parts.length]!.trimEnd() + '\n\n';
  return { text, packages };
}
