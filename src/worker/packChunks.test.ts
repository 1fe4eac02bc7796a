import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
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
