import { strategyDefinition } from './strategyInfo';
import type { StrategyDescription } from '../core/registry';
import type { AppState } from './store';
import type { PaintableResult, TokenCounts } from './resultsSlice';
import { unitDescriptor } from '../core/units';

/** Selectors live at module level so components subscribe to stable functions. */

export const selectConfig = (s: AppState) => s.config;
export const selectResult = (s: AppState) => s.result;
export const selectTokens = (s: AppState) => s.tokens;
export const selectError = (s: AppState) => s.error;
export const selectNotice = (s: AppState) => s.notice;
export const selectSelectedIndex = (s: AppState) => s.selectedIndex;
export const selectChunkCount = (s: AppState) => s.result?.starts.length ?? 0;
export const selectStats = (s: AppState) => s.result?.stats ?? null;
export const selectRunning = (s: AppState) => s.running;
export const selectProgress = (s: AppState) => s.progress;
export const selectDocLength = (s: AppState) => s.text.length;
export const selectDocName = (s: AppState) => s.docName;
export const selectDocumentSerial = (s: AppState) => s.documentSerial;

/**
 * Above this many characters a document is shown in the read-only view instead of the editor (until the person
 * asks to edit it). Loading 10 MiB into Monaco took 2-3 s of main-thread pieces on two cores, and a piece now and
 * then became a long task when a collection or the chunk worker landed in it; the view draws only the lines on screen.
 */
export const VIEW_ONLY_DOCUMENT = 4 * 1024 * 1024;
/** Whether a document of `length` characters is shown read-only (`editing`: the person asked for the editor). */
export function isViewOnly(length: number, editing: boolean): boolean {
  return length > VIEW_ONLY_DOCUMENT && !editing;
}

/** Whether the document on the page is shown in the read-only view (LargeDocumentView) instead of the editor. */
export const selectViewOnly = (s: AppState) => isViewOnly(s.text.length, s.editLargeSerial === s.documentSerial);

/** The chunks on screen are the previous document's: a new one is still being chunked (a 10 MiB paste, a second). */
export function showsPreviousDocument(result: PaintableResult | null, documentSerial: number): boolean {
  return result !== null && result.documentSerial !== documentSerial;
}

export const selectStrategy = (s: AppState): StrategyDescription => strategyDefinition(s.config.strategy);

/** Token count of each painted chunk, when known: the worker's counts, or the sizes themselves for token units. */
export function tokensFor(result: PaintableResult | null, tokens: TokenCounts | null): { counts: ArrayLike<number>; encoding: string } | null {
  if (!result) return null;
  if (tokens && tokens.jobId === result.jobId) return { counts: tokens.tokens, encoding: tokens.encoding };
  if (unitDescriptor(result.unit)?.tokenizer) return { counts: result.sizes, encoding: result.unit };
  return null;
}

export interface ContextBudget {
  /** Mean chunk size in tokens (null until token counts arrive). */
  meanTokens: number | null;
  chunksInContext: number;
  /** k × mean tokens. */
  usedTokens: number | null;
  contextWindow: number;
  /** usedTokens / contextWindow. */
  fraction: number | null;
  encoding: string | null;
}

let budgetMemo: { key: unknown[]; value: ContextBudget } | null = null;

/** k chunks × mean size (in tokens) against the context window the user set. Memoized on its inputs. */
export function selectContextBudget(s: AppState): ContextBudget {
  const key = [s.result, s.tokens, s.config.contextWindow, s.config.chunksInContext];
  if (budgetMemo && budgetMemo.key.every((v, i) => v === key[i])) return budgetMemo.value;
  const counts = tokensFor(s.result, s.tokens);
  let meanTokens: number | null = null;
  if (counts && counts.counts.length > 0) {
    let sum = 0;
    for (let i = 0; i < counts.counts.length; i++) sum += counts.counts[i]!;
    meanTokens = sum / counts.counts.length;
  }
  const k = s.config.chunksInContext;
  const usedTokens = meanTokens === null ? null : meanTokens * k;
  const value: ContextBudget = {
    meanTokens,
    chunksInContext: k,
    usedTokens,
    contextWindow: s.config.contextWindow,
    fraction: usedTokens === null || s.config.contextWindow <= 0 ? null : usedTokens / s.config.contextWindow,
    encoding: counts?.encoding ?? null,
  };
  budgetMemo = { key, value };
  return value;
}

/** Indices of the chunks that contain `offset` (several where chunks overlap), by binary search. */
export function chunksAt(starts: Int32Array, ends: Int32Array, offset: number): number[] {
  let lo = 0;
  let hi = starts.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= offset) {
      last = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const found: number[] = [];
  for (let i = last; i >= 0; i--) {
    if (ends[i]! > offset) found.push(i);
    else break; // ends are in order too: no earlier chunk reaches this offset
  }
  return found.reverse();
}

