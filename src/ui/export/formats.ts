import { formatChunks } from '../../core/format';
import type { Chunk } from '../../core/types';

/**
 * The page's export formats. JSON and JSONL come from the worker's formatChunks; the other three are built here
 * from those same chunks by core's formatChunks with what the CLI gives it (source name and text), so a file exported from the page equals the CLI's output for the same text, options and file name.
 */
export type PageExportFormat = 'json' | 'jsonl' | 'csv' | 'langchain' | 'llamaindex';

export interface ExportFormatInfo {
  format: PageExportFormat;
  /** The button's accessible name. */
  label: string;
  /** What the button shows (the group is labelled "Export"). */
  short: string;
  fileName: string;
  mime: string;
  description: string;
}

export const PAGE_EXPORT_FORMATS: ExportFormatInfo[] = [
  { format: 'json', label: 'Export JSON', short: 'JSON', fileName: 'chunks.json', mime: 'application/json', description: 'Chunkscope chunks (CLI --format json); open it again to rebuild the document' },
  { format: 'jsonl', label: 'Export JSONL', short: 'JSONL', fileName: 'chunks.jsonl', mime: 'application/x-ndjson', description: 'One chunk per line (CLI --format jsonl)' },
  { format: 'csv', label: 'Export CSV', short: 'CSV', fileName: 'chunks.csv', mime: 'text/csv', description: 'A spreadsheet row per chunk, metadata as JSON (CLI --format csv)' },
  { format: 'langchain', label: 'Export LangChain JSON', short: 'LangChain', fileName: 'chunks.langchain.json', mime: 'application/json', description: 'LangChain Documents: pageContent and metadata (CLI --format langchain)' },
  { format: 'llamaindex', label: 'Export LlamaIndex JSON', short: 'LlamaIndex', fileName: 'chunks.llamaindex.json', mime: 'application/json', description: 'LlamaIndex TextNodes with relationships (CLI --format llamaindex)' },
];

export interface ExportSource {
  /** The chunked text (LlamaIndex's code-point offsets). */
  text: string;
  /** What the CLI writes as LangChain's metadata.source: the file it was given. Pasted text has none. */
  source: string | null;
}

/** CSV, LangChain or LlamaIndex JSON of `chunks`, as the CLI renders them. */
export function renderForeignExport(chunks: readonly Chunk[], format: 'csv' | 'langchain' | 'llamaindex', about: ExportSource): string {
  return formatChunks(chunks, format, { text: about.text, ...(about.source === null ? {} : { source: about.source }) });
}
