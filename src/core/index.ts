/**
 * The public API of the Chunkscope engine: the same functions run in the Web Worker, the CLI and the library.
 */
import { splitLangchain } from './compat/langchain';
import { chunkIdMaker, documentIdFor } from './ids';
import { meterFor } from './measure';
import { RunGuard } from './merge';
import { validateOptions } from './options';
import type { SplitSpan } from './registry';
import { getStrategy } from './strategies';
import type { Chunk, ChunkContext, ChunkOptions, EmbedTexts, LoadWasm, ResolvedOptions, Unit } from './types';
import { getUnit } from './units';

export interface ChunkHooks {
  /** Called with a fraction in [0, 1] during long runs. */
  onProgress?: (fraction: number) => void;
  /** Checked between pieces of work; when it turns true the run throws an Error named 'AbortError'. */
  signal?: { aborted: boolean };
  /** The semantic strategy's embeddings: one vector per text, in order (texts are never blank). */
  embed?: EmbedTexts;
  /** Why the result may surprise, one line each (semantic: one sentence, gaps without a distance, ...). */
  onNote?: (message: string) => void;
  /** Code strategy: reads a wasm file by name (Node default: from node_modules; the worker: bundled assets). */
  loadWasm?: LoadWasm;
}

/**
 * Cut `text` into chunks. Options are validated first (ChunkOptionsError on a bad one). Native modes return [] for
 * empty or whitespace-only text; compat modes return whatever the reference library returns.
 */
export async function chunk(text: string, options: ChunkOptions = {}, hooks: ChunkHooks = {}): Promise<Chunk[]> {
  if (typeof text !== 'string') throw new TypeError('chunk(text, options): text must be a string');
  const resolved = validateOptions(options);
  if (resolved.strategy === 'semantic' && !hooks.embed) {
    throw new Error('the semantic strategy needs embeddings: pass hooks.embed (e.g. from createEmbedder in src/embed)');
  }
  new RunGuard(hooks, text.length).check(); // already cancelled: do no work
  if (resolved.compat === 'none' && text.trim() === '') return [];
  const unit = await getUnit(resolved.unit);
  const ctx: ChunkContext = { unit, options: resolved, onProgress: hooks.onProgress, signal: hooks.signal, embed: hooks.embed, onNote: hooks.onNote };
  // Semantic's compat modes live in its own splitter (src/core/semantic), not in the LangChain text splitters.
  const spans: SplitSpan[] =
    resolved.compat === 'langchain' && resolved.strategy !== 'semantic'
      ? await splitLangchain(text, ctx)
      : await getStrategy(resolved.strategy).split(text, ctx);
  const chunks = buildChunks(text, spans, resolved, unit);
  hooks.onProgress?.(1);
  return chunks;
}

/**
 * Spans to Chunk objects: text, content, size re-counted in the unit, stable id, metadata (strategy, compat, unit,
 * oversize, and for semantic chunks `distanceBefore`, the distance at the sentence gap the chunk starts after).
 * The one place this happens, so the page's worker (which re-splits cached semantic analyses itself) produces the
 * same chunks as chunk() and the CLI.
 */
export function buildChunks(text: string, spans: readonly SplitSpan[], resolved: ResolvedOptions, unit: Unit): Chunk[] {
  const documentId = resolved.documentId ?? documentIdFor(text);
  const chunkId = chunkIdMaker(documentId, optionsKey(resolved));
  const meter = meterFor(unit, text);
  // Semantic chunks have no `size` setting: only its maximum (when given) makes a chunk oversize.
  const limit = resolved.strategy === 'semantic' ? (resolved.maxSize ?? Infinity) : resolved.size;
  const chunks: Chunk[] = [];
  for (const span of spans) {
    const chunkText = text.slice(span.start, span.end);
    const content = span.content ?? chunkText;
    // Re-counted, through the meter's per-span memo: re-running on the same document (a slider move) is cheap.
    const size = span.content === undefined ? meter.exact(span.start, span.end) : unit.count(content);
    const metadata: Chunk['metadata'] = { strategy: resolved.strategy, compat: resolved.compat, unit: resolved.unit };
    if (span.oversize || size > limit) metadata.oversize = true;
    if (span.distanceBefore !== undefined && Number.isFinite(span.distanceBefore)) metadata.distanceBefore = span.distanceBefore;
    chunks.push({
      index: chunks.length,
      start: span.start,
      end: span.end,
      text: chunkText,
      content,
      size,
      id: chunkId(span.start, span.end),
      metadata,
    });
  }
  return chunks;
}

/**
 * A canonical string of the options that shape the chunks (the document id is hashed separately). Options the
 * strategy ignores (e.g. separators for `fixed`) are left out, so the page, which always has a separators box,
 * and the CLI, which may not pass one, give the same ids.
 */
export function optionsKey(options: ResolvedOptions): string {
  const controls = new Set<string>(getStrategy(options.strategy).controls);
  const shaping: [string, unknown][] = [
    ['strategy', options.strategy],
    ['size', options.size],
    ['overlap', options.overlap],
    ['unit', options.unit],
    ['compat', options.compat],
  ];
  if (controls.has('separators')) {
    shaping.push(['separators', options.separators], ['separatorsAreRegex', options.separatorsAreRegex]);
  }
  if (controls.has('keepSeparator')) shaping.push(['keepSeparator', options.keepSeparator]);
  if (controls.has('language')) shaping.push(['language', options.language]);
  if (controls.has('locale')) shaping.push(['locale', options.locale]);
  if (options.strategy === 'semantic') {
    // Size and overlap do not apply; everything that changes the embeddings or the cuts does.
    shaping.splice(1, 2);
    shaping.push(
      ['embedder', options.embedder],
      ['sentences', options.sentences],
      ['buffer', options.buffer],
      ['breakpoint', options.breakpoint],
      ['amount', options.amount],
      ['chunks', options.chunks],
      ['minSize', options.minSize],
      ['maxSize', options.maxSize],
    );
  }
  return JSON.stringify(shaping);
}

export { validateOptions, ChunkOptionsError, BASE_DEFAULTS, KEEP_SEPARATOR_VALUES, COMPAT_MODES, SENTENCE_FINDERS } from './options';
export { semanticPrepareOptions, semanticSplitParams } from './splitters/semantic';
export {
  prepareSemantic,
  analyseSemantic,
  splitSemantic,
  BREAKPOINT_MODES,
  BREAKPOINT_DEFAULTS,
  type SemanticPreparation,
  type SemanticAnalysis,
  type SemanticParams,
  type SemanticResult,
  type SemanticSpan,
} from './semantic';
export { STRATEGIES, STRATEGY_NAMES, getStrategy } from './strategies';
export { LANGUAGE_PRESETS, LANGUAGE_NAMES, LANGCHAIN_JS_LANGUAGES } from './languages';
export { UNIT_NAMES, getUnit, isTokenEncoding, TOKEN_ENCODINGS } from './units';
export { chunkOverlaps, chunkStats, type ChunkStats } from './stats';
export { documentIdFor, hashString } from './ids';
export { checkSeparatorRegex } from './separator-regex';
export { formatChunks, EXPORT_FORMATS, type ExportFormat } from './format';
export type { StrategyDefinition, SplitSpan, ControlName } from './registry';
export type * from './types';
