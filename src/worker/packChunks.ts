import { chunkOverlaps } from '../core/index';
import type { Chunk } from '../core/types';

/**
 * Chunks as typed arrays for postMessage: the page slices chunk text from its own copy of the document, so only
 * offsets and figures cross the thread boundary, as transferables (no copy of 10 MiB of chunk strings).
 */
export interface PackedChunks {
  starts: Int32Array;
  ends: Int32Array;
  sizes: Float64Array;
  overlaps: Int32Array;
  oversize: Uint8Array;
  contentDiffers: Uint8Array;
}

export function packChunks(chunks: readonly Chunk[]): PackedChunks {
  const n = chunks.length;
  const packed: PackedChunks = {
    starts: new Int32Array(n),
    ends: new Int32Array(n),
    sizes: new Float64Array(n),
    overlaps: Int32Array.from(chunkOverlaps(chunks)),
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const c = chunks[i]!;
    packed.starts[i] = c.start;
    packed.ends[i] = c.end;
    packed.sizes[i] = c.size;
    packed.oversize[i] = c.metadata.oversize ? 1 : 0;
    packed.contentDiffers[i] = c.content !== c.text ? 1 : 0;
  }
  return packed;
}

/** The buffers of a packed result, to transfer rather than copy. */
export function packedBuffers(p: PackedChunks): ArrayBuffer[] {
  return [p.starts.buffer, p.ends.buffer, p.sizes.buffer, p.overlaps.buffer, p.oversize.buffer, p.contentDiffers.buffer] as ArrayBuffer[];
}
