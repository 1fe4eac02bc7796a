import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from './index';
import type { Chunk, ChunkOptions } from './types';

/**
 * Properties of structure-aware chunks as chunk() returns them (every layer together: splitter, contextual header,
 * retrieval units, metadata), on generated markdown documents whose true outline is known.
 */

interface Doc {
  text: string;
  /** Heading starts with their depth and title, in order. */
  headings: { start: number; depth: number; title: string }[];
  fences: { start: number; end: number }[];
}

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'per', 'diem', 'travel', 'policy', 'émigré', '東京', '🙂');
const sentence = fc.array(word, { minLength: 2, maxLength: 12 }).map((w) => w.join(' ') + '.');
const block = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('heading' as const), depth: fc.integer({ min: 1, max: 4 }), title: fc.array(word, { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('para' as const), sentences: fc.array(sentence, { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('code' as const), lines: fc.array(fc.array(word, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }) }) },
);

type Block = { kind: 'heading'; depth: number; title: string[] } | { kind: 'para'; sentences: string[] } | { kind: 'code'; lines: string[][] };

function render(blocks: Block[]): Doc {
  let text = '';
  const headings: Doc['headings'] = [];
  const fences: Doc['fences'] = [];
  for (const b of blocks) {
    if (text !== '') text += '\n\n';
    const start = text.length;
    if (b.kind === 'heading') {
      const title = b.title.join(' ');
      headings.push({ start, depth: b.depth, title });
      text += `${'#'.repeat(b.depth)} ${title}`;
    } else if (b.kind === 'para') {
      text += b.sentences.join(' ');
    } else {
      text += '```\n' + b.lines.map((l) => l.join(' ')).join('\n') + '\n```';
      fences.push({ start, end: text.length });
    }
  }
  return { text, headings, fences };
}

/** The true heading ancestry at an offset: the headings in force, outermost first. */
function ancestry(doc: Doc, offset: number): string[] {
  const stack: { depth: number; title: string }[] = [];
  for (const h of doc.headings) {
    if (h.start > offset) break;
    while (stack.length && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

const config = fc.record({
  size: fc.integer({ min: 40, max: 400 }),
  headingDepth: fc.integer({ min: 1, max: 4 }),
  headers: fc.boolean(),
  retrieval: fc.constantFrom('chunks', 'parent-child', 'window', 'hierarchical'),
});

function optionsFor(c: { size: number; headingDepth: number; headers: boolean; retrieval: string }): ChunkOptions {
  const o: ChunkOptions = { strategy: 'markdown', size: c.size, overlap: 0, headingDepth: c.headingDepth, headers: c.headers };
  if (c.retrieval === 'parent-child') o.parentSize = c.size * 3;
  if (c.retrieval === 'window') o.window = 1;
  if (c.retrieval === 'hierarchical') o.levels = [c.size * 3, c.size];
  return o;
}

describe('structure-aware chunks (markdown through chunk())', () => {
  it('exact offsets, true heading ancestry, fences kept whole, header prefixes, parents containing children', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(block, { minLength: 1, maxLength: 12 }), config, async (blocks, c) => {
        const doc = render(blocks);
        const { text } = doc;
        const options = optionsFor(c);
        const chunks = await chunk(text, options);
        const byId = new Map<string, Chunk>();
        for (const ch of chunks) {
          // Offsets are exact.
          expect(ch.text).toBe(text.slice(ch.start, ch.end));
          // headingPath is the real ancestry at the chunk's first non-blank character.
          const first = ch.start + (ch.text.length - ch.text.trimStart().length);
          expect(ch.metadata.headingPath).toEqual(ancestry(doc, first));
          // A contextual header is the heading path; content = prefix + the span's own content.
          if (c.headers && ch.metadata.headingPath!.length > 0) {
            const header = `${ch.metadata.headingPath!.join(' > ')}\n\n`;
            expect(ch.metadata.prefix!.startsWith(header)).toBe(true);
            expect(ch.content.startsWith(header)).toBe(true);
          } else if (ch.metadata.prefix) {
            expect(ch.content.startsWith(ch.metadata.prefix)).toBe(true);
          }
          // No boundary inside a code fence unless the fence alone is larger than the size.
          if (c.retrieval === 'chunks' && !ch.metadata.oversize) {
            for (const f of doc.fences) {
              if (f.end - f.start > c.size / 2) continue; // may not fit once a header takes its room
              for (const b of [ch.start, ch.end]) expect(f.start < b && b < f.end, `cut at ${b} inside fence ${f.start}-${f.end}`).toBe(false);
            }
          }
          // Retrieval units: a child lies inside its parent, which comes earlier in the list.
          if (ch.metadata.parentId !== undefined) {
            const parent = byId.get(ch.metadata.parentId);
            expect(parent, 'parent listed before child').toBeDefined();
            expect(parent!.start <= ch.start && ch.end <= parent!.end).toBe(true);
            expect(ch.metadata.level).toBe(parent!.metadata.level! + 1);
          }
          if (ch.metadata.window) expect(ch.metadata.window.start <= ch.start && ch.end <= ch.metadata.window.end).toBe(true);
          byId.set(ch.id, ch);
        }
        // Ids are unique.
        expect(byId.size).toBe(chunks.length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('retrieval unit ids', () => {
  it('a unit and its only child (same span) get different ids; the child points at the parent', async () => {
    const text = 'Short paragraph one.\n\nAnother short paragraph.';
    for (const options of [
      { strategy: 'recursive', size: 100, levels: [400, 200, 100] },
      { strategy: 'recursive', size: 100, parentSize: 400 },
      { strategy: 'markdown', size: 100, parentSize: 400 },
    ] as ChunkOptions[]) {
      const chunks = await chunk(text, options);
      expect(new Set(chunks.map((c) => c.id)).size, JSON.stringify(options)).toBe(chunks.length);
      for (const c of chunks) if (c.metadata.parentId !== undefined) expect(c.metadata.parentId).not.toBe(c.id);
    }
  });
});
