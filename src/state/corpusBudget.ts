import type { PaintableResult } from './resultsSlice';

/**
 * The corpus budget's arithmetic (StatsPanel's "Corpus budget"): this document's measured chunks per token and
 * overlap, scaled to a corpus. Apart from labBudget.ts (the orphan flags the chunk list shows): the budget shows
 * once the token counts are in, after the first paint, and loads then (ui/panels/CorpusBudget.tsx).
 */

/** What this document measured: its size in tokens and what the configuration made of it. */
export interface Measured {
  /** The document's length in tokens (estimated from the chunks' tokens per character where the unit is not tokens). */
  documentTokens: number;
  chunks: number;
  /** Tokens embedded (the chunks' contents, overlap counted twice). */
  chunkTokens: number;
}

export interface CorpusInput {
  documents: number;
  meanTokens: number;
  /** Embedding width (dimensions) and bytes per dimension (4: float32). */
  dims: number;
  bytesPerDim: number;
  k: number;
  contextWindow: number;
}

export interface CorpusBudget {
  corpusTokens: number;
  chunksPerToken: number;
  /** Embedded tokens per corpus token (1 + the overlap's share). */
  overlapFactor: number;
  chunks: number;
  embeddingTokens: number;
  indexBytes: number;
  meanChunkTokens: number;
  /** k chunks of mean size against the context window. */
  contextTokens: number;
  contextFraction: number;
  /** Share of the corpus one question's k chunks cover. */
  corpusCoverage: number;
}

export function measuredFrom(result: PaintableResult, tokenCounts: ArrayLike<number>): Measured | null {
  const n = result.starts.length;
  if (n === 0 || tokenCounts.length !== n) return null;
  let chunkTokens = 0;
  let chunkChars = 0;
  for (let i = 0; i < n; i++) {
    chunkTokens += tokenCounts[i]!;
    chunkChars += result.ends[i]! - result.starts[i]!;
  }
  // Tokens per character of the chunks (overlap included both in tokens and in characters, so it cancels).
  const perChar = chunkChars > 0 ? chunkTokens / chunkChars : 0;
  const documentTokens = result.text.length * perChar;
  return { documentTokens, chunks: n, chunkTokens };
}

export function corpusBudget(m: Measured, c: CorpusInput): CorpusBudget {
  const corpusTokens = c.documents * c.meanTokens;
  const chunksPerToken = m.documentTokens > 0 ? m.chunks / m.documentTokens : 0;
  const overlapFactor = m.documentTokens > 0 ? m.chunkTokens / m.documentTokens : 0;
  const chunks = corpusTokens * chunksPerToken;
  const meanChunkTokens = m.chunks > 0 ? m.chunkTokens / m.chunks : 0;
  const contextTokens = c.k * meanChunkTokens;
  return {
    corpusTokens,
    chunksPerToken,
    overlapFactor,
    chunks,
    embeddingTokens: corpusTokens * overlapFactor,
    indexBytes: chunks * c.dims * c.bytesPerDim,
    meanChunkTokens,
    contextTokens,
    contextFraction: c.contextWindow > 0 ? contextTokens / c.contextWindow : 0,
    corpusCoverage: corpusTokens > 0 ? Math.min(1, contextTokens / corpusTokens) : 0,
  };
}

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n >= 100 || i === 0 ? n.toFixed(0) : n.toFixed(1)} ${units[i]}`;
}
