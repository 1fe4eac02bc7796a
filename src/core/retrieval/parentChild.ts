import type { DocumentStructure, SplitSpan, StrategyDefinition } from '../registry';
import type { ChunkContext, Unit } from '../types';
import { BlockPacker, headingPathOf, Progress, sectionsOf, structureOf, type UnitSpan } from './common';

/** Share of the progress bar for finding parents (children take the rest: they run the strategy itself). */
const PARENT_PHASE = 0.2;

/**
 * Parent–child (small-to-big) units. Parents: the structure's sections (each larger than `parentSize` cut into
 * blocks of at most `parentSize` by the recursive packer), or, without structure, blocks of `parentSize` cut from
 * the whole document. Tiny sibling sections are not merged into one parent: a parent is a section or a piece of
 * one. Children: the strategy's own split run on each parent's text, offsets shifted back, so a child never
 * crosses its parent; for structure strategies a child's headingPath is recomputed in the whole document.
 * Output in pre-order: each parent (level 0) followed by its children (level 1, leaves).
 */
export async function splitParentChild(
  text: string,
  strategy: StrategyDefinition,
  ctx: ChunkContext,
  parentSize: number,
  known?: DocumentStructure | null,
): Promise<UnitSpan[]> {
  const progress = new Progress(ctx);
  const structure = await structureOf(text, strategy, ctx, known);
  progress.check();
  const packer = new BlockPacker(text, ctx, strategy);
  const parentPhase = progress.phase(0, PARENT_PHASE);
  const parents: SplitSpan[] = [];
  for (const section of sectionsOf(text, structure)) parents.push(...packer.pack(section, parentSize, parentPhase));

  const out: UnitSpan[] = [];
  const total = Math.max(1, text.length);
  // The same unit under another identity: meterFor keeps one meter per unit object, so the children's meters (one
  // per parent slice) do not evict the whole document's (a token table that chunk() needs again to count sizes).
  const childUnit = Object.create(ctx.unit) as Unit;
  for (const parent of parents) {
    progress.report(PARENT_PHASE + ((1 - PARENT_PHASE) * parent.start) / total);
    const parentIndex = out.length;
    const parentUnit: UnitSpan = { start: parent.start, end: parent.end, level: 0, parent: null, leaf: false };
    if (parent.oversize) parentUnit.oversize = true;
    const path = headingPathOf(text, structure, parent);
    if (path) parentUnit.headingPath = path;
    out.push(parentUnit);

    // The strategy sees only the parent's text; its progress maps onto the parent's share of the document.
    const from = PARENT_PHASE + ((1 - PARENT_PHASE) * parent.start) / total;
    const to = PARENT_PHASE + ((1 - PARENT_PHASE) * parent.end) / total;
    const childCtx: ChunkContext = { ...ctx, unit: childUnit, ...progress.phase(from, to) };
    const slice = text.slice(parent.start, parent.end);
    const children = await strategy.split(slice, childCtx);
    for (const child of children) {
      const unit: UnitSpan = { ...child, start: child.start + parent.start, end: child.end + parent.start, level: 1, parent: parentIndex, leaf: true };
      // The slice's own ancestry starts at the parent; the real one is in the whole document.
      const childPath = headingPathOf(text, structure, unit);
      if (childPath) unit.headingPath = childPath;
      out.push(unit);
    }
  }
  progress.report(1);
  return out;
}
