import type { StoreApi } from 'zustand';
import type { ChunkClient } from '../bridge/chunkClient';
import type { AppState } from './store';

/**
 * Export: the painted chunks formatted by the same formatChunks the CLI uses, by the chunk worker that made them (it
 * recomputes them, embeddings included, if it was restarted since), and the browser download.
 */

export type ExportFormatName = 'json' | 'jsonl';

/** The painted chunks as JSON or JSONL text; null when nothing is painted. */
export function exportedTextFor(store: StoreApi<AppState>, chunks: ChunkClient, format: ExportFormatName, signal?: AbortSignal): Promise<string | null> {
  const result = store.getState().result;
  if (!result) return Promise.resolve(null);
  return chunks.exportChunks(result.jobId, result.version, result.options, format, signal);
}

export function exportFileName(format: ExportFormatName): { name: string; type: string } {
  return format === 'json' ? { name: 'chunks.json', type: 'application/json' } : { name: 'chunks.jsonl', type: 'application/x-ndjson' };
}

/** Save `text` as a file the browser downloads. */
export function downloadFile(name: string, text: string, type: string): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
