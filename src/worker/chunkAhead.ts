import type { ChunkOptions } from '../core/types';
import { encodeAhead, type AheadChunks } from '../state/firstChunks';
import { ChunkService } from './chunkService';

/**
 * A chunk job run ahead of time, at build (vite.config.ts, `firstChunks()`) and in tests: the chunk worker's own
 * service on `text` with `options`, its answer encoded for the page (src/state/firstChunks.ts). The same code as
 * the worker's, so the page's first paint and the worker's later answer are the same chunks.
 */
export async function chunkAhead(text: string, options: ChunkOptions): Promise<AheadChunks> {
  const service = new ChunkService({ progress: () => {}, embedder: () => {} });
  service.documents.apply(1, text);
  const result = await service.runChunk({ jobId: 1, version: 1, options }, async () => null);
  return encodeAhead(text, options, result);
}
