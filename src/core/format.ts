import type { Chunk } from './types';

export type ExportFormat = 'json' | 'jsonl';

export const EXPORT_FORMATS: ExportFormat[] = ['json', 'jsonl'];

/**
 * The one serialization of chunks, shared by the CLI, the library and the page's export button, so a file
 * exported from the page is byte-identical to the CLI's output for the same text and configuration.
 */
export function formatChunks(chunks: readonly Chunk[], format: ExportFormat): string {
  if (format === 'jsonl') return chunks.map((c) => JSON.stringify(c) + '\n').join('');
  return JSON.stringify(chunks, null, 2) + '\n';
}
