import { meterFor, type SpanMeter } from '../measure';
import { packLevels, RunGuard, type Level, type MergeParams } from '../merge';
import type { SplitSpan } from '../registry';
import { separatorLevels } from '../segment/separators';
import type { Range, Unit } from '../types';
import { charsUnit } from '../units/chars';
import {
  BREAKPOINT_DEFAULTS,
  cutsAbove,
  percentileForChunkCount,
  suppressedCuts,
  thresholdOf,
  ValueStats,
  type BreakpointMode,
} from './breakpoints';
import { embeddingInputs, type EmbeddingInputs, type WindowJoin } from './buffer';
import { cosineDistances, type DegenerateCosine, type Vector } from './distances';
import { npGradient } from './numpy';
import { semanticSentences, type SentenceShape } from './sentences';
import { unitDescriptor } from '../units';

/**
 * The semantic splitter as a pure function of sentences and their embeddings, in steps so that the expensive part
 * (embedding) happens once and a new threshold or mode is cheap:
 *
 *   const prep = prepareSemantic(source, { compat, bufferSize });   // sentences + the strings to embed
 *   const vectors = await embed(prep.inputs.texts);                  // outside core (worker, CLI)
 *   const analysis = analyseSemantic(prep, vectors);                  // distances, gradient: O(n·dim), once
 *   const result = splitSemantic(analysis, { breakpoint, amount });   // O(n) per threshold or mode change
 *
 * Modes:
 * - 'langchain' reproduces langchain_experimental's SemanticChunker given the same embeddings: regex sentences,
 *   windows joined with " ", strict `>` against numpy's threshold, small groups merged forward (min_chunk_size),
 *   each chunk's `content` being its sentences joined with " " (its offsets are the source span they come from).
 * - 'llamaindex' reproduces llama_index's SemanticSplitterNodeParser: contiguous sentences, windows concatenated,
 *   percentile cut; content equals the source span exactly.
 * - 'none' (native): trimmed Intl.Segmenter sentences, windows embedded as their source text, the same thresholds,
 *   but one cut per drop (see suppressedCuts), an exact target number of chunks, and a small group merged into the
 *   neighbour it is closer to (the side whose boundary has the smaller distance), so every chunk reaches the minimum
 *   unless the whole text is smaller. An oversize group is cut at its strongest inner gap, recursively.
 * In every mode a group over `maxSize` is split further; a single sentence over it goes through the core's
 * recursive packing (lines, words, graphemes). The reference libraries have no maximum: with `maxSize` set, compat
 * output differs from theirs by design.
 */

export type SemanticCompat = 'none' | 'langchain' | 'llamaindex';

export const SEMANTIC_COMPAT_MODES: SemanticCompat[] = ['none', 'langchain', 'llamaindex'];

interface ModeSetup {
  shape: SentenceShape;
  join: WindowJoin;
  degenerate: DegenerateCosine;
}

const SETUP: Record<SemanticCompat, ModeSetup> = {
  none: { shape: 'trimmed', join: 'source', degenerate: 'nan' },
  langchain: { shape: 'langchain', join: 'space', degenerate: 'zero-similarity' },
  llamaindex: { shape: 'contiguous', join: 'concat', degenerate: 'nan' },
};

export interface PrepareOptions {
  compat?: SemanticCompat;
  /** Neighbours on each side joined to a sentence before embedding (default 1, as both references). */
  bufferSize?: number;
  /** Intl.Segmenter locale (default 'en'). */
  locale?: string;
  /** Native only: find sentences with LangChain's regex instead of Intl.Segmenter. */
  regexSentences?: boolean;
}

export interface SemanticPreparation {
  source: string;
  compat: SemanticCompat;
  bufferSize: number;
  sentences: Range[];
  inputs: EmbeddingInputs;
}

/** Step 1: sentences and the strings to embed (never blank). */
export function prepareSemantic(source: string, options: PrepareOptions = {}): SemanticPreparation {
  const compat = options.compat ?? 'none';
  const bufferSize = options.bufferSize ?? 1;
  if (!Number.isInteger(bufferSize) || bufferSize < 0) throw new RangeError(`buffer must be a whole number >= 0, got ${bufferSize}`);
  const setup = SETUP[compat];
  const sentences = semanticSentences(source, { shape: setup.shape, locale: options.locale, regex: options.regexSentences });
  return { source, compat, bufferSize, sentences, inputs: embeddingInputs(source, sentences, bufferSize, setup.join) };
}

