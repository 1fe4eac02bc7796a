import { EXPORTERS, getExporter, type ExportAbout, type ExportFormat } from './export/exporters';
import type { Chunk } from './types';

export type { ExportAbout, ExportFormat } from './export/exporters';

/** The export formats' names (the CLI's --format values), from the exporter registry in ./export/exporters. */
export const EXPORT_FORMATS: ExportFormat[] = EXPORTERS.map((e) => e.id);

/**
 * The one serialization of chunks, shared by the CLI, the library and the page's export menu, so a file exported
 * from the page is byte-identical to the CLI's output for the same text, configuration and source name.
 */
export function formatChunks(chunks: readonly Chunk[], format: ExportFormat, about: ExportAbout = {}): string {
  return getExporter(format).render(chunks, about);
}
