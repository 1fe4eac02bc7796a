import type { Exporter } from './exporter';

export const jsonl = {
  id: 'jsonl',
  label: 'Export JSONL',
  short: 'JSONL',
  fileName: 'chunks.jsonl',
  mime: 'application/x-ndjson',
  description: 'One chunk per line (CLI --format jsonl)',
  cliHelp: 'one object per line',
  native: true,
  render: (chunks) => chunks.map((c) => JSON.stringify(c) + '\n').join(''),
} as const satisfies Exporter<'jsonl'>;