export interface SemanticAnalysis {
  preparation: SemanticPreparation;
  /** distances[i]: 1 − cosine between the windows of sentences i and i + 1 (NaN next to a blank window). */
  distances: Float64Array;
  /** np.gradient of the distances (empty with fewer than 2 distances). */
  gradient: Float64Array;
  distanceStats: ValueStats;
  gradientStats: ValueStats;
}

/** Step 3: distances from the embeddings of `preparation.inputs.texts` (same order). */
export function analyseSemantic(preparation: SemanticPreparation, embeddings: readonly Vector[]): SemanticAnalysis {
  const { inputs, compat } = preparation;
  if (embeddings.length !== inputs.texts.length) {
    throw new Error(`expected ${inputs.texts.length} embeddings, got ${embeddings.length}`);
  }
  const distances = cosineDistances(embeddings, inputs.textOfSentence, SETUP[compat].degenerate);
  const gradient = npGradient(distances);
  const distanceStats = new ValueStats(distances);
  const gradientStats = new ValueStats(gradient);
  // Each statistic (sorted values, descending order, std) is computed on the first split that asks for it and kept
  // with the analysis, so later threshold changes are O(n); a one-shot run (the CLI) never sorts the gradient.
  return { preparation, distances, gradient, distanceStats, gradientStats };
}

export interface SemanticParams {
  breakpoint?: BreakpointMode;
  /** The mode's amount (percentile, k, or the distance for 'absolute'); default per mode (LangChain's). */
  amount?: number;
  /**
   * A threshold that replaces the one the mode computes, in the scale of the compared values (distances, or the
   * gradient in gradient mode): what the page sets while the threshold line is dragged.
   */
  threshold?: number;
  /** A target number of chunks; overrides the threshold (compat: LangChain's percentile map; native: exact). */
  chunks?: number;
  /** Groups smaller than this (in `unit`) are merged (see the modes above). */
  minSize?: number;
  /** Groups larger than this (in `unit`) are split further. */
  maxSize?: number;
  unit?: Unit;
}

export interface SemanticSpan extends SplitSpan {
  /** First and last sentence (indices into preparation.sentences) the chunk touches. */
  firstSentence: number;
  lastSentence: number;
  /** The gap this chunk starts after, or −1 (first chunk, or a cut made by the maximum size). */
  gapBefore: number;
  /** distances[gapBefore], NaN when gapBefore is −1. */
  distanceBefore: number;
}

export interface SemanticResult {
  spans: SemanticSpan[];
  /** The threshold in the compared values' scale (NaN when nothing was compared, e.g. one sentence). */
  threshold: number;
  /** What the threshold was compared with: the distances, or their gradient (gradient mode). */
  comparedWith: 'distance' | 'gradient';
  /** The values the threshold applies to (the distances or the gradient), one per gap. */
  values: Float64Array;
  distances: Float64Array;
  /** The gaps cut on semantic grounds, ascending, after merging small groups. */
  breakpoints: number[];
  /** Why the result may surprise (one sentence, gaps without a distance, ...): one line each, for the page and CLI. */
  notes: string[];
}

