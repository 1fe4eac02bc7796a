import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../index';
import { formatChunks } from '../format';
import type { ChunkOptions } from '../types';
import { parseChunkExport } from './reimport';

const DOC = '# Travel policy\n\nBook early.  Economy class for flights under six hours.\n\n## Per diem\n\nMeals: €45 a day 😀.\n\n\n\nEnd.';

describe('re-import of a chunk export', () => {
  it('rebuilds a covered document exactly from JSON and from JSONL, and chunking it again gives the same chunks', async () => {
    const options: ChunkOptions = { strategy: 'fixed', size: 20, overlap: 5 };
    const chunks = await chunk(DOC, options);
    for (const format of ['json', 'jsonl'] as const) {
      const back = parseChunkExport(formatChunks(chunks, format));
      expect(back).not.toBeNull();
      expect(back!.document).toBe(DOC);
      expect([back!.gaps, back!.gapChars, back!.chunks]).toEqual([0, 0, chunks.length]);
      expect(back!.options).toMatchObject({ strategy: 'fixed', compat: 'none' });
      expect((await chunk(back!.document, options)).map((c) => [c.start, c.end, c.text])).toEqual(chunks.map((c) => [c.start, c.end, c.text]));
    }
  });

  it('fills whitespace the chunks dropped with spaces and counts the runs', async () => {
    const chunks = await chunk(DOC, { strategy: 'paragraph', size: 30, overlap: 0 });
    const covered = chunks.reduce((n, c) => n + c.text.length, 0);
    const back = parseChunkExport(formatChunks(chunks, 'json'))!;
    expect(back.document.length).toBe(chunks.at(-1)!.end);
    for (const c of chunks) expect(back.document.slice(c.start, c.end)).toBe(c.text);
    expect(back.gapChars).toBe(back.document.length - covered);
    expect(back.gaps).toBeGreaterThan(0);
    // Only the uncovered characters changed, and they became spaces.
    for (let i = 0; i < back.document.length; i++) {
      if (back.document[i] !== DOC[i]) expect([back.document[i], /\s/.test(DOC[i]!)]).toEqual([' ', true]);
    }
  });

  it('refuses what is not a consistent Chunkscope export', () => {
    expect(parseChunkExport('')).toBeNull();
    expect(parseChunkExport('{"a": 1}')).toBeNull();
    expect(parseChunkExport('[]')).toBeNull();
    expect(parseChunkExport('[{"pageContent": "x", "metadata": {}}]')).toBeNull();
    const good = { index: 0, start: 0, end: 3, text: 'abc', content: 'abc', size: 3, id: 'x', metadata: { strategy: 'fixed', compat: 'none' } };
    expect(parseChunkExport(JSON.stringify([good]))?.document).toBe('abc');
    // text that does not fit its offsets, and overlapping chunks that disagree
    expect(parseChunkExport(JSON.stringify([{ ...good, end: 4 }]))).toBeNull();
    expect(parseChunkExport(JSON.stringify([good, { ...good, index: 1, start: 2, end: 4, text: 'zz', content: 'zz' }]))).toBeNull();
    expect(parseChunkExport(JSON.stringify([good, { ...good, index: 1, start: 2, end: 4, text: 'cd', content: 'cd' }]))?.document).toBe('abcd');
  });

  it('property: any chunking of any text reads back with every chunk at its offsets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '.', 'é', '😀'), maxLength: 300 }),
        fc.constantFrom<ChunkOptions>({ strategy: 'recursive', size: 12, overlap: 3 }, { strategy: 'sentence', size: 20, overlap: 0 }, { strategy: 'fixed', size: 7, overlap: 2 }),
        async (text, options) => {
          const chunks = await chunk(text, options);
          const back = parseChunkExport(formatChunks(chunks, 'jsonl'));
          if (chunks.length === 0) return back === null;
          if (!back) return false;
          return chunks.every((c) => back.document.slice(c.start, c.end) === c.text) && (back.gaps > 0 || back.document === text.slice(0, back.document.length));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('re-import caps', () => {
  it('refuses a crafted export with a chunk at offset 250,000,000 without building the document', () => {
    const crafted = JSON.stringify([{ index: 0, start: 250_000_000, end: 250_000_001, text: 'x', content: 'x', size: 1, id: 'a' }]);
    expect(crafted.length).toBeLessThan(130);
    const t0 = performance.now();
    expect(() => parseChunkExport(crafted)).toThrow(
      'its chunks reach offset 250,000,001; a chunk export is rebuilt up to 16,777,216 characters',
    );
    expect(performance.now() - t0).toBeLessThan(100);
    // Just under the cap still opens.
    const near = JSON.stringify([{ index: 0, start: 1000, end: 1001, text: 'x', content: 'x', size: 1, id: 'a' }]);
    expect(parseChunkExport(near)!.document.length).toBe(1001);
  });
});
