/**
 * `chunkscope eval --index lancedb:DIR`: evaluate the chunks (and vectors) a corpus run wrote to LanceDB instead of
 * chunking the documents again, so the index measured is the index served (src/node/lancedb/readIndex.ts). LanceDB
 * is loaded only when the flag is given.
 */
import type { EvalDocument, EvalResult, EvaluateHooks, EvaluateOptions } from '../core/eval/index';
import type { GoldenQuestion } from '../core/eval/types';
import { textConfigHash } from '../node/corpus/config';
import { CliError } from './input';

/** The directory `--index` names, null without the flag; a bad value is refused before any file is read. */
export function lanceIndexDir(value: unknown, command: 'eval' | 'sweep'): string | null {
  if (value === undefined) return null;
  if (command === 'sweep') throw new CliError('--index is for eval (a sweep chunks each configuration itself)');
  const m = /^lancedb:(.+)$/.exec(String(value));
  if (!m) throw new CliError(`--index takes lancedb:<dir> (a table written by chunkscope corpus --to lancedb:<dir>; got "${String(value)}")`);
  return m[1]!;
}

/** evaluate() over DIR's rows; an index that does not fit the documents (missing, stale) is one line, exit 2. */
export async function evaluateIndex(
  dir: string,
  documents: readonly EvalDocument[],
  questions: readonly GoldenQuestion[],
  options: EvaluateOptions,
  hooks: EvaluateHooks,
  io: { stderr: (s: string) => void },
): Promise<EvalResult> {
  const { evaluateLanceIndex, LanceIndexError } = await import('../node/lancedb/readIndex');
  try {
    const { notes, configHashes, ...result } = await evaluateLanceIndex(dir, documents, questions, options, hooks);
    const mine = textConfigHash(options);
    if (!configHashes.includes(mine)) {
      notes.push(`lancedb:${dir} was chunked with another configuration (${configHashes.join(', ')}) than these flags (${mine}): its rows are measured, the configuration printed is the flags'`);
    }
    for (const note of notes) io.stderr(`chunkscope: note: ${note}\n`);
    return result;
  } catch (err) {
    if (err instanceof LanceIndexError) throw new CliError(err.message);
    throw err;
  }
}