/** Step 4: the chunks for one breakpoint setting. O(n) in sentences (plus sizing in the unit). */
export function splitSemantic(analysis: SemanticAnalysis, params: SemanticParams = {}): SemanticResult {
  const { preparation, distances } = analysis;
  const { source, sentences, compat } = preparation;
  const mode = params.breakpoint ?? 'percentile';
  // A target number of chunks replaces the threshold, so the mode's amount is then unused.
  const amount = params.chunks === undefined && params.threshold === undefined ? resolveAmount(mode, params.amount) : NaN;
  if (params.threshold !== undefined && Number.isNaN(params.threshold)) throw new RangeError('threshold must be a number');
  const unit = params.unit ?? charsUnit;
  checkSizes(params);

  const useGradient = mode === 'gradient' && params.chunks === undefined;
  const values = useGradient ? analysis.gradient : distances;
  const stats = useGradient ? analysis.gradientStats : analysis.distanceStats;
  const n = sentences.length;

  let threshold = NaN;
  let cuts: number[];
  if (compat === 'langchain' && mode === 'gradient' && n === 2) {
    // LangChain returns the two sentences as they are (np.gradient needs two distances), before it even looks at
    // number_of_chunks.
    cuts = [0];
  } else if (n < 2) {
    cuts = [];
  } else if (compat === 'none') {
    const radius = Math.max(1, preparation.bufferSize);
    if (params.chunks !== undefined) {
      const picked = suppressedCuts(values, stats.descending, -Infinity, radius, params.chunks - 1);
      cuts = picked.cuts;
      threshold = Number.isNaN(picked.nextValue) ? (stats.sorted[0] ?? NaN) : picked.nextValue;
    } else {
      threshold = params.threshold ?? thresholdOf(mode, amount, stats);
      cuts = suppressedCuts(values, stats.descendingAbove(threshold), threshold, radius).cuts;
    }
  } else {
    threshold =
      params.chunks !== undefined
        ? stats.percentile(percentileForChunkCount(params.chunks, distances.length))
        : (params.threshold ?? thresholdOf(mode, amount, stats));
    cuts = cutsAbove(values, threshold);
  }

  const meter = meterFor(unit, source);
  let groups = groupsFromCuts(cuts, n);
  if (params.minSize !== undefined && groups.length > 1) {
    groups =
      compat === 'none'
        ? mergeSmallNative(groups, params.minSize, distances, (g) => meter.estimate(sentences[g.first]!.start, sentences[g.last]!.end))
        : mergeSmallForward(
            groups,
            params.minSize,
            compat === 'langchain' ? langchainSizer(source, sentences, unit) : (g) => meter.exact(sentences[g.first]!.start, sentences[g.last]!.end),
          );
  }

  const spans: SemanticSpan[] = [];
  const out = { spans, source, sentences, compat, distances, meter, unit };
  for (const g of groups) emitGroup(out, g, params.maxSize);
  const breakpoints = groups.slice(1).map((g) => g.first - 1);
  const notes = notesFor(analysis, n, useGradient);
  return { spans, threshold, comparedWith: useGradient ? 'gradient' : 'distance', values, distances, breakpoints, notes };
}

function notesFor(analysis: SemanticAnalysis, n: number, useGradient: boolean): string[] {
  const notes: string[] = [];
  if (n === 1) notes.push('one sentence: nothing to compare, the text is one chunk');
  const gaps = analysis.distances.length;
  const missing = gaps - analysis.distanceStats.finiteCount;
  if (missing > 0) {
    notes.push(
      `${missing} of ${gaps} sentence gaps have no distance (a blank window or an all-zero embedding, e.g. only unknown words): they never cut`,
    );
  }
  if (useGradient && gaps > 0 && gaps < 2) notes.push('the gradient needs at least 3 sentences');
  return notes;
}

function resolveAmount(mode: BreakpointMode, amount: number | undefined): number {
  if (mode === 'absolute') {
    if (amount === undefined || !Number.isFinite(amount)) throw new RangeError('the absolute breakpoint needs a threshold (a distance, e.g. 0.3)');
    return amount;
  }
  const value = amount ?? BREAKPOINT_DEFAULTS[mode];
  if (!Number.isFinite(value)) throw new RangeError(`${mode} amount must be a number, got ${value}`);
  if ((mode === 'percentile' || mode === 'gradient') && (value < 0 || value > 100)) {
    throw new RangeError(`${mode} must be between 0 and 100, got ${value}`);
  }
  return value;
}

function checkSizes(params: SemanticParams): void {
  if (params.chunks !== undefined && (!Number.isInteger(params.chunks) || params.chunks < 1)) {
    throw new RangeError(`chunks must be a whole number >= 1, got ${params.chunks}`);
  }
  for (const key of ['minSize', 'maxSize'] as const) {
    const v = params[key];
    if (v !== undefined && !(v > 0 && Number.isFinite(v))) throw new RangeError(`${key} must be a positive number, got ${v}`);
  }
}

interface Group {
  first: number;
  last: number;
}

function groupsFromCuts(cuts: readonly number[], n: number): Group[] {
  if (n === 0) return [];
  const groups: Group[] = [];
  let first = 0;
  for (const c of cuts) {
    groups.push({ first, last: c });
    first = c + 1;
  }
  groups.push({ first, last: n - 1 });
  return groups;
}

