import type { DocumentStructure, SplitSpan, LoadedStrategy } from '../registry';
import type { ChunkContext } from '../types';
import { BlockPacker, headingPathOf, Progress, sectionsOf, structureOf, type PhaseContext, type UnitSpan } from './common';

/**
 * Hierarchical units (as LlamaIndex's HierarchicalNodeParser with chunk_sizes, e.g. [2048, 512, 128]): level 0 is
 * cut from the whole document (per structure section when the strategy has one: each section, or blocks of it),
 * and each next level is cut inside each unit of the level above by the recursive packer with no overlap. A unit
 * that already fits the next size gets one child with the same span, so every branch reaches the last level and
 * the leaves are exactly the last level (LlamaIndex's get_leaf_nodes gives the same). Pre-order output.
 *
 * Differences from LlamaIndex: its list is level by level (all 2048s, then all 512s, ...) and its SentenceSplitter
 * overlaps 20 tokens; here units are in pre-order and never overlap, so a unit's children tile it.
 */
export async function splitHierarchical(
  text: string,
  strategy: LoadedStrategy,
  ctx: ChunkContext,
  levels: readonly number[],
  known?: DocumentStructure | null,
): Promise<UnitSpan[]> {
  const progress = new Progress(ctx);
  const structure = await structureOf(text, strategy, ctx, known);
  progress.check();
  const packer = new BlockPacker(text, ctx, strategy);
  const total = Math.max(1, text.length);
  const out: UnitSpan[] = [];
  // Each level-0 unit's subtree is built before the next one is cut, so progress follows the document.
  const quiet: PhaseContext = { signal: ctx.signal };

  const emit = (span: SplitSpan, level: number, parent: number | null): void => {
    const index = out.length;
    const last = level === levels.length - 1;
    const unit: UnitSpan = { start: span.start, end: span.end, level, parent, leaf: last };
    if (span.oversize) unit.oversize = true;
    const path = headingPathOf(text, structure, span);
    if (path) unit.headingPath = path;
    out.push(unit);
    if (last) return;
    for (const child of packer.pack(span, levels[level + 1]!, quiet)) emit(child, level + 1, index);
  };

  for (const section of sectionsOf(text, structure)) {
    for (const top of packer.pack(section, levels[0]!, quiet)) {
      progress.report(top.start / total);
      emit(top, 0, null);
    }
  }
  progress.report(1);
  return out;
}
