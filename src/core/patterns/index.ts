import type { DocumentStructure, LoadedStrategy } from '../registry';
import type { ChunkContext } from '../types';
import { Progress, type UnitSpan } from './common';
import { splitHierarchical } from './hierarchical';
import { splitParentChild } from './parentChild';
import { splitSentenceWindows } from './sentenceWindow';
import { retrievalParams } from './limits';

export type { UnitSpan } from './common';
export type { RangeSplitter } from './parentChild';
export { DEFAULT_LEVELS, unitSizeLimit } from './limits';

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
