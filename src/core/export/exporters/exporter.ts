import type { Chunk } from '../../types';

/** What the non-native formats say about the document: LangChain's metadata.source, LlamaIndex's source node. */
export interface ExportAbout {
  /** The document's file name or path ('stdin' for standard input). */
  source?: string;
  /** The document text: LlamaIndex offsets count code points, so they are converted against it. */
  text?: string;
  documentId?: string;
}

/**
 * An export format: everything the CLI (--format), the library (formatChunks) and the page's export menu need to
 * know about it. Adding a format is one file with one of these and one line in ./index.ts.
 */
export interface Exporter<Id extends string = string> {
  /** The name: the CLI's --format value. */
  id: Id;
  /** The export button's accessible name ("Export <format>"). */
  label: string;
  /** What the button shows (the group is labelled "Export"). */
  short: string;
  /** The downloaded file's name. */
  fileName: string;
  mime: string;
  /** One line: what the file holds (the export button's title). */
  description: string;
  /** What the CLI's help says after the name, in parentheses (nothing when the name says it all). */
  cliHelp?: string;
  /**
   * Chunkscope's own chunk objects, written as they are: the chunk worker formats them itself, the CLI writes them a
   * batch at a time, and opening such a file rebuilds the document (../reimport.ts).
   */
  native: boolean;
  /** The file's text for `chunks`. */
  render(chunks: readonly Chunk[], about: ExportAbout): string;
}
