import type { StrategyDescription } from '../../registry';

export const html: StrategyDescription<'html'> = {
  id: 'html',
  label: 'HTML (headings)',
  description: 'Split HTML at its headings (h1–h6) down to a depth; breadcrumbs on each chunk, tables and <pre> kept whole.',
  defaults: { size: 1000, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'headingDepth', 'rowsAsText', 'minFragment', 'rawHtml', 'headers', 'retrieval'],
  hasSections: true,
  documentFormats: ['html'],
  compat: [],
  // Sentences of raw HTML would be cut through tags.
  refusesRetrieval: { window: 'sentence windows need prose: use parent-child or hierarchical units with the html strategy' },
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
