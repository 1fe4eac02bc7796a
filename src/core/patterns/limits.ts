import { ChunkOptionsError } from '../optionError';
import type { ResolvedOptions, RetrievalMode } from '../types';
import type { UnitSpan } from './common';

/*
 * The retrieval modes' parameters and size limits, apart from the splitters (./index.ts): chunk() needs the limits
 * for every chunk it builds, the splitters only when a retrieval mode is chosen (loaded then).
 */

const DEFAULT_WINDOW = 3;
export const DEFAULT_LEVELS: readonly number[] = [2048, 512, 128];
/** Parents default to this many times the children's size. */
const PARENT_SIZE_FACTOR = 4;

/** The retrieval parameters of resolved options, with their defaults; throws ChunkOptionsError on a bad one. */
export function retrievalParams(options: ResolvedOptions): { mode: RetrievalMode; parentSize: number; window: number; levels: number[] } {
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
