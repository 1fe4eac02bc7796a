import type { Chunk, Range } from '../types';
import type { Reference } from './types';

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
  | 'reference-missing';

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
}

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `"${oneLine.length > 48 ? oneLine.slice(0, 47) + '…' : oneLine}"`;
}

function overlaps(a: Range, b: Range): boolean {
  return Math.min(a.end, b.end) > Math.max(a.start, b.start);
}

const TABLE_HEADER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/m;

/** A table chunk that does not carry its table's header (no markdown delimiter row, no <th>) in its text or content. */
export function tableWithoutHeader(chunk: Pick<Chunk, 'text' | 'content' | 'metadata'>): boolean {
  if (chunk.metadata.contentType !== 'table') return false;
  const has = (s: string) => TABLE_HEADER_ROW.test(s) || /<th[\s>]/i.test(s);
  return !has(chunk.text) && !has(chunk.content);
}

/** The causes for one question (empty when nothing went wrong). */
export function explainQuestion(input: ExplainInput): Failure[] {
  const out: Failure[] = [];
  const { k } = input;
  const label = (i: number) => (input.references.length > 1 ? `answer ${i + 1} (${quote(input.references[i]!.content)})` : `the answer ${quote(input.references[i]!.content)}`);
  for (const ref of input.missing ?? []) {
    out.push({ kind: 'reference-missing', message: `the answer ${quote(ref.content)} is no longer in the document (left out)` });
  }
  if (input.matchedCount === 0) {
    out.push({ kind: 'nothing-matched', message: 'nothing matched: no chunk shares a word with the question' });
  }
  const flaggedChunks = new Set<number>();
  input.references.forEach((ref, i) => {
    const bearing = input.units.filter((u) => overlaps(u, ref));
    const whole = bearing.filter((u) => u.start <= ref.start && u.end >= ref.end);
    const retrieved = bearing.filter((u) => u.rank !== null && u.rank <= k);
    const coveredWhole = whole.some((u) => u.rank !== null && u.rank <= k);
    if (!coveredWhole && whole.length === 0 && bearing.length > 1) {
      const sorted = [...bearing].sort((a, b) => a.start - b.start);
      const boundaries = sorted.slice(0, -1).map((u) => u.end).filter((e) => e > ref.start && e < ref.end);
      const names = sorted.map((u) => (u.chunk ? String(u.chunk.index) : `${u.start}–${u.end}`));
      const list = names.length === 2 ? `${names[0]} and ${names[1]}` : names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
      const missed = bearing.length - retrieved.length;
      out.push({
        kind: 'cut-across-boundary',
        reference: i,
        chunks: sorted.flatMap((u) => (u.chunk ? [u.chunk.index] : [])),
        boundaries,
        message:
          `${label(i)} is cut across chunks ${list}` +
          (boundaries.length > 0 ? ` (boundary at offset ${boundaries.join(', ')})` : '') +
          (missed > 0 && retrieved.length > 0 ? `: only part of it was retrieved` : ''),
      });
    }
    if (retrieved.length === 0 && bearing.length > 0) {
      const ranked = bearing.filter((u) => u.rank !== null).sort((a, b) => a.rank! - b.rank!);
      const chunkNames = (us: ExplainUnit[]) => us.flatMap((u) => (u.chunk ? [u.chunk.index] : []));
      if (ranked.length > 0) {
        const best = ranked[0]!;
        out.push({
          kind: 'ranked-below-k',
          reference: i,
          rank: best.rank!,
          chunks: chunkNames([best]),
          message: `the chunk holding ${label(i)}${best.chunk ? ` (chunk ${best.chunk.index})` : ''} ranked ${ordinal(best.rank!)}, below k = ${k}`,
        });
      } else if (input.matchedCount > 0) {
        out.push({
          kind: 'not-matched',
          reference: i,
          chunks: chunkNames(bearing),
          message: `the chunk holding ${label(i)}${bearing[0]!.chunk ? ` (chunk ${bearing[0]!.chunk.index})` : ''} did not match the question at all`,
        });
      }
    }
    for (const u of bearing) {
      const c = u.chunk;
      if (!c || flaggedChunks.has(c.index)) continue;
      if (c.metadata.oversize) {
        flaggedChunks.add(c.index);
        const limit = input.sizeLimit !== undefined ? `, above the size ${input.sizeLimit}` : '';
        out.push({
          kind: 'oversized-chunk',
          reference: i,
          chunks: [c.index],
          message: `${label(i)} sits in an oversized chunk (chunk ${c.index}: ${c.size}${input.unitName ? ' ' + input.unitName : ''}${limit}), which dilutes it`,
        });
      } else if (tableWithoutHeader(c)) {
        flaggedChunks.add(c.index);
        out.push({
          kind: 'table-without-header',
          reference: i,
          chunks: [c.index],
          message: `${label(i)} is in a table row group without its header row (chunk ${c.index}): the column names are not in the chunk`,
        });
      }
    }
  });
  return mergeRankedBelow(out, input);
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