/** Embedder token counts for the painted semantic result (null until they arrive, or for other strategies). */
export function selectEmbedderTokens(s: AppState): { counts: Int32Array; truncatedAt: Int32Array } | null {
  const t = s.embedderTokens;
  return t && s.result?.semantic && t.jobId === s.result.jobId ? t : null;
}

/** What the page draws for one painted chunk beyond its offsets (structure-aware strategies, retrieval units). */
export interface ChunkExtras {
  /** Ancestor heading titles, outermost first; null when the strategy gives none. */
  headingPath: string[] | null;
  contentType: 'text' | 'table' | 'code';
  caption: string | null;
  /** Injected text before the source span (contextual header, repeated table header); '' when none. */
  prefix: string;
  /** Size of the prefix in the unit (part of the chunk's size). */
  prefixSize: number;
  /** What a pipeline embeds: prefix + source span, or the chunk's own content where it differs from that. */
  content: string;
  /** True when the embedded content is not just the source span. */
  contentDiffers: boolean;
  /** First and last page (1-based), when the document has pages. */
  pages: [number, number] | null;
  /** Sentence windows: the window's source span. */
  window: { start: number; end: number } | null;
  /** Retrieval units: index of the direct parent in `result.structure.parents` (-1 none), and the leaf's level. */
  parent: number;
  level: number;
}

const CONTENT_TYPES = ['text', 'table', 'code'] as const;

/** The extras of leaf `i` of a painted result (cheap: array reads; the content string is built on demand). */
export function chunkExtras(result: PaintableResult, i: number): ChunkExtras {
  const s = result.structure;
  const text = result.text.slice(result.starts[i]!, result.ends[i]!);
  if (!s) {
    return {
      headingPath: null,
      contentType: 'text',
      caption: null,
      prefix: '',
      prefixSize: 0,
      content: text,
      contentDiffers: result.contentDiffers[i] === 1,
      pages: null,
      window: null,
      parent: -1,
      level: 0,
    };
  }
  const pathAt = s.pathIndex[i]!;
  const prefixAt = s.prefixIndex ? s.prefixIndex[i]! : -1;
  const prefix = prefixAt >= 0 ? s.strings[prefixAt]! : '';
  const contentAt = s.contentIndex ? s.contentIndex[i]! : -1;
  const captionAt = s.captionIndex ? s.captionIndex[i]! : -1;
  const windowStart = s.windowStarts ? s.windowStarts[i]! : -1;
  const pageFirst = s.pageFirst ? s.pageFirst[i]! : 0;
  return {
    headingPath: pathAt >= 0 ? s.paths[pathAt]! : null,
    contentType: CONTENT_TYPES[s.contentTypes ? s.contentTypes[i]! : 0] ?? 'text',
    caption: captionAt >= 0 ? s.strings[captionAt]! : null,
    prefix,
    prefixSize: prefixAt >= 0 && s.prefixSizes ? s.prefixSizes[i]! : 0,
    content: contentAt >= 0 ? s.strings[contentAt]! : prefix + text,
    contentDiffers: result.contentDiffers[i] === 1,
    pages: pageFirst > 0 ? [pageFirst, s.pageLast![i]!] : null,
    window: windowStart >= 0 ? { start: windowStart, end: s.windowEnds![i]! } : null,
    parent: s.leafParent ? s.leafParent[i]! : -1,
    level: s.leafLevel ? s.leafLevel[i]! : 0,
  };
}

/** Breadcrumb text as drawn on chunks: titles joined by › (empty string for an empty path). */
export function breadcrumbText(path: readonly string[]): string {
  return path.join(' › ');
}

/** "p. 3" or "p. 3–4". */
export function pagesLabel(pages: readonly [number, number]): string {
  return pages[0] === pages[1] ? `p. ${pages[0]}` : `p. ${pages[0]}–${pages[1]}`;
}

/** Retrieval units of a painted result: how many enclosing units and leaves (null without retrieval units). */
export function unitCounts(result: PaintableResult | null): { parents: number; leaves: number; levels: number } | null {
  const parents = result?.structure?.parents;
  if (!result || !parents) return null;
  let maxLevel = 0;
  for (let i = 0; i < parents.levels.length; i++) maxLevel = Math.max(maxLevel, parents.levels[i]!);
  return { parents: parents.starts.length, leaves: result.starts.length, levels: maxLevel + 2 };
}
