import type { DocumentStructure, SplitSpan, LoadedStrategy } from '../registry';
import type { ChunkContext, Range, Unit } from '../types';
import { BlockPacker, headingPathOf, Progress, sectionsOf, structureOf, type UnitSpan } from './common';

/**
 * A strategy that cuts a range of the whole document with the whole document as context (its outline parsed once,
 * enclosing code signatures known for content prefixes), offsets into `text`, every span inside `range`. Not in
 * the registry yet (StrategyImplementation.splitRange); used for children when a strategy has it, else `split` runs
 * on the parent's slice.
 */
export interface RangeSplitter {
  splitRange(text: string, range: Range, ctx: ChunkContext): SplitSpan[] | Promise<SplitSpan[]>;
}

/**
 * meterFor keeps one meter (per-span memo, token table) per unit object, for the last text it measured. Children
 * are cut on each parent's slice, so each parent gets the unit under its own identity (same counts, same caches):
 * the slices' meters then neither evict the whole document's (which chunk() needs again to count sizes) nor each
 * other's, and a re-run on the same document (a slider move) finds each parent's meter warm. Capped: beyond
 * MAX_VIEWS parents, views are shared (those parents re-measure on a re-run).
 */
const MAX_VIEWS = 2048;
const unitViews = new WeakMap<Unit, Unit[]>();

function childUnitView(unit: Unit, parentIndex: number): Unit {
  let views = unitViews.get(unit);
  if (!views) unitViews.set(unit, (views = []));
  const k = parentIndex % MAX_VIEWS;
  return (views[k] ??= Object.create(unit) as Unit);
}

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
  strategy: LoadedStrategy,
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
  for (const [k, parent] of parents.entries()) {
    progress.report(PARENT_PHASE + ((1 - PARENT_PHASE) * parent.start) / total);
    const parentIndex = out.length;
    const parentUnit: UnitSpan = { start: parent.start, end: parent.end, level: 0, parent: null, leaf: false };
    if (parent.oversize) parentUnit.oversize = true;
    const path = headingPathOf(text, structure, parent);
    if (path) parentUnit.headingPath = path;
    out.push(parentUnit);

    // The strategy's progress maps onto the parent's share of the document.
    const from = PARENT_PHASE + ((1 - PARENT_PHASE) * parent.start) / total;
    const to = PARENT_PHASE + ((1 - PARENT_PHASE) * parent.end) / total;
    const phase = progress.phase(from, to);
    let children: SplitSpan[];
    const splitRange = (strategy as LoadedStrategy & Partial<RangeSplitter>).splitRange;
    if (splitRange) {
      children = await splitRange.call(strategy, text, { start: parent.start, end: parent.end }, { ...ctx, ...phase });
      for (const c of children) {
        if (c.start < parent.start || c.end > parent.end) {
          throw new Error(`${strategy.id}: splitRange returned ${c.start}..${c.end}, outside the range ${parent.start}..${parent.end}`);
        }
      }
    } else {
      // The strategy sees only the parent's text: offsets shift back by the parent's start.
      const slice = text.slice(parent.start, parent.end);
      const own = await strategy.split(slice, { ...ctx, unit: childUnitView(ctx.unit, k), ...phase });
      children = own.map((c) => ({ ...c, start: c.start + parent.start, end: c.end + parent.start }));
    }
    for (const child of children) {
      const unit: UnitSpan = { ...child, level: 1, parent: parentIndex, leaf: true };
      // The slice's own ancestry starts at the parent; the real one is in the whole document.
      const childPath = headingPathOf(text, structure, unit);
      if (childPath) unit.headingPath = childPath;
      out.push(unit);
    }
  }
  progress.report(1);
  return out;
}
