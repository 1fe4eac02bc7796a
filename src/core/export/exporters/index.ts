import { csv } from './csv';
import type { Exporter } from './exporter';
import { json } from './json';
import { jsonl } from './jsonl';
import { langchain } from './langchain';
import { llamaindex } from './llamaindex';

export type { ExportAbout, Exporter } from './exporter';

/** The export formats, one line each, in the order the CLI's help and the page's export menu list them. */
export const EXPORTERS = [json, jsonl, csv, langchain, llamaindex] as const;

export type ExportFormat = (typeof EXPORTERS)[number]['id'];
/** The formats that are Chunkscope's own chunk objects (Exporter.native). */
export type NativeExportFormat = Extract<(typeof EXPORTERS)[number], { native: true }>['id'];

/** The exporter of a format (throws on an unknown name; the CLI checks --format against EXPORT_FORMATS first). */
export function getExporter(id: string): Exporter<ExportFormat> {
  const found = (EXPORTERS as readonly Exporter<ExportFormat>[]).find((e) => e.id === id);
  if (!found) throw new Error(`unknown export format "${id}"`);
  return found;
}

/** Whether an exporter writes Chunkscope's own chunk objects (narrows its id for the worker's export). */
export function isNativeExporter(exporter: Exporter<ExportFormat>): exporter is Exporter<NativeExportFormat> {
  return exporter.native;
}
