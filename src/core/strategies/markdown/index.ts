import type { StrategyDescription } from '../../registry';

export const markdown: StrategyDescription<'markdown'> = {
  id: 'markdown',
  label: 'Markdown (headings)',
  description: 'Split markdown at its headings down to a depth; breadcrumbs on each chunk, tables and code blocks kept whole.',
  defaults: { size: 1000, overlap: 0, unit: 'chars' },
  controls: ['size', 'overlap', 'unit', 'headingDepth', 'rowsAsText', 'minFragment', 'compat', 'stripHeaders', 'returnEachLine', 'headers', 'retrieval'],
  hasSections: true,
  documentFormats: ['markdown', 'docx'],
  compat: ['langchain', 'llamaindex'],
  compatNote: "Reproduce LangChain's MarkdownHeaderTextSplitter or LlamaIndex's MarkdownNodeParser.",
  // LangChain's MarkdownHeaderTextSplitter and LlamaIndex's MarkdownNodeParser apply no size.
  unsized: (options) => options.compat !== 'none',
  copyAsCode: () => import('./copyAsCode').then((m) => m.recipes),
};
