/**
 * The engine's entry: chunk() and what it is made of (buildChunks, the options key of chunk ids). Its own module so
 * that the layers above the engine (the evaluation lab in ./eval) import it without importing ./index.ts, which
 * re-exports them: no import circle.
 */
import { chunkIdMaker, documentIdFor, structuralIdMaker } from './ids';
import { loadOnce } from './loadOnce';
import { meterFor } from './measure';
import { RunGuard } from './merge';
import { ENGINE_OPTIONS } from './optionTable';
import { validateOptions } from './options';
import type { SplitSpan } from './registry';
import { getStrategy, loadStrategy } from './strategies';
import type { Chunk, ChunkContext, ChunkDetail, ChunkOptions, EmbedTexts, LoadWasm, ResolvedOptions, Unit } from './types';
import { getUnit } from './units';
import { unitSizeLimit } from './patterns/limits';
import { CHUNKER_NAME, CHUNKER_VERSION } from './version';

/** The retrieval modes' splitters (parent-child, window, hierarchical), loaded when a job first chooses one. */
const loadRetrievalPatterns = loadOnce(() => import('./patterns'));
/** Contextual headers, loaded when a job first asks for them. */
const loadHeaders = loadOnce(() => import('./headers'));

export interface ChunkHooks {
  /** Called with a fraction in [0, 1] during long runs. */
  onProgress?: (fraction: number) => void;
  /** Checked between pieces of work; when it turns true the run throws an Error named 'AbortError'. */
  signal?: { aborted: boolean };
  /** The semantic strategy's embeddings: one vector per text, in order (texts are never blank). */
  embed?: EmbedTexts;
  /** Why the result may surprise, one line each (semantic: one sentence, gaps without a distance, ...). */
  onNote?: (message: string) => void;
  /** What the strategy tells besides its chunks (semantic: distances, sentences, breakpoints), for a page to draw. */
  onDetail?: (detail: ChunkDetail) => void;
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
  if (getStrategy(resolved.strategy).needsEmbeddings && !hooks.embed) {
    throw new Error(`the ${resolved.strategy} strategy needs embeddings: pass hooks.embed (e.g. from createEmbedder in src/embed)`);
  }
  new RunGuard(hooks, text.length).check(); // already cancelled: do no work
  if (resolved.compat === 'none' && text.trim() === '') return [];
  const unit = await getUnit(resolved.unit);
  const ctx: ChunkContext = {
    unit,
    options: resolved,
    onProgress: hooks.onProgress,
    signal: hooks.signal,
    embed: hooks.embed,
    onNote: hooks.onNote,
    onDetail: hooks.onDetail,
    loadWasm: hooks.loadWasm,
  };
  const strategy = await loadStrategy(resolved.strategy);
  // The document's sections and heading ancestry: needed by contextual headers and retrieval units only.
  const needsStructure = resolved.headers || resolved.retrieval !== 'chunks';
  const structure = needsStructure && strategy.structure && resolved.compat === 'none' ? await strategy.structure(text, ctx) : null;

  // A contextual header counts in the size: cut to the size minus the largest header (at most half the size).
  const headers = resolved.headers ? await loadHeaders() : null;
  const header = headers && resolved.headers ? headers.headerContext(resolved.headers, structure, resolved.path ?? null) : null;
  let splitCtx = ctx;
  if (headers && header && !strategy.unsized?.(resolved)) {
    const room = Math.min(headers.largestHeaderSize(header, structure, unit), Math.floor(resolved.size / 2));
    const size = resolved.size - room;
    splitCtx = { ...ctx, options: { ...resolved, size, overlap: Math.min(resolved.overlap, Math.max(0, size - 1)) } };
  }

  let spans: SplitSpan[];
  if (resolved.retrieval !== 'chunks') {
    const { splitRetrievalUnits } = await loadRetrievalPatterns();
    spans = await splitRetrievalUnits(text, strategy, splitCtx, structure); // computed once, above
  } else {
    spans = await strategy.split(text, splitCtx);
  }
  if (headers && header) spans = headers.withHeaders(text, spans, header);
  const chunks = buildChunks(text, spans, resolved, unit);
  hooks.onProgress?.(1);
  return chunks;
}

/**
 * Spans to Chunk objects: text, content, size re-counted in the unit, stable id, metadata (strategy, compat, unit,
 * document id, position, oversize; heading path, content type, caption and injected prefix from structure-aware
 * strategies; level, parent id, leaf and window for retrieval units; pages from `pageStarts`; language; chunker).
 * The one place this happens, so the page's worker (which re-splits cached semantic analyses itself) produces the
 * same chunks as chunk() and the CLI.
 */
