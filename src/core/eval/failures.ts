import type { Analyzer } from '../retrievers/tokenize';
import type { Chunk, Range } from '../types';
import { shareText } from './corpora';
import { intersectionLength, mergeRanges } from './metrics';
import { nearMiss, uncoveredParts } from './nearMiss';
import type { Reference } from './types';
import { vocabularyMismatch } from './vocabulary';

/**
 * Why a question missed or scored low, in words a person understands. One entry per cause; `reference` is the
 * answer span's index (from 0) when the cause is about one answer.
 */
export type FailureKind =
  | 'nothing-matched'
  | 'cut-across-boundary'
  | 'ranked-below-k'
  | 'not-matched'
  | 'oversized-chunk'
  | 'table-without-header'
  | 'reference-missing'
  | 'near-miss'
  | 'vocabulary-mismatch'
  | 'outside-chunks';

export interface Failure {
  kind: FailureKind;
  message: string;
  reference?: number;
  /** Chunk numbers (indexes in the document's chunks) the cause is about. */
  chunks?: number[];
  /** ranked-below-k: the best rank of a unit holding the answer. */
  rank?: number;
  /** cut-across-boundary: the offsets of the boundaries inside the answer. */
  boundaries?: number[];
  /** cut-across-boundary: each part's chunk, span and rank (null: did not match), and whether it was retrieved. */
  parts?: { chunk: number | null; start: number; end: number; rank: number | null; retrieved: boolean }[];
  /** near-miss: the retrieved neighbour and where it lies. */
  neighbour?: { chunk: number | null; rank: number; side: 'before' | 'after' };
  /** near-miss (neighbour after the answer): the overlap, in the chunk unit, that would carry the answer into it. */
  overlap?: number;
  /** near-miss (neighbour before the answer): how far, in the chunk unit, the answer runs past the neighbour's end. */
  beyond?: number;
  /** vocabulary-mismatch: what would help, and the words it is about. */
  hint?: 'stemming' | 'stop-words';
  words?: string[];
  /** outside-chunks: answer characters no chunk holds. */
  characters?: number;
}

/** A retrievable unit of the question's document, with the chunk it is (null for a sentence window). */
export interface ExplainUnit extends Range {
  chunk: Pick<Chunk, 'index' | 'size' | 'text' | 'content' | 'metadata'> | null;
  /** Rank (from 1) in the question's ranking; null when it did not match. */
  rank: number | null;
}

export interface ExplainInput {
  references: readonly Reference[];
  /** Every retrievable unit of the question's document. */
  units: readonly ExplainUnit[];
  k: number;
  /** Units matched in the whole index (all documents): 0 means the question matched nothing. */
  matchedCount: number;
  /** The size limit and unit of the chunks (for "oversized"). */
  sizeLimit?: number;
  unitName?: string;
  /** References the document no longer holds (anchoring): reported first. */
  missing?: readonly Reference[];
  /** The units next to the answer-bearing ones that bear no answer (near misses). */
  neighbours?: readonly ExplainUnit[];
  /** A span's size in the chunk unit (near misses); default: its length in characters. */
  measure?: (start: number, end: number) => number;
  /** The question and the analyzer of a word-matching retriever (BM25, hybrid): vocabulary mismatches. */
  question?: string;
  analyzer?: Analyzer | null;
  /** The k retrieved units (any document), best first: their indexed text (vocabulary mismatches). */
  retrieved?: readonly RetrievedText[];
}

/** A retrieved unit's rank, chunk number and indexed text. */
export interface RetrievedText {
  rank: number;
  chunk: number | null;
  text: string;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

export function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `"${oneLine.length > 48 ? oneLine.slice(0, 47) + '…' : oneLine}"`;
}

export function overlaps(a: Range, b: Range): boolean {
  return Math.min(a.end, b.end) > Math.max(a.start, b.start);
}

const TABLE_HEADER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/m;

/** A table chunk that does not carry its table's header (no markdown delimiter row, no <th>) in its text or content. */
export function tableWithoutHeader(chunk: Pick<Chunk, 'text' | 'content' | 'metadata'>): boolean {
  if (chunk.metadata.contentType !== 'table') return false;
  const has = (s: string) => TABLE_HEADER_ROW.test(s) || /<th[\s>]/i.test(s);
  return !has(chunk.text) && !has(chunk.content);
}

/** How a reference is named in a message: "the answer "…"" or "answer 2 ("…")". */
export type ReferenceLabel = (i: number) => string;

/** Whether a unit was among the k retrieved. */
export const isRetrieved = (u: ExplainUnit, k: number): boolean => u.rank !== null && u.rank <= k;

