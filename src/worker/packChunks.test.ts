import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import type { Chunk, ChunkMetadata } from '../core/types';
import type { PaintableResult } from '../state/resultsSlice';
import { breadcrumbText, chunkExtras, pagesLabel, unitCounts } from '../state/selectors';
import { packChunks } from './packChunks';

describe('packChunks', () => {
  it('carries every chunk’s offsets, size, flags and real overlap', async () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const chunks = await chunk(text, { strategy: 'recursive', size: 20, overlap: 8 });
    const packed = packChunks(chunks);
    expect(Array.from(packed.starts)).toEqual(chunks.map((c) => c.start));
    expect(Array.from(packed.ends)).toEqual(chunks.map((c) => c.end));
    expect(Array.from(packed.sizes)).toEqual(chunks.map((c) => c.size));
    // Overlap comes from the offsets: the characters chunk i shares with chunk i + 1.
    chunks.slice(0, -1).forEach((c, i) => {
      expect(packed.overlaps[i]).toBe(Math.max(0, c.end - chunks[i + 1]!.start));
    });
    expect(packed.overlaps.some((o) => o > 0)).toBe(true);
    expect(Array.from(packed.oversize).every((f) => f === 0)).toBe(true);
  });

  it('flags an oversize chunk and content that differs from the source span', async () => {
    const chunks = await chunk('foo  bar baz-qux-quux-corge', { strategy: 'character', separators: [' '], size: 8, overlap: 0, compat: 'langchain' });
    const packed = packChunks(chunks);
    chunks.forEach((c, i) => {
      expect(packed.contentDiffers[i]).toBe(c.content !== c.text ? 1 : 0);
    });
    expect(packed.contentDiffers.some((f) => f === 1)).toBe(true);
    const native = await chunk('short unbreakablewordthatislong', { strategy: 'character', separators: [' '], size: 8, overlap: 0 });
    expect(packChunks(native).oversize).toEqual(Uint8Array.from(native.map((c) => (c.metadata.oversize ? 1 : 0))));
    expect(packChunks(native).oversize.some((f) => f === 1)).toBe(true);
  });
});

/** A painted result as the page holds it: the packed arrays after a structured clone (what postMessage does). */
function paintable(text: string, chunks: Chunk[]): PaintableResult {
  const packed = structuredClone(packChunks(chunks));
  return { ...packed, jobId: 1, version: 1, documentSerial: 1, stats: chunkStatsOf(packed.sizes), limit: 0, unit: 'chars', elapsedMs: 0, text, requestedAt: 0, options: {} };
}

function chunkStatsOf(sizes: Float64Array) {
  return { count: sizes.length, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 };
}

/** Hand-built chunk: fields the engine would set, with an id unique per span and level. */
function makeChunk(text: string, start: number, end: number, metadata: Partial<ChunkMetadata>, content?: string): Chunk {
  const span = text.slice(start, end);
  const body = content ?? (metadata.prefix ?? '') + span;
  return {
    index: 0,
    start,
    end,
    text: span,
    content: body,
    size: body.length,
    id: `${metadata.level ?? 'x'}:${start}-${end}`,
    metadata: { strategy: 'markdown', compat: 'none', ...metadata },
  };
}

