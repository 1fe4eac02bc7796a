/**
 * The LLM features in Node: core's runner with the cache given as a directory path (or any LlmCache), the API key
 * taken from the options only (never written anywhere), and `strict` making any failure an error.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ChunkHooks } from '../core/chunk';
import type { LlmCache } from '../core/llm/cache';
import { runLlmFeature, type LlmOptions, type LlmRunReport } from '../core/llm/run';
import type { Chunk, ChunkOptions } from '../core/types';
import { DirectoryCache } from './llmCache';

export interface LibraryLlmOptions extends Omit<LlmOptions, 'cache'> {
  /** An LlmCache, or a directory path for one file per answer (default: in memory, for this call only). */
  cache?: LlmCache | string;
  /** Any failure (a request, an unsupported proposition, a repaired id) rejects with LlmStrictError. */
  strict?: boolean;
  /** The run's report: requests, cached, sent, failures by kind with their reasons, tokens. */
  onReport?: (report: LlmRunReport) => void;
}

/** A strict run's failure: one line, the first reason and the counts by kind. */
export class LlmStrictError extends Error {
  constructor(readonly report: LlmRunReport) {
    const kinds = Object.entries(report.failuresByKind).map(([kind, n]) => `${n} ${kind}`).join(', ');
    super(`LLM ${report.feature}: ${kinds} (first: ${report.failures[0]?.reason ?? 'unknown'})`);
    this.name = 'LlmStrictError';
  }
}

/** The user's cache directory for LLM answers: $XDG_CACHE_HOME or ~/.cache (LOCALAPPDATA on Windows), chunkscope/llm. */
export function defaultLlmCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || (process.platform === 'win32' ? process.env.LOCALAPPDATA : undefined) || join(homedir(), '.cache');
  return join(base, 'chunkscope', 'llm');
}

export async function runLlm(text: string, options: ChunkOptions, llm: LibraryLlmOptions, hooks: ChunkHooks = {}): Promise<{ chunks: Chunk[]; report: LlmRunReport }> {
  const { strict, onReport, cache, ...rest } = llm;
  const run = await runLlmFeature(text, options, { ...rest, cache: typeof cache === 'string' ? new DirectoryCache(cache) : cache }, hooks);
  onReport?.(run.report);
  if (strict && run.report.failures.length > 0) throw new LlmStrictError(run.report);
  return run;
}
