import { toLangChainDocuments } from '../formats';
import type { Exporter } from './exporter';

export const langchain = {
  id: 'langchain',
  label: 'Export LangChain JSON',
  short: 'LangChain',
  fileName: 'chunks.langchain.json',
  mime: 'application/json',
  description: 'LangChain Documents: pageContent and metadata (CLI --format langchain)',
  cliHelp: 'Document JSON: pageContent, metadata',
  native: false,
  render: (chunks, about) => JSON.stringify(toLangChainDocuments(chunks, about.source === undefined ? {} : { source: about.source }), null, 2) + '\n',
} as const satisfies Exporter<'langchain'>;
