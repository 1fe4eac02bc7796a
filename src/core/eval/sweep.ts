import { ChunkOptionsError } from '../optionTable';
import { validateOptions } from '../options';
import { RunGuard } from '../merge';
import { chunkDocuments, configurationOf, now, evaluateChunks, prepareQuestions, type EvalDocument, type EvaluateHooks, type EvaluateOptions, type IndexCost } from './evaluate';
import { validateEvalOptions } from './options';
import { getRetriever } from '../retrievers/registry';
import type { GoldenQuestion, MeanMetrics } from './types';

/** One configuration of a sweep: its settings (the grid's values over the base options) and its figures, or why it was refused. */
export interface SweepRow {
  /** The values this row sets (the grid's keys). */
  values: Record<string, unknown>;
  configuration: Record<string, unknown> | null;
  means: MeanMetrics | null;
  measured: number;
  index: IndexCost | null;
  ms: number;
  /** A configuration the options refuse (e.g. overlap >= size): its one-line message. */
  error?: string;
}

/** Every combination of the grid's values, the first key varying slowest: { size: [128, 256], overlap: [0, 64] } → 4. */
export function sweepGrid(grid: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    if (values.length === 0) continue;
    out = out.flatMap((row) => values.map((v) => ({ ...row, [key]: v })));
  }
  return out;
}

/**
 * Run the golden set over configurations (`grid`: one object of option values per configuration, over `base`),
 * one row each, in order. The questions are matched and anchored once; embeddings are cached per (model, text)
 * across configurations. `hooks.onRow` sees each row as it is done (a page's progress), `hooks.signal` cancels
 * between configurations.
 */
export async function sweep(
  documents: readonly EvalDocument[],
  questions: readonly GoldenQuestion[],
  grid: readonly Record<string, unknown>[],
  base: EvaluateOptions = {},
  hooks: EvaluateHooks & { onRow?: (row: SweepRow, index: number) => void } = {},
): Promise<SweepRow[]> {
  const prepared = prepareQuestions(documents, questions);
  const rows: SweepRow[] = [];
  const guard = new RunGuard(hooks, grid.length);
  for (let i = 0; i < grid.length; i++) {
    guard.check();
    const values = grid[i]!;
    const options = { ...base, ...values } as EvaluateOptions;
    const t0 = now();
    let row: SweepRow;
    try {
      const resolved = validateOptions(options);
      const settings = validateEvalOptions(options as Record<string, unknown>);
      if (getRetriever(settings.retriever).needsEmbeddings && !hooks.embed) throw new Error(`the ${settings.retriever} retriever needs embeddings: pass hooks.embed`);
      const chunked = await chunkDocuments(documents, options, { ...hooks, onProgress: undefined });
      const result = await evaluateChunks(chunked, prepared, resolved, settings, { ...hooks, onProgress: undefined });
      row = { values, configuration: configurationOf(resolved, settings), means: result.means, measured: result.measured, index: result.index, ms: now() - t0 };
    } catch (err) {
      if (!(err instanceof ChunkOptionsError)) throw err;
      row = { values, configuration: null, means: null, measured: 0, index: null, ms: now() - t0, error: err.message };
    }
    rows.push(row);
    hooks.onRow?.(row, i);
    hooks.onProgress?.((i + 1) / grid.length);
  }
  return rows;
}