/** LangChain's min_chunk_size: a group smaller than the minimum joins the next one; the last group stays as is. */
function mergeSmallForward(groups: readonly Group[], min: number, size: (g: Group) => number): Group[] {
  const out: Group[] = [];
  let first = 0;
  for (let k = 0; k < groups.length - 1; k++) {
    const g = { first, last: groups[k]!.last };
    if (size(g) < min) continue;
    out.push(g);
    first = g.last + 1;
  }
  out.push({ first, last: groups[groups.length - 1]!.last });
  return out;
}

/**
 * Native minimum: a small group joins the neighbour across its weaker boundary (the smaller distance; an unknown
 * distance counts as weakest), left to right in one pass. The last group, if small, joins the previous one.
 */
function mergeSmallNative(groups: readonly Group[], min: number, distances: Float64Array, size: (g: Group) => number): Group[] {
  const strength = (gap: number) => (Number.isNaN(distances[gap]!) ? -Infinity : distances[gap]!);
  const out: Group[] = [];
  let pending: Group | null = null;
  for (let k = 0; k < groups.length; k++) {
    const g: Group = pending ? { first: pending.first, last: groups[k]!.last } : groups[k]!;
    pending = null;
    if (size(g) >= min) {
      out.push(g);
      continue;
    }
    const prev = out[out.length - 1];
    const isLast = k === groups.length - 1;
    if (prev && (isLast || strength(prev.last) <= strength(g.last))) out[out.length - 1] = { first: prev.first, last: g.last };
    else if (!isLast) pending = g;
    else out.push(g);
  }
  return out;
}

/**
 * The size of a group's LangChain string, for the forward merge, which grows one group at a time: in characters it is
 * arithmetic (sentence lengths plus one space per join); in other units the string of the growing group is extended,
 * not rebuilt, so a long run of small groups costs O(total length), not its square.
 */
function langchainSizer(source: string, sentences: readonly Range[], unit: Unit): (g: Group) => number {
  if (unitDescriptor(unit.name)?.isLength) {
    const lengthBefore = new Float64Array(sentences.length + 1);
    sentences.forEach((r, k) => (lengthBefore[k + 1] = lengthBefore[k]! + r.end - r.start));
    return (g) => lengthBefore[g.last + 1]! - lengthBefore[g.first]! + (g.last - g.first);
  }
  let memo: { first: number; last: number; content: string } | null = null;
  return (g) => {
    if (memo && memo.first === g.first && memo.last < g.last) {
      const tail = langchainContent(source, sentences, { first: memo.last + 1, last: g.last });
      memo = { first: g.first, last: g.last, content: memo.content + ' ' + tail };
    } else {
      memo = { first: g.first, last: g.last, content: langchainContent(source, sentences, g) };
    }
    return unit.count(memo.content);
  };
}

/** LangChain's chunk string: the group's sentences joined with " ". */
function langchainContent(source: string, sentences: readonly Range[], g: Group): string {
  const parts: string[] = [];
  for (let k = g.first; k <= g.last; k++) parts.push(source.slice(sentences[k]!.start, sentences[k]!.end));
  return parts.join(' ');
}

interface Emitter {
  spans: SemanticSpan[];
  source: string;
  sentences: readonly Range[];
  compat: SemanticCompat;
  distances: Float64Array;
  meter: SpanMeter;
  unit: Unit;
}

function emitGroup(out: Emitter, g: Group, maxSize: number | undefined): void {
  const { source, sentences, compat, distances } = out;
  const start = sentences[g.first]!.start;
  const end = sentences[g.last]!.end;
  const gapBefore = g.first > 0 ? g.first - 1 : -1;
  const first = out.spans.length;
  if (maxSize === undefined || out.meter.exact(start, end) <= maxSize) {
    const span: SemanticSpan = { start, end, firstSentence: g.first, lastSentence: g.last, gapBefore, distanceBefore: NaN };
    if (compat === 'langchain') span.content = langchainContent(source, sentences, g);
    out.spans.push(span);
  } else if (compat === 'none') {
    splitAtStrongestGap(out, g, maxSize);
  } else {
    packOversize(out, start, end, [sentenceLevel(sentences), ...fallbackLevels(source)], maxSize);
  }
  // Only the first piece of a group starts at a semantic boundary.
  const head = out.spans[first];
  if (head) {
    head.gapBefore = gapBefore;
    head.distanceBefore = gapBefore >= 0 ? distances[gapBefore]! : NaN;
  }
}

