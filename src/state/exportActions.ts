import type { StoreApi } from 'zustand';
import type { ChunkClient } from '../bridge/chunkClient';
import type { AppState } from './store';
import type { NativeExportFormat } from '../core/export/exporters';

/**
 * Export: the painted chunks formatted by the same formatChunks the CLI uses, by the chunk worker that made them (it
 * recomputes them, embeddings included, if it was restarted since), and the browser download.
 */

/** The formats the chunk worker writes itself (the exporters' native ones). */
export type ExportFormatName = NativeExportFormat;

/** The painted chunks as JSON or JSONL text; null when nothing is painted. */
export function exportedTextFor(store: StoreApi<AppState>, chunks: ChunkClient, format: ExportFormatName, signal?: AbortSignal): Promise<string | null> {
  const result = store.getState().result;
  if (!result) return Promise.resolve(null);
  return chunks.exportChunks(result.jobId, result.version, result.options, format, signal);
}

/** The file name and type of a format (the exporters load here, not on the first paint's path). */
export async function exportFileName(format: ExportFormatName): Promise<{ name: string; type: string }> {
  const { getExporter } = await import('../core/export/exporters');
  const exporter = getExporter(format);
  return { name: exporter.fileName, type: exporter.mime };
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
