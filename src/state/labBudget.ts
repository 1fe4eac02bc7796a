import { ORPHAN_ENDS_MID, ORPHAN_HEADING, ORPHAN_STARTS_MID } from '../core/eval/orphans';
import type { PaintableResult, TokenCounts } from './resultsSlice';

/**
 * Orphan chunks of the painted result (core's orphanChunks: starting or ending mid-sentence, heading-only) and the
 * budget arithmetic for a whole corpus from this document's measured figures. Pure; memoized per result.
 */

export { ORPHAN_ENDS_MID, ORPHAN_HEADING, ORPHAN_STARTS_MID };

export interface OrphanSummary {
  /** Per painted leaf: a bit set of ORPHAN_* (0: not an orphan). */
  flags: Uint8Array;
  count: number;
  startsMid: number;
  endsMid: number;
  headingOnly: number;
}

let memo: { flags: Uint8Array; value: OrphanSummary } | null = null;

/**
 * The painted result's orphan chunks, from the worker's flags: the result carries them, or (the first job on a
 * document, whose sentence segmentation is kept off the first paint's path) the token counts for that job bring
 * them. null until one of them has. Never computed here: segmenting a document is the worker's work.
 */
export function orphanSummary(result: PaintableResult | null, tokens: TokenCounts | null): OrphanSummary | null {
  if (!result) return null;
  const flags = result.orphans ?? (tokens?.jobId === result.jobId ? tokens.orphans : undefined);
  if (!flags || flags.length !== result.starts.length) return null;
  if (memo?.flags === flags) return memo.value;
  const value: OrphanSummary = { flags, count: 0, startsMid: 0, endsMid: 0, headingOnly: 0 };
  for (const bits of flags) {
    if (bits) value.count++;
    if (bits & ORPHAN_STARTS_MID) value.startsMid++;
    if (bits & ORPHAN_ENDS_MID) value.endsMid++;
    if (bits & ORPHAN_HEADING) value.headingOnly++;
  }
  memo = { flags, value };
  return value;
}

export function orphanLabel(bits: number): string | null {
  if (!bits) return null;
  const parts: string[] = [];
  if (bits & ORPHAN_HEADING) parts.push('only a heading');
  if (bits & ORPHAN_STARTS_MID) parts.push('starts mid-sentence');
  if (bits & ORPHAN_ENDS_MID) parts.push('ends mid-sentence');
  return parts.join(', ');
}

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
