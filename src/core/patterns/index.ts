import { ChunkOptionsError } from '../optionError';
import type { DocumentStructure, LoadedStrategy } from '../registry';
import type { ChunkContext, ResolvedOptions, RetrievalMode } from '../types';
import { Progress, type UnitSpan } from './common';
import { splitHierarchical } from './hierarchical';
import { splitParentChild } from './parentChild';
import { splitSentenceWindows } from './sentenceWindow';

export type { UnitSpan } from './common';
export type { RangeSplitter } from './parentChild';

const DEFAULT_WINDOW = 3;
export const DEFAULT_LEVELS: readonly number[] = [2048, 512, 128];
/** Parents default to this many times the children's size. */
const PARENT_SIZE_FACTOR = 4;

/** The retrieval parameters of resolved options, with their defaults; throws ChunkOptionsError on a bad one. */
function retrievalParams(options: ResolvedOptions): { mode: RetrievalMode; parentSize: number; window: number; levels: number[] } {
  const mode = options.retrieval ?? 'chunks';
  const parentSize = options.parentSize ?? options.size * PARENT_SIZE_FACTOR;
  const window = options.window ?? DEFAULT_WINDOW;
  const levels = options.levels ?? [...DEFAULT_LEVELS];
  if (!Number.isInteger(parentSize) || parentSize <= 0) {
    throw new ChunkOptionsError('parentSize', `parentSize (${parentSize}) must be a whole number above 0`);
  }
  if (!Number.isInteger(window) || window < 0) {
    throw new ChunkOptionsError('window', `window (${window}) must be a whole number of sentences, 0 or more`);
  }
  if (levels.length === 0) throw new ChunkOptionsError('levels', 'levels must list at least one size');
  levels.forEach((size, i) => {
    if (!Number.isInteger(size) || size <= 0) throw new ChunkOptionsError('levels', `levels: ${size} must be a whole number above 0`);
    if (i > 0 && size >= levels[i - 1]!) {
      throw new ChunkOptionsError('levels', `levels must get strictly smaller, largest first (${levels[i - 1]} then ${size})`);
    }
  });
  return { mode, parentSize, window, levels };
}

/**
 * Retrieval units of `text` for `ctx.options.retrieval`, in pre-order (each unit immediately followed by its
 * descendants, siblings in document order), with exact UTF-16 offsets:
 * - 'parent-child': parents (level 0) = structure sections or `parentSize` blocks; children (level 1, leaves) =
 *   the strategy's own spans cut inside each parent;
 * - 'window': one leaf per sentence with `window` = w sentences on each side, within its section;
 * - 'hierarchical': nested levels of `levels` sizes; leaves are the last level;
 * - 'chunks': the strategy's spans as they are (level 0 leaves).
 * `strategy.split` is what cuts children and chunks: to get compat children, pass a definition whose split is the
 * compat splitter. `structure`: the strategy's structure of `text` when the caller already has it (null: none);
 * omitted, it is computed here with `strategy.structure`.
 */
export async function splitRetrievalUnits(
  text: string,
  strategy: LoadedStrategy,
  ctx: ChunkContext,
  structure?: DocumentStructure | null,
): Promise<UnitSpan[]> {
  const { mode, parentSize, window, levels } = retrievalParams(ctx.options);
  new Progress(ctx).check();
  // A compat mode reproduces a library's own parser for the mode (validateOptions let only those through).
  if (ctx.options.compat !== 'none' && mode !== 'chunks') {
    if (!strategy.compatUnits) throw new Error(`the ${strategy.id} strategy has no ${ctx.options.compat} ${mode} units`);
    return (await strategy.compatUnits(text, ctx)) as UnitSpan[];
  }
  switch (mode) {
    case 'parent-child':
      return splitParentChild(text, strategy, ctx, parentSize, structure);
    case 'window':
      return splitSentenceWindows(text, strategy, ctx, window, structure);
    case 'hierarchical':
      return splitHierarchical(text, strategy, ctx, levels, structure);
    case 'chunks': {
      const spans = await strategy.split(text, ctx);
      return spans.map((s) => ({ ...s, level: 0, parent: null, leaf: true }));
    }
  }
}

/**
 * The size a unit is held to (what makes it `oversize` when it is larger): parents `parentSize`, children and
 * plain chunks `size`, hierarchical level k `levels[k]`; sentences have no limit (a sentence is never cut).
 */
export function unitSizeLimit(unit: Pick<UnitSpan, 'level'>, options: ResolvedOptions): number {
  const { mode, parentSize, levels } = retrievalParams(options);
  switch (mode) {
    case 'parent-child':
      return unit.level === 0 ? parentSize : options.size;
    case 'hierarchical':
      return levels[unit.level] ?? options.size;
    case 'window':
      return Infinity;
    case 'chunks':
      return options.size;
  }
}
