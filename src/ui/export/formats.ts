import { EXPORTERS, type ExportAbout, type Exporter, type ExportFormat } from '../../core/export/exporters';
import type { Chunk } from '../../core/types';

/**
 * The page's export formats: every exporter in core's registry (src/core/export/exporters), one button each. The
 * native ones (JSON, JSONL) come from the worker's formatChunks; the others are rendered here from those same chunks
 * with what the CLI gives them (source name and text), so a file exported from the page equals the CLI's output for
 * the same text, options and file name.
 */
export type ExportFormatInfo = Exporter<ExportFormat>;

export const PAGE_EXPORT_FORMATS: readonly ExportFormatInfo[] = EXPORTERS;

export interface ExportSource {
  /** The chunked text (LlamaIndex's code-point offsets). */
  text: string;
  /** What the CLI writes as LangChain's metadata.source: the file it was given. Pasted text has none. */
  source: string | null;
}

/** `chunks` in a non-native format, as the CLI renders them. */
export function renderForeignExport(chunks: readonly Chunk[], exporter: ExportFormatInfo, about: ExportSource): string {
  const cliAbout: ExportAbout = { text: about.text, ...(about.source === null ? {} : { source: about.source }) };
  return exporter.render(chunks, cliAbout);
}
