import { describe, expect, it } from 'vitest';
import { chunk } from '../../index';
import type { ChunkOptions } from '../../types';

const run = (text: string, options: ChunkOptions) => chunk(text, { strategy: 'character', ...options });

describe('character splitter', () => {
  const text = 'p1 a\n\np2 bb\n\np3 ccc';

  it('splits on a blank line by default and packs pieces up to the size', async () => {
    // "p1 a\n\np2 bb" is 11 chars <= 12; adding "p3 ccc" would make 19.
    const chunks = await run(text, { size: 12, overlap: 0 });
    expect(chunks.map((c) => [c.start, c.end, c.text])).toEqual([
      [0, 11, 'p1 a\n\np2 bb'],
      [13, 19, 'p3 ccc'],
    ]);
  });

  it('keeps a piece larger than the size whole and flags it oversize', async () => {
    const chunks = await run(text, { size: 4, overlap: 0 });
    expect(chunks.map((c) => [c.text, c.size, c.metadata.oversize ?? false])).toEqual([
      ['p1 a', 4, false],
      ['p2 bb', 5, true],
      ['p3 ccc', 6, true],
    ]);
  });

  it('overlaps by whole pieces only when the next chunk still has room', async () => {
    // Repeating "p2 bb" (5 <= 6) would make the next chunk "p2 bb\n\np3 ccc" (13 > 12): no overlap.
    expect((await run(text, { size: 12, overlap: 6 })).map((c) => c.text)).toEqual(['p1 a\n\np2 bb', 'p3 ccc']);
    // With size 13 it fits.
    expect((await run(text, { size: 13, overlap: 6 })).map((c) => c.text)).toEqual(['p1 a\n\np2 bb', 'p2 bb\n\np3 ccc']);
  });

  it('uses only the first separator of the list', async () => {
    const chunks = await run('a,b;c,d', { size: 3, overlap: 0, separators: [',', ';'] });
    expect(chunks.map((c) => c.text)).toEqual(['a', 'b;c', 'd']);
  });

  it('does not treat \\r\\n\\r\\n as the default "\\n\\n" separator (it is a different string)', async () => {
    const chunks = await run('one\r\n\r\ntwo', { size: 4, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual(['one\r\n\r\ntwo']);
    expect(chunks[0]!.metadata.oversize).toBe(true);
  });
});
