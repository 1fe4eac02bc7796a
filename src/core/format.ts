import { documentIdFor } from './ids';
import { toCsv, toLangChainDocuments, toLlamaIndexNodes } from './export/formats';
import type { Chunk } from './types';

export type ExportFormat = 'json' | 'jsonl' | 'csv' | 'langchain' | 'llamaindex';

export const EXPORT_FORMATS: ExportFormat[] = ['json', 'jsonl', 'csv', 'langchain', 'llamaindex'];

/** What the non-native formats say about the document: LangChain's metadata.source, LlamaIndex's source node. */
export interface ExportAbout {
  /** The document's file name or path ('stdin' for standard input). */
  source?: string;
  /** The document text: LlamaIndex offsets count code points, so they are converted against it. */
  text?: string;
  documentId?: string;
}

/**
 * The one serialization of chunks, shared by the CLI, the library and the page's export menu, so a file exported
 * from the page is byte-identical to the CLI's output for the same text, configuration and source name.
 */
export function formatChunks(chunks: readonly Chunk[], format: ExportFormat, about: ExportAbout = {}): string {
  switch (format) {
    case 'jsonl':
      return chunks.map((c) => JSON.stringify(c) + '\n').join('');
    case 'json':
      return JSON.stringify(chunks, null, 2) + '\n';
    case 'csv':
      return toCsv(chunks);
    case 'langchain':
      return JSON.stringify(toLangChainDocuments(chunks, about.source === undefined ? {} : { source: about.source }), null, 2) + '\n';
    case 'llamaindex': {
      const documentId = about.documentId ?? chunks[0]?.metadata.documentId ?? (about.text === undefined ? 'document' : documentIdFor(about.text));
      return JSON.stringify(toLlamaIndexNodes(chunks, { documentId, ...(about.text === undefined ? {} : { sourceText: about.text }) }), null, 2) + '\n';
    }
  }
}