/** Native: cut an oversize group at its largest inner distance, recursively; one sentence falls back to packing. */
function splitAtStrongestGap(out: Emitter, g: Group, maxSize: number): void {
  const { sentences, distances, meter } = out;
  const start = sentences[g.first]!.start;
  const end = sentences[g.last]!.end;
  if (meter.exact(start, end) <= maxSize) {
    out.spans.push({ start, end, firstSentence: g.first, lastSentence: g.last, gapBefore: -1, distanceBefore: NaN });
    return;
  }
  if (g.first === g.last) {
    packOversize(out, start, end, fallbackLevels(out.source), maxSize);
    return;
  }
  let best = g.first;
  let bestValue = -Infinity;
  for (let i = g.first; i < g.last; i++) {
    const v = Number.isNaN(distances[i]!) ? -Infinity : distances[i]!;
    if (v > bestValue) {
      bestValue = v;
      best = i;
    }
  }
  splitAtStrongestGap(out, { first: g.first, last: best }, maxSize);
  splitAtStrongestGap(out, { first: best + 1, last: g.last }, maxSize);
}

function fallbackLevels(source: string): Level[] {
  return separatorLevels(source, ['\n\n', '\n', ' ', ''], false, 'start');
}

/** The sentences inside [start, end), clipped to it (a level for packLevels). */
function sentenceLevel(sentences: readonly Range[]): Level {
  return (start, end) => {
    const out: Range[] = [];
    for (let k = firstEndingAfter(sentences, start); k < sentences.length && sentences[k]!.start < end; k++) {
      const s = Math.max(start, sentences[k]!.start);
      const e = Math.min(end, sentences[k]!.end);
      if (e > s) out.push({ start: s, end: e });
    }
    return out;
  };
}

function firstEndingAfter(sentences: readonly Range[], pos: number): number {
  let lo = 0;
  let hi = sentences.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sentences[mid]!.end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The core's recursive packing (merge.ts) for a range over the maximum, without overlap. */
function packOversize(out: Emitter, start: number, end: number, levels: Level[], maxSize: number): void {
  const { source, sentences, compat } = out;
  const params: MergeParams = { size: maxSize, overlap: 0, meter: out.meter, guard: new RunGuard({}, source.length) };
  const pieces: SplitSpan[] = [];
  packLevels(source, start, end, levels, params, pieces);
  for (const p of pieces) {
    const firstSentence = firstEndingAfter(sentences, p.start);
    let lastSentence = firstSentence;
    while (lastSentence + 1 < sentences.length && sentences[lastSentence + 1]!.start < p.end) lastSentence++;
    const span: SemanticSpan = { start: p.start, end: p.end, firstSentence, lastSentence, gapBefore: -1, distanceBefore: NaN };
    if (p.oversize) span.oversize = true;
    if (compat === 'langchain') span.content = clippedLangchainContent(source, sentences, firstSentence, lastSentence, p.start, p.end);
    out.spans.push(span);
  }
}

/** LangChain-style content of a span cut inside a group: its sentence parts joined with " ". */
function clippedLangchainContent(source: string, sentences: readonly Range[], first: number, last: number, start: number, end: number): string {
  const parts: string[] = [];
  for (let k = first; k <= last; k++) {
    const s = Math.max(start, sentences[k]!.start);
    const e = Math.min(end, sentences[k]!.end);
    if (e > s) parts.push(source.slice(s, e));
  }
  return parts.join(' ');
}

/** Embeds the strings it is given, in order (a transformers.js pipeline, the built-in model, a test table). */
export type EmbedFn = (texts: string[]) => Promise<readonly Vector[]> | readonly Vector[];

/**
 * All four steps at once, for one-off runs (CLI, tests). Callers that re-split (the page) keep the analysis and
 * call splitSemantic again instead. `embed` is not called when there is nothing to embed.
 */
export async function chunkSemantic(
  source: string,
  embed: EmbedFn,
  options: PrepareOptions & SemanticParams = {},
): Promise<SemanticResult & { analysis: SemanticAnalysis }> {
  const preparation = prepareSemantic(source, options);
  const texts = preparation.inputs.texts;
  const vectors = texts.length > 0 ? await embed(texts) : [];
  const analysis = analyseSemantic(preparation, vectors);
  return { ...splitSemantic(analysis, options), analysis };
}
