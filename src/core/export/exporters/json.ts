import type { Exporter } from './exporter';

export const json = {
  id: 'json',
  label: 'Export JSON',
  short: 'JSON',
  fileName: 'chunks.json',
  mime: 'application/json',
  description: 'Chunkscope chunks (CLI --format json); open it again to rebuild the document',
  cliHelp: 'default: a JSON array',
  native: true,
  render: (chunks) => JSON.stringify(chunks, null, 2) + '\n',
} as const satisfies Exporter<'json'>;
