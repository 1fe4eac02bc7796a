import { chunkOverlaps } from '../core/stats';
import type { Chunk, ChunkMetadata } from '../core/types';
import { CONTENT_TYPE_CODES, type PackedParents, type PackedStructure } from './protocol';

/**
 * Chunks as typed arrays for postMessage: the page slices chunk text from its own copy of the document, so only
 * offsets and figures cross the thread boundary, as transferables (no copy of 10 MiB of chunk strings).
 *
 * With retrieval units (parent-child, hierarchical) the main arrays hold the leaves only, in document order, so
 * counts, stats, the histogram, overlaps and hit-testing are about what a pipeline embeds; the enclosing units
 * travel in `structure.parents`.
 */
export interface PackedChunks {
  starts: Int32Array;
  ends: Int32Array;
  sizes: Float64Array;
  overlaps: Int32Array;
  oversize: Uint8Array;
  contentDiffers: Uint8Array;
  /** Absent for the plain strategies: they pay nothing for it. */
  structure?: PackedStructure;
}

/** True when a chunk carries anything the page draws beyond offsets and sizes. */
function hasStructure(m: ChunkMetadata): boolean {
  return (
    m.headingPath !== undefined ||
    m.contentType !== undefined ||
    m.prefix !== undefined ||
    m.caption !== undefined ||
    m.pages !== undefined ||
    m.window !== undefined ||
    m.level !== undefined ||
    m.leaf !== undefined
  );
}

/** The chunks a pipeline embeds: every chunk unless retrieval units marked some as non-leaves. */
export function leavesOf(chunks: readonly Chunk[]): readonly Chunk[] {
  for (const c of chunks) {
    if (c.metadata.leaf === false) return chunks.filter((x) => x.metadata.leaf !== false);
  }
  return chunks;
}

export function packChunks(chunks: readonly Chunk[]): PackedChunks {
  let structured = false;
  for (const c of chunks) {
    if (hasStructure(c.metadata)) {
      structured = true;
      break;
    }
  }
  const leaves = structured ? leavesOf(chunks) : chunks;
  const n = leaves.length;
  const packed: PackedChunks = {
    starts: new Int32Array(n),
    ends: new Int32Array(n),
    sizes: new Float64Array(n),
    overlaps: Int32Array.from(chunkOverlaps(leaves)),
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const c = leaves[i]!;
    packed.starts[i] = c.start;
    packed.ends[i] = c.end;
    packed.sizes[i] = c.size;
    packed.oversize[i] = c.metadata.oversize ? 1 : 0;
    packed.contentDiffers[i] = c.content !== c.text ? 1 : 0;
  }
  if (structured) packed.structure = packStructure(chunks, leaves);
  return packed;
}

/** Deduplicating string table: equal strings travel once. */
class Table<T> {
  readonly items: T[] = [];
  private readonly index = new Map<string, number>();
  add(key: string, item: T): number {
    let at = this.index.get(key);
    if (at === undefined) {
      at = this.items.length;
      this.items.push(item);
      this.index.set(key, at);
    }
    return at;
  }
}