describe('packChunks: structure extras', () => {
  it('sends nothing extra for the plain strategies', async () => {
    const chunks = await chunk('one two three four five six seven eight nine ten', { strategy: 'recursive', size: 12, overlap: 0 });
    expect(packChunks(chunks).structure).toBeUndefined();
  });

  it('round-trips breadcrumbs, content types, prefixes, captions, rows-as-text content and pages', () => {
    const text = '# Policy\n\n## Travel\n\nBook early.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n';
    const headRow = '| a | b |\n|---|---|\n';
    const tableAt = text.indexOf('| a');
    const secondRow = text.indexOf('| 3');
    const chunks = [
      makeChunk(text, 0, text.indexOf('Book') + 11, { headingPath: ['Policy', 'Travel'], contentType: 'text', prefix: 'Policy > Travel\n\n', prefixSize: 17, pages: [1] }),
      makeChunk(text, tableAt, secondRow - 1, { headingPath: ['Policy', 'Travel'], contentType: 'table', caption: 'Table 1: Rates', pages: [1, 2] }),
      // A later row group: the header row is repeated in front of the rows (prefix), drawn as injected text.
      makeChunk(text, secondRow, text.length - 1, { headingPath: ['Policy', 'Travel'], contentType: 'table', caption: 'Table 1: Rates', prefix: headRow, prefixSize: headRow.length, pages: [2, 3] }),
      // Rows as text: the content is not prefix + span, so it travels as a string.
      makeChunk(text, secondRow, text.length - 1, { headingPath: [], contentType: 'table' }, 'a: 3\nb: 4'),
    ];
    const result = paintable(text, chunks);
    const s = result.structure!;
    expect(s.paths).toEqual([['Policy', 'Travel'], []]); // each distinct path once
    expect(s.strings.filter((x) => x === 'Table 1: Rates')).toHaveLength(1);
    chunks.forEach((c, i) => {
      const x = chunkExtras(result, i);
      expect(x.headingPath).toEqual(c.metadata.headingPath);
      expect(x.contentType).toBe(c.metadata.contentType);
      expect(x.caption).toBe(c.metadata.caption ?? null);
      expect(x.prefix).toBe(c.metadata.prefix ?? '');
      expect(x.prefixSize).toBe(c.metadata.prefixSize ?? 0);
      expect(x.content).toBe(c.content);
      expect(x.contentDiffers).toBe(c.content !== c.text);
      const pages = c.metadata.pages;
      expect(x.pages).toEqual(pages ? [Math.min(...pages), Math.max(...pages)] : null);
    });
    expect(pagesLabel(chunkExtras(result, 2).pages!)).toBe('p. 2–3');
    expect(pagesLabel(chunkExtras(result, 0).pages!)).toBe('p. 1');
    expect(breadcrumbText(chunkExtras(result, 0).headingPath!)).toBe('Policy › Travel');
  });

  it('puts only the leaves in the main arrays and carries the tree (parent-child and hierarchical)', () => {
    fc.assert(
      fc.property(
        // A document cut into parents of 1..4 leaves, one or two parent levels.
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (childCounts, twoLevels) => {
          const leafCount = childCounts.reduce((a, b) => a + b, 0);
          const text = 'x'.repeat(leafCount * 10);
          const chunks: Chunk[] = [];
          const root = twoLevels ? makeChunk(text, 0, text.length, { level: 0, leaf: false, headingPath: ['Root'] }) : null;
          if (root) chunks.push(root);
          let at = 0;
          childCounts.forEach((count, p) => {
            const parent = makeChunk(text, at, at + count * 10, { level: root ? 1 : 0, leaf: false, headingPath: ['Root', `S${p}`], parentId: root?.id });
            chunks.push(parent);
            for (let k = 0; k < count; k++, at += 10) {
              chunks.push(makeChunk(text, at, at + 10, { level: root ? 2 : 1, leaf: true, parentId: parent.id, headingPath: ['Root', `S${p}`] }));
            }
          });
          const result = paintable(text, chunks);
          const leaves = chunks.filter((c) => c.metadata.leaf);
          const parents = chunks.filter((c) => !c.metadata.leaf);
          expect(Array.from(result.starts)).toEqual(leaves.map((c) => c.start));
          expect(result.overlaps).toHaveLength(Math.max(0, leaves.length - 1));
          const packedParents = result.structure!.parents!;
          expect(Array.from(packedParents.starts)).toEqual(parents.map((c) => c.start));
          expect(Array.from(packedParents.ends)).toEqual(parents.map((c) => c.end));
          expect(Array.from(packedParents.levels)).toEqual(parents.map((c) => c.metadata.level));
          // Parent links point at the chunk whose id is the parentId.
          parents.forEach((c, i) => {
            const up = packedParents.parent[i]!;
            expect(up === -1 ? undefined : parents[up]!.id).toBe(c.metadata.parentId);
          });
          leaves.forEach((c, i) => {
            const x = chunkExtras(result, i);
            expect(parents[x.parent]!.id).toBe(c.metadata.parentId);
            expect(x.level).toBe(c.metadata.level);
            expect(x.headingPath).toEqual(c.metadata.headingPath);
          });
          expect(unitCounts(result)).toEqual({ parents: parents.length, leaves: leaves.length, levels: root ? 3 : 2 });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('carries sentence windows', () => {
    const text = 'One. Two. Three. Four.';
    const sentences = [0, 5, 10, 17].map((start, i, all) => [start, (all[i + 1] ?? text.length + 1) - 1] as const);
    const chunks = sentences.map(([start, end], i) =>
      makeChunk(text, start, end, { level: 0, leaf: true, window: { start: sentences[Math.max(0, i - 1)]![0], end: sentences[Math.min(3, i + 1)]![1] } }),
    );
    const result = paintable(text, chunks);
    chunks.forEach((c, i) => expect(chunkExtras(result, i).window).toEqual(c.metadata.window));
    expect(result.structure!.parents).toBeUndefined();
  });
});

describe('packChunks: real structure chunks from the engine', () => {
  const doc = [
    '# Travel Policy',
    '',
    'Intro text for everyone who travels on company business.',
    '',
    '## 5. International travel',
    '',
    'Book through the portal. '.repeat(12),
    '',
    '### 5.3 Per diem',
    '',
    '| Country | Rate |',
    '|---|---|',
    ...Array.from({ length: 30 }, (_, i) => `| Country ${i} | ${40 + i} EUR |`),
    '',
  ].join('\n');

  it('markdown with contextual headers: every leaf’s path, type, prefix and content survive the trip', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', size: 200, overlap: 0, headers: true });
    const result = paintable(doc, chunks);
    expect(result.structure).toBeDefined();
    expect(chunks.some((c) => c.metadata.contentType === 'table' && c.metadata.prefix)).toBe(true);
    chunks.forEach((c, i) => {
      const x = chunkExtras(result, i);
      expect(x.headingPath).toEqual(c.metadata.headingPath);
      expect(x.contentType).toBe(c.metadata.contentType ?? 'text');
      expect(x.prefix).toBe(c.metadata.prefix ?? '');
      expect(x.prefixSize).toBe(c.metadata.prefixSize ?? 0);
      expect(x.content).toBe(c.content);
    });
  });

  it('markdown parent-child: leaves in the main arrays, parents with their links', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', size: 120, overlap: 0, retrieval: 'parent-child', parentSize: 600 });
    const leaves = chunks.filter((c) => c.metadata.leaf);
    const parents = chunks.filter((c) => c.metadata.leaf === false);
    expect(parents.length).toBeGreaterThan(0);
    const result = paintable(doc, chunks);
    expect(Array.from(result.starts)).toEqual(leaves.map((c) => c.start));
    expect(Array.from(result.sizes)).toEqual(leaves.map((c) => c.size));
    expect(Array.from(result.structure!.parents!.starts)).toEqual(parents.map((c) => c.start));
    leaves.forEach((c, i) => expect(parents[chunkExtras(result, i).parent]?.id).toBe(c.metadata.parentId));
  });
});
