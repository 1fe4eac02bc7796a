import { toCsv } from '../formats';
import type { Exporter } from './exporter';

export const csv = {
  id: 'csv',
  label: 'Export CSV',
  short: 'CSV',
  fileName: 'chunks.csv',
  mime: 'text/csv',
  description: 'A spreadsheet row per chunk, metadata as JSON (CLI --format csv)',
  native: false,
  render: (chunks) => toCsv(chunks),
} as const satisfies Exporter<'csv'>;
