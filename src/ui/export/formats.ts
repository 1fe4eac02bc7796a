import { toCsv, toLangChainDocuments, toLlamaIndexNodes } from '../../core/export/index';
import { documentIdFor } from '../../core/ids';
import type { Chunk } from '../../core/types';

/**
 * The page's export formats. JSON and JSONL come from the worker's formatChunks; the other three are built here
 * from those same chunks with the functions the CLI's `--format csv|langchain|llamaindex` uses, with the same
 * arguments, so a file exported from the page equals the CLI's output for the same text, options and file name.
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
  /** The chunked text (for LlamaIndex's code-point offsets and its document id). */
  text: string;
  /** What the CLI writes as LangChain's metadata.source: the file it was given. Pasted text has none. */
  source: string | null;
  documentId?: string;
}

/** CSV, LangChain or LlamaIndex JSON of `chunks`, as the CLI renders them. */
export function renderForeignExport(chunks: readonly Chunk[], format: 'csv' | 'langchain' | 'llamaindex', about: ExportSource): string {
  switch (format) {
    case 'csv':
      return toCsv(chunks);
    case 'langchain':
      return JSON.stringify(toLangChainDocuments(chunks, about.source === null ? {} : { source: about.source }), null, 2) + '\n';
    case 'llamaindex':
      return JSON.stringify(toLlamaIndexNodes(chunks, { documentId: about.documentId ?? documentIdFor(about.text), sourceText: about.text }), null, 2) + '\n';
  }
}
