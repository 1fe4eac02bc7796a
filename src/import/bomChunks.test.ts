/**
 * The encoding rule's promise to the strategies (src/import/decode.ts, docs/input.md): a UTF-8 BOM kept as U+FEFF at
 * offset 0 is treated exactly like leading whitespace. Strategies that trim keep it out of every chunk; those whose
 * windows cover every character by design (fixed, token, chonkie's sentence chunker: they keep leading whitespace
 * too) keep it in the first chunk, with the same cuts as a leading space; see KEEPS_BOM_ONLY and OWN_CUTS. Either way `text === source.slice(start, end)`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../node/index';
import { STRATEGIES } from '../core/strategies';
import type { ChunkOptions } from '../core/types';

/** Every strategy and compat mode that runs without embeddings, with options its compat mode accepts. */
const CONFIGS: ChunkOptions[] = STRATEGIES.filter((s) => !s.needsEmbeddings).flatMap((s) =>
  ['none', ...(s.compat ?? [])].map((compat) => ({
    strategy: s.id,
    size: 24,
    // Chonkie's RecursiveChunker and FastChunker take no overlap at all (not even 0).
    ...(compat === 'chonkie' && (s.id === 'recursive' || s.id === 'fixed') ? {} : { overlap: 0 }),
    compat,
    ...(s.id === 'code' ? { language: 'python' } : {}),
  }) as ChunkOptions),
);

/** The strategies that keep leading whitespace (and so the BOM) in their first chunk. FastChunker (fixed/chonkie)
 * keeps both in the span; its `content` drops the mark as @chonkiejs/chunk does. */
const KEEPS_LEADING = new Set(['fixed/none', 'fixed/chonkie', 'token/none', 'token/langchain', 'token/chonkie', 'sentence/chonkie']);

/**
 * @chonkiejs/core 0.0.11's RecursiveChunker drops a leading space but keeps a leading BOM (its \s-free splitting
 * sees U+FEFF as a letter), and compat reproduces it. Markdown reads "\ufeff# Title" as a heading (the mark is
 * skipped like the spaces of an indented one) but " # Title" indents it: the cuts differ, the mark stays out.
 */
const KEEPS_BOM_ONLY = new Set(['recursive/chonkie']);
// FastChunker counts UTF-8 bytes: the mark is three, a space one, so its windows end elsewhere.
const OWN_CUTS = new Set(['recursive/chonkie', 'markdown/none', 'fixed/chonkie']);

const body = fc.constantFrom(
  'Hello world. This is a test.\n\nSecond paragraph here. More text follows.',
  '# Title\r\n\r\nBody text here.\r\n\r\n## Sub\r\n\r\nMore.',
  '<html><body><h1>T</h1><p>Body text that runs on</p></body></html>',
  'def f():\n    return 1\n\nclass A:\n    pass\n',
);

describe('a BOM at offset 0 is leading whitespace to every strategy', () => {
  for (const options of CONFIGS) {
    const key = `${options.strategy}/${options.compat}`;
    it(key, async () => {
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const withBom = await chunk('\ufeff' + text, options);
          const withSpace = await chunk(' ' + text, options);
          for (const c of withBom) expect(c.text).toBe(('\ufeff' + text).slice(c.start, c.end));
          const bomInside = withBom.some((c) => c.text.includes('\ufeff'));
          const spaceKept = withSpace[0]?.text.startsWith(' ') ?? false;
          expect(bomInside, key).toBe(KEEPS_LEADING.has(key) || KEEPS_BOM_ONLY.has(key));
          expect(spaceKept, key).toBe(KEEPS_LEADING.has(key));
          // The same cuts as with a leading space in its place.
          if (!OWN_CUTS.has(key)) expect(withBom.map((c) => [c.start, c.end]), key).toEqual(withSpace.map((c) => [c.start, c.end]));
        }),
        { seed: 29, numRuns: 8 },
      );
    });
  }
});