function packStructure(chunks: readonly Chunk[], leaves: readonly Chunk[]): PackedStructure {
  const n = leaves.length;
  const paths = new Table<string[]>();
  const strings = new Table<string>();
  const pathOf = (m: ChunkMetadata) => (m.headingPath ? paths.add(m.headingPath.join('\u0000'), m.headingPath) : -1);

  // Enclosing units (non-leaves) in pre-order, and where each id sits among them.
  const parentChunks = leaves === chunks ? [] : chunks.filter((c) => c.metadata.leaf === false);
  const parentAt = indexById(parentChunks);
  const parentIndex = (m: ChunkMetadata) => (m.parentId === undefined ? -1 : (parentAt.get(m.parentId) ?? -1));

  const pathIndex = new Int32Array(n);
  const contentTypes = new Uint8Array(n);
  const prefixIndex = new Int32Array(n).fill(-1);
  const prefixSizes = new Float64Array(n);
  const captionIndex = new Int32Array(n).fill(-1);
  const contentIndex = new Int32Array(n).fill(-1);
  const pageFirst = new Int32Array(n);
  const pageLast = new Int32Array(n);
  const windowStarts = new Int32Array(n).fill(-1);
  const windowEnds = new Int32Array(n).fill(-1);
  const leafParent = new Int32Array(n).fill(-1);
  const leafLevel = new Int32Array(n);
  const seen = { type: false, prefix: false, caption: false, content: false, pages: false, window: false, level: false };

  for (let i = 0; i < n; i++) {
    const c = leaves[i]!;
    const m = c.metadata;
    pathIndex[i] = pathOf(m);
    if (m.contentType !== undefined) {
      contentTypes[i] = Math.max(0, CONTENT_TYPE_CODES.indexOf(m.contentType));
      seen.type ||= contentTypes[i] !== 0;
    }
    const prefix = m.prefix ?? '';
    if (prefix) {
      prefixIndex[i] = strings.add(prefix, prefix);
      prefixSizes[i] = m.prefixSize ?? 0;
      seen.prefix = true;
    }
    if (m.caption) {
      captionIndex[i] = strings.add(m.caption, m.caption);
      seen.caption = true;
    }
    // Content the page cannot rebuild from prefix + source span (rows as text, compat quirks) is sent as is.
    if (c.content !== c.text && c.content !== prefix + c.text) {
      contentIndex[i] = strings.add(c.content, c.content);
      seen.content = true;
    }
    if (m.pages && m.pages.length) {
      pageFirst[i] = Math.min(...m.pages);
      pageLast[i] = Math.max(...m.pages);
      seen.pages = true;
    }
    if (m.window) {
      windowStarts[i] = m.window.start;
      windowEnds[i] = m.window.end;
      seen.window = true;
    }
    if (m.level !== undefined) {
      leafLevel[i] = m.level;
      seen.level = true;
    }
    leafParent[i] = parentIndex(m);
  }

  const structure: PackedStructure = { paths: paths.items, pathIndex, strings: strings.items };
  if (seen.type) structure.contentTypes = contentTypes;
  if (seen.prefix) Object.assign(structure, { prefixIndex, prefixSizes });
  if (seen.caption) structure.captionIndex = captionIndex;
  if (seen.content) structure.contentIndex = contentIndex;
  if (seen.pages) Object.assign(structure, { pageFirst, pageLast });
  if (seen.window) Object.assign(structure, { windowStarts, windowEnds });
  if (seen.level) structure.leafLevel = leafLevel;
  if (parentChunks.length) {
    // After the leaves: the parents' heading paths join the table after the leaves' ones.
    structure.parents = packParents(parentChunks, parentIndex, pathOf);
    structure.leafParent = leafParent;
  }
  return structure;
}

function indexById(chunks: readonly Chunk[]): Map<string, number> {
  const at = new Map<string, number>();
  chunks.forEach((c, i) => at.set(c.id, i));
  return at;
}

/** The enclosing units' columns, in pre-order (`pathOf` adds to the shared path table). */
function packParents(parentChunks: readonly Chunk[], parentIndex: (m: ChunkMetadata) => number, pathOf: (m: ChunkMetadata) => number): PackedParents {
  const m = parentChunks.length;
  const parents: PackedParents = {
    starts: new Int32Array(m),
    ends: new Int32Array(m),
    sizes: new Float64Array(m),
    levels: new Int32Array(m),
    parent: new Int32Array(m),
    pathIndex: new Int32Array(m),
  };
  parentChunks.forEach((c, i) => {
    parents.starts[i] = c.start;
    parents.ends[i] = c.end;
    parents.sizes[i] = c.size;
    parents.levels[i] = c.metadata.level ?? 0;
    parents.parent[i] = parentIndex(c.metadata);
    parents.pathIndex[i] = pathOf(c.metadata);
  });
  return parents;
}

/** The buffers of a packed result, to transfer rather than copy. */
export function packedBuffers(p: PackedChunks): ArrayBuffer[] {
  const buffers: ArrayBufferLike[] = [p.starts.buffer, p.ends.buffer, p.sizes.buffer, p.overlaps.buffer, p.oversize.buffer, p.contentDiffers.buffer];
  const s = p.structure;
  if (s) {
    const arrays = [
      s.pathIndex,
      s.contentTypes,
      s.prefixIndex,
      s.prefixSizes,
      s.captionIndex,
      s.contentIndex,
      s.pageFirst,
      s.pageLast,
      s.windowStarts,
      s.windowEnds,
      s.leafParent,
      s.leafLevel,
      ...(s.parents ? Object.values(s.parents) : []),
    ];
    for (const a of arrays) if (a) buffers.push(a.buffer);
  }
  return buffers as ArrayBuffer[];
}