/** The causes for one question (empty when nothing went wrong). */
export function explainQuestion(input: ExplainInput): Failure[] {
  const out: Failure[] = [];
  const { k } = input;
  const label: ReferenceLabel = (i) => (input.references.length > 1 ? `answer ${i + 1} (${quote(input.references[i]!.content)})` : `the answer ${quote(input.references[i]!.content)}`);
  for (const ref of input.missing ?? []) {
    out.push({ kind: 'reference-missing', message: `the answer ${quote(ref.content)} is no longer in the document (left out)` });
  }
  if (input.matchedCount === 0) {
    out.push({ kind: 'nothing-matched', message: 'nothing matched: no chunk shares a word with the question' });
  }
  const flaggedChunks = new Set<number>();
  input.references.forEach((ref, i) => {
    const bearing = input.units.filter((u) => overlaps(u, ref));
    const retrieved = bearing.filter((u) => isRetrieved(u, k));
    const whole = bearing.filter((u) => u.start <= ref.start && u.end >= ref.end);
    if (whole.length === 0 && bearing.length > 1) out.push(cutAcross(ref, i, bearing, k, label));
    if (retrieved.length === 0 && bearing.length > 0) {
      const below = rankedOrUnmatched(i, bearing, k, input.matchedCount, label);
      if (below) out.push(below);
    } else if (whole.length > 0 && retrieved.length < bearing.length) {
      const rest = restNotRetrieved(ref, i, bearing, k, label);
      if (rest) out.push(rest);
    }
    if (retrieved.length < bearing.length) {
      const near = nearMiss(ref, i, bearing, input, label);
      if (near) out.push(near);
      out.push(...vocabularyMismatch(i, bearing, input, label));
    }
    out.push(...chunkFlags(ref, i, bearing, input, label, flaggedChunks));
    const outside = outsideChunks(ref, i, input.units, label);
    if (outside) out.push(outside);
  });
  return mergeRankedBelow(out, input);
}

const chunkName = (u: ExplainUnit): string => (u.chunk ? String(u.chunk.index) : `${u.start}–${u.end}`);
const listOf = (names: string[]): string => (names.length <= 2 ? names.join(' and ') : names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1]);

/** An answer no single unit holds: where it is cut, and which of its parts were retrieved. */
function cutAcross(ref: Reference, i: number, bearing: readonly ExplainUnit[], k: number, label: ReferenceLabel): Failure {
  const sorted = [...bearing].sort((a, b) => a.start - b.start);
  const boundaries = sorted.slice(0, -1).map((u) => u.end).filter((e) => e > ref.start && e < ref.end);
  const parts = sorted.map((u) => ({ chunk: u.chunk?.index ?? null, start: Math.max(u.start, ref.start), end: Math.min(u.end, ref.end), rank: u.rank, retrieved: isRetrieved(u, k) }));
  const got = sorted.filter((u) => isRetrieved(u, k));
  const lost = sorted.filter((u) => !isRetrieved(u, k));
  const rankText = (u: ExplainUnit) => (u.rank === null ? 'did not match' : `ranked ${ordinal(u.rank)}`);
  let sides: string;
  if (lost.length === 0) sides = `; ${sorted.length === 2 ? 'both' : `all ${sorted.length}`} parts were retrieved (${got.map((u) => `chunk ${chunkName(u)} rank ${u.rank}`).join(', ')}), so the cut cost no recall`;
  else if (got.length === 0) sides = `; no part was retrieved (${lost.map((u) => `chunk ${chunkName(u)} ${rankText(u)}`).join(', ')}; k = ${k})`;
  else sides = `; only the part in chunk ${listOf(got.map(chunkName))} was retrieved (rank ${got.map((u) => u.rank).join(', ')}): ${lost.map((u) => `chunk ${chunkName(u)} ${rankText(u)}`).join(', ')}`;
  return {
    kind: 'cut-across-boundary',
    reference: i,
    chunks: sorted.flatMap((u) => (u.chunk ? [u.chunk.index] : [])),
    boundaries,
    parts,
    message: `${label(i)} is cut across chunks ${listOf(sorted.map(chunkName))}` + (boundaries.length > 0 ? ` (boundary at offset ${boundaries.join(', ')})` : '') + sides,
  };
}

/** No unit holding the answer was retrieved: the best one's rank, or that none matched. */
function rankedOrUnmatched(i: number, bearing: readonly ExplainUnit[], k: number, matchedCount: number, label: ReferenceLabel): Failure | null {
  const ranked = bearing.filter((u) => u.rank !== null).sort((a, b) => a.rank! - b.rank!);
  const chunkNames = (us: readonly ExplainUnit[]) => us.flatMap((u) => (u.chunk ? [u.chunk.index] : []));
  if (ranked.length > 0) {
    const best = ranked[0]!;
    return {
      kind: 'ranked-below-k',
      reference: i,
      rank: best.rank!,
      chunks: chunkNames([best]),
      message: `the chunk holding ${label(i)}${best.chunk ? ` (chunk ${best.chunk.index})` : ''} ranked ${ordinal(best.rank!)}, below k = ${k}`,
    };
  }
  if (matchedCount === 0) return null;
  return {
    kind: 'not-matched',
    reference: i,
    chunks: chunkNames(bearing),
    message: `the chunk holding ${label(i)}${bearing[0]!.chunk ? ` (chunk ${bearing[0]!.chunk.index})` : ''} did not match the question at all`,
  };
}

