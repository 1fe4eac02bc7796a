/** eval's reranking flags (parse options and --help rows); the code that runs them is ./evalRerank.ts, loaded on use. */
export const RERANK_PARSE_OPTIONS = {
  rerank: { type: 'string' as const },
  'rerank-candidates': { type: 'string' as const },
};

export const hasRerankFlag = (values: Record<string, unknown>): boolean => values.rerank !== undefined || values['rerank-candidates'] !== undefined;

export function rerankUsage(row: (flag: string, help: string) => string): string[] {
  return [
    '',
    'Reranking (eval; see docs/lab.md):',
    row('--rerank llm|cross-encoder:<model|folder>', 'rerank the retriever\'s candidates to k: the LLM listwise (with --llm-base-url, --llm-model, ...) or a transformers.js cross-encoder (hub id or local folder); prints recall with and without it and its cost'),
    row('--rerank-candidates <n>', 'candidates the retriever passes to the reranker (default 50)'),
  ];
}
