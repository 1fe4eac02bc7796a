import { documentIdFor } from '../../ids';
import { toLlamaIndexNodes } from '../formats';
import type { Exporter } from './exporter';

export const llamaindex = {
  id: 'llamaindex',
  label: 'Export LlamaIndex JSON',
  short: 'LlamaIndex',
  fileName: 'chunks.llamaindex.json',
  mime: 'application/json',
  description: 'LlamaIndex TextNodes with relationships (CLI --format llamaindex)',
  cliHelp: 'TextNode JSON',
  native: false,
  render(chunks, about) {
    const documentId = about.documentId ?? chunks[0]?.metadata.documentId ?? (about.text === undefined ? 'document' : documentIdFor(about.text));
    return JSON.stringify(toLlamaIndexNodes(chunks, { documentId, ...(about.text === undefined ? {} : { sourceText: about.text }) }), null, 2) + '\n';
  },
} as const satisfies Exporter<'llamaindex'>;
