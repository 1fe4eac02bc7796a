import type { Range } from './types';

/**
 * overlaps[i] = UTF-16 characters shared by chunk i and chunk i+1, computed from the offsets (never assumed from
 * the overlap setting). A gap between chunks counts as 0.
 */
export function chunkOverlaps(chunks: readonly Range[]): number[] {
  const overlaps: number[] = [];
  for (let i = 0; i + 1 < chunks.length; i++) {
    overlaps.push(Math.max(0, chunks[i]!.end - chunks[i + 1]!.start));
  }
  return overlaps;
}

export interface ChunkStats {
  count: number;
  min: number;
  median: number;
  mean: number;
  max: number;
  /** How many sizes are strictly greater than the limit. */
  overLimit: number;
}

/** Summary of chunk sizes for the stats panel; all zeros for no chunks. */
export function chunkStats(sizes: readonly number[], limit: number): ChunkStats {
  const count = sizes.length;
  if (count === 0) return { count: 0, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 };
  const sorted = Float64Array.from(sizes).sort();
  const mid = count >> 1;
  const median = count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  let sum = 0;
  let overLimit = 0;
  for (const s of sizes) {
    sum += s;
    if (s > limit) overLimit++;
  }
  return { count, min: sorted[0]!, median, mean: sum / count, max: sorted[count - 1]!, overLimit };
}
