import { isWhitespaceCode, meterFor } from '../measure';
import { packLevels, RunGuard, type Level } from '../merge';
import type { DocumentStructure, SplitSpan, LoadedStrategy, StructureSection } from '../registry';
import { separatorLevels } from '../segment/separators';
import { DEFAULT_RECURSIVE_SEPARATORS } from '../strategies/recursive';
import type { ChunkContext, Range } from '../types';

/**
 * A retrieval unit: a span plus its place in the tree. `parent` is the index of the enclosing unit in the array
 * returned by splitRetrievalUnits (units come in pre-order, so it always points backwards), null at the top.
 */
export interface UnitSpan extends SplitSpan {
  /** 0 for the outermost units; leaves have the largest level of their mode. */
  level: number;
  parent: number | null;
  /** The units a pipeline embeds (children, the smallest level, the sentences). */
  leaf: boolean;
  /** Sentence windows: the window's source span (contains the sentence, never crosses a section boundary). */
  window?: Range;
}

/** The context splitters and packers get for one phase of a run: its progress mapped into [from, to] overall. */
export type PhaseContext = Pick<ChunkContext, 'onProgress' | 'signal'>;

/** Progress for a run made of phases: never goes back, and checks the abort signal at every report. */
export class Progress {
  private reported = 0;
  constructor(private readonly ctx: Pick<ChunkContext, 'onProgress' | 'signal'>) {}

  check(): void {
    new RunGuard(this.ctx, 1).check();
  }

  report(fraction: number): void {
    this.check();
    const f = Math.min(1, Math.max(0, fraction));
    if (f > this.reported) {
      this.reported = f;
      this.ctx.onProgress?.(f);
    }
  }

  /** A context whose progress 0..1 lands in [from, to] of the whole run. */
  phase(from: number, to: number): PhaseContext {
    return { signal: this.ctx.signal, onProgress: (f) => this.report(from + (to - from) * f) };
  }
}

/** First non-whitespace offset in [start, end), or `end` when there is none. */
export function firstNonBlank(text: string, start: number, end: number): number {
  let s = start;
  while (s < end && isWhitespaceCode(text.charCodeAt(s))) s++;
  return s;
}

export { trimRange } from '../ranges';

/**
 * The packer behind parents, oversize sections and hierarchical levels: the recursive strategy's separator
 * hierarchy (the user's own separators when the strategy's are a hierarchy (recursive), else blank line, line, space, grapheme
 * cluster) packed by the core packer with no overlap, over any range of the whole document. One meter over the
 * whole text serves every call, so token counts are cached across levels.
 */
export class BlockPacker {
  private readonly levels: Level[];
  constructor(
    private readonly text: string,
    private readonly ctx: ChunkContext,
    strategy: LoadedStrategy,
  ) {
    const { options } = ctx;
    this.levels =
      strategy.separatorHierarchy
        ? separatorLevels(text, options.separators, options.separatorsAreRegex, options.keepSeparator)
        : separatorLevels(text, DEFAULT_RECURSIVE_SEPARATORS, false, 'start');
  }

  /** Blocks of at most `size` units covering the non-whitespace of `range` (trimmed; `oversize` when unsplittable). */
  pack(range: Range, size: number, phase: PhaseContext): SplitSpan[] {
    const out: SplitSpan[] = [];
    const meter = meterFor(this.ctx.unit, this.text);
    packLevels(this.text, range.start, range.end, this.levels, { size, overlap: 0, meter, guard: new RunGuard(phase, this.text.length) }, out);
    return out;
  }
}

/**
 * The document's structure when the strategy has one (markdown, html, code), else null. `known`: the caller's
 * already computed structure of this text (undefined: compute it here).
 */
export async function structureOf(
  text: string,
  strategy: LoadedStrategy,
  ctx: ChunkContext,
  known?: DocumentStructure | null,
): Promise<DocumentStructure | null> {
  if (known !== undefined) return known;
  return strategy.structure ? await strategy.structure(text, ctx) : null;
}

/** The ranges units are cut inside: the structure's sections, or the whole document as one section. */
export function sectionsOf(text: string, structure: DocumentStructure | null): StructureSection[] {
  return structure ? structure.sections : [{ start: 0, end: text.length, headingPath: [] }];
}

/** Heading ancestry at a span's first non-blank character (structure strategies only). */
export function headingPathOf(text: string, structure: DocumentStructure | null, span: Range): string[] | undefined {
  if (!structure) return undefined;
  return structure.headingPathAt(firstNonBlank(text, span.start, span.end));
}