export function buildChunks(text: string, spans: readonly SplitSpan[], resolved: ResolvedOptions, unit: Unit): Chunk[] {
  const documentId = resolved.documentId ?? documentIdFor(text);
  const key = optionsKey(resolved);
  // One id maker per retrieval level: a unit and its only child may share a span (and content) but not an id.
  const makers = new Map<number | undefined, { span: ReturnType<typeof chunkIdMaker>; structural: ReturnType<typeof structuralIdMaker> }>();
  const idOf = (span: SplitSpan, content: string): string => {
    let maker = makers.get(span.level);
    if (!maker) {
      const levelKey = span.level === undefined ? key : `${key}\u0000level ${span.level}`;
      maker = { span: chunkIdMaker(documentId, levelKey), structural: structuralIdMaker(documentId, levelKey) };
      makers.set(span.level, maker);
    }
    return span.headingPath ? maker.structural(span.headingPath, content) : maker.span(span.start, span.end);
  };
  const meter = meterFor(unit, text);
  // Semantic chunks have no `size` setting, nor do the markdown compat modes (LangChain and LlamaIndex apply none):
  // only a maximum (when given) makes a chunk oversize.
  const description = getStrategy(resolved.strategy);
  const unsized = description.unsized?.(resolved) ?? false;
  // The document's language as far as the options say: a code grammar or language preset, else the locale of
  // strategies that segment sentences; none for the others (no guess).
  const language =
    resolved.language ?? description.language?.detect?.(resolved) ?? (description.controls.includes('locale') ? resolved.locale : undefined);
  const pageStarts = resolved.pageStarts ?? null;
  const positions = new Map<number, number>();
  const chunks: Chunk[] = [];
  for (const span of spans) {
    const chunkText = text.slice(span.start, span.end);
    const content = span.content ?? chunkText;
    // Re-counted, through the meter's per-span memo: re-running on the same document (a slider move) is cheap.
    const size = span.content === undefined ? meter.exact(span.start, span.end) : unit.count(content);
    const level = span.level ?? 0;
    const limit = unsized ? (resolved.maxSize ?? Infinity) : span.level === undefined ? resolved.size : unitSizeLimit({ level }, resolved);
    const position = positions.get(level) ?? 0;
    positions.set(level, position + 1);
    const metadata: Chunk['metadata'] = {
      strategy: resolved.strategy,
      compat: resolved.compat,
      unit: resolved.unit,
      documentId,
      position,
    };
    if (span.oversize || size > limit) metadata.oversize = true;
    if (span.distanceBefore !== undefined && Number.isFinite(span.distanceBefore)) metadata.distanceBefore = span.distanceBefore;
    if (span.headingPath) metadata.headingPath = span.headingPath;
    if (span.contentType) metadata.contentType = span.contentType;
    if (span.caption !== undefined) metadata.caption = span.caption;
    if (span.signature !== undefined) metadata.signature = span.signature;
    if (span.prefix) {
      metadata.prefix = span.prefix;
      metadata.prefixSize = unit.count(span.prefix);
    }
    if (span.level !== undefined) {
      metadata.level = span.level;
      metadata.leaf = span.leaf ?? true;
      if (span.parent !== undefined && span.parent !== null) metadata.parentId = chunks[span.parent]!.id;
    }
    if (span.window) metadata.window = { start: span.window.start, end: span.window.end };
    if (pageStarts) metadata.pages = pagesOf(pageStarts, span.start, span.end);
    if (language) metadata.language = language;
    if (span.metadata) Object.assign(metadata, span.metadata);
    metadata.chunker = CHUNKER_NAME;
    metadata.chunkerVersion = CHUNKER_VERSION;
    chunks.push({
      index: chunks.length,
      start: span.start,
      end: span.end,
      text: chunkText,
      content,
      size,
      id: idOf(span, content),
      metadata,
    });
  }
  return chunks;
}

/** 1-based numbers of the pages [start, end) touches (pageStarts[i] is where page i + 1 starts). */
export function pagesOf(pageStarts: readonly number[], start: number, end: number): number[] {
  const pageAt = (offset: number): number => {
    let lo = 0;
    let hi = pageStarts.length - 1;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (pageStarts[mid]! <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found + 1;
  };
  const first = pageAt(start);
  const last = pageAt(Math.max(start, end - 1));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/**
 * A canonical string of the options that shape the chunks (the document id is hashed separately): the option
 * table's options, in its order, that shape chunks under these options (by default those the strategy lists among
 * its controls). Options the strategy ignores (e.g. separators for `fixed`) are left out, so the page, which always
 * has a separators box, and the CLI, which may not pass one, give the same ids.
 */
export function optionsKey(options: ResolvedOptions): string {
  const strategy = getStrategy(options.strategy);
  const shaping: [string, unknown][] = [];
  for (const spec of ENGINE_OPTIONS) {
    const shapes = spec.shapes ? spec.shapes(options, strategy) : (strategy.controls as string[]).includes(spec.name);
    if (shapes) shaping.push([spec.name, (options as unknown as Record<string, unknown>)[spec.name] ?? null]);
  }
  return JSON.stringify(shaping);
}