/** Part of an answer retrieved (a unit holding some of it), the rest only in units below k: where the rest ranked. */
function restNotRetrieved(ref: Reference, i: number, bearing: readonly ExplainUnit[], k: number, label: ReferenceLabel): Failure | null {
  const missed = uncoveredParts(ref, bearing.filter((u) => isRetrieved(u, k)));
  if (missed.length === 0) return null;
  const holding = bearing.filter((u) => !isRetrieved(u, k) && missed.some((m) => overlaps(u, m)));
  const best = holding.filter((u) => u.rank !== null).sort((a, b) => a.rank! - b.rank!)[0];
  const where = best ? `${best.chunk ? `chunk ${best.chunk.index}` : `the window ${best.start}–${best.end}`}, ranked ${ordinal(best.rank!)}, below k = ${k}` : 'chunks that did not match the question';
  return {
    kind: best ? 'ranked-below-k' : 'not-matched',
    reference: i,
    ...(best ? { rank: best.rank! } : {}),
    chunks: (best ? [best] : holding).flatMap((u) => (u.chunk ? [u.chunk.index] : [])),
    message: `only part of ${label(i)} was retrieved: the rest is in ${where}`,
  };
}

/** Oversized chunks and table rows without their header among the answer's chunks (each chunk flagged once). */
function chunkFlags(ref: Reference, i: number, bearing: readonly ExplainUnit[], input: ExplainInput, label: ReferenceLabel, flagged: Set<number>): Failure[] {
  void ref;
  const out: Failure[] = [];
  for (const u of bearing) {
    const c = u.chunk;
    if (!c || flagged.has(c.index)) continue;
    if (c.metadata.oversize) {
      flagged.add(c.index);
      const limit = input.sizeLimit !== undefined ? `, above the size ${input.sizeLimit}` : '';
      out.push({
        kind: 'oversized-chunk',
        reference: i,
        chunks: [c.index],
        message: `${label(i)} sits in an oversized chunk (chunk ${c.index}: ${c.size}${input.unitName ? ' ' + input.unitName : ''}${limit}), which dilutes it`,
      });
    } else if (tableWithoutHeader(c)) {
      flagged.add(c.index);
      out.push({
        kind: 'table-without-header',
        reference: i,
        chunks: [c.index],
        message: `${label(i)} is in a table row group without its header row (chunk ${c.index}): the column names are not in the chunk`,
      });
    }
  }
  return out;
}

/** Answer characters no unit of the document holds (the whitespace a splitter drops between chunks): recall stays below 100%. */
function outsideChunks(ref: Reference, i: number, units: readonly ExplainUnit[], label: ReferenceLabel): Failure | null {
  const length = ref.end - ref.start;
  const held = intersectionLength(mergeRanges(units.map((u) => ({ start: u.start, end: u.end }))), [{ start: ref.start, end: ref.end }]);
  const characters = length - held;
  if (characters <= 0 || length <= 0) return null;
  return {
    kind: 'outside-chunks',
    reference: i,
    characters,
    message: `${characters} of the ${length} characters of ${label(i)} (${shareText(characters / length)}) are in no chunk (dropped between chunks), so its recall stays below 100%`,
  };
}

/** Several answers in the same chunk at the same rank: one line ("answers 1 and 2 ... ranked 6th"). */
function mergeRankedBelow(out: Failure[], input: ExplainInput): Failure[] {
  const merged: Failure[] = [];
  const seen = new Map<string, Failure[]>();
  for (const f of out) {
    if (f.kind !== 'ranked-below-k' && f.kind !== 'not-matched') {
      merged.push(f);
      continue;
    }
    const key = `${f.kind} ${f.rank ?? ''} ${(f.chunks ?? []).join(',')}`;
    const group = seen.get(key);
    if (group) group.push(f);
    else {
      seen.set(key, [f]);
      merged.push(f);
    }
  }
  return merged.map((f) => {
    if (f.kind !== 'ranked-below-k' && f.kind !== 'not-matched') return f;
    const group = seen.get(`${f.kind} ${f.rank ?? ''} ${(f.chunks ?? []).join(',')}`)!;
    if (group.length < 2) return f;
    const numbers = group.map((g) => g.reference! + 1);
    const which = `answers ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
    const where = f.chunks && f.chunks.length > 0 ? ` (chunk ${f.chunks.join(', ')})` : '';
    const message =
      f.kind === 'ranked-below-k' ? `the chunk holding ${which}${where} ranked ${ordinal(f.rank!)}, below k = ${input.k}` : `the chunk holding ${which}${where} did not match the question at all`;
    return { ...f, message };
  });
}
