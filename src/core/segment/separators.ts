import { documentCache } from '../documentCache';
import type { KeepSeparator, Level, PieceOffsets, Range } from '../types';
import { graphemeOffsets, toRanges } from './graphemes';

/**
 * Split source[start, end) on a separator (a literal string or a checked global regex). `keep` decides where each
 * occurrence goes: 'start' opens the following piece, 'end' closes the preceding one, 'none' leaves it between the
 * two pieces (inside a chunk that spans both, outside any chunk at a chunk boundary). Empty pieces are dropped.
 */
export function splitOnSeparator(
  source: string,
  start: number,
  end: number,
  separator: string | RegExp,
  keep: KeepSeparator,
): Range[] {
  const out: Range[] = [];
  let pieceStart = start;
  const cut = (matchStart: number, matchEnd: number): void => {
    const pieceEnd = keep === 'end' ? matchEnd : matchStart;
    if (pieceEnd > pieceStart) out.push({ start: pieceStart, end: pieceEnd });
    pieceStart = keep === 'start' ? matchStart : matchEnd;
  };
  if (typeof separator === 'string') {
    // Literal separators (the default hierarchy) are found with indexOf directly, without a list of matches.
    const length = separator.length;
    if (length > 0) {
      for (let at = source.indexOf(separator, start); at >= 0 && at + length <= end; at = source.indexOf(separator, at + length)) {
        cut(at, at + length);
      }
    }
  } else {
    for (const m of findSeparators(source, start, end, separator)) cut(m.start, m.end);
  }
  if (end > pieceStart) out.push({ start: pieceStart, end });
  return out;
}

/** Non-overlapping occurrences, left to right, entirely inside [start, end). Empty regex matches are ignored. */
export function findSeparators(source: string, start: number, end: number, separator: string | RegExp): Range[] {
  const found: Range[] = [];
  if (typeof separator === 'string') {
    if (separator === '') return found;
    let at = source.indexOf(separator, start);
    while (at >= 0 && at + separator.length <= end) {
      found.push({ start: at, end: at + separator.length });
      at = source.indexOf(separator, at + separator.length);
    }
    return found;
  }
  const text = source.slice(start, end);
  const regex = new RegExp(separator.source, separator.flags.includes('g') ? separator.flags : separator.flags + 'g');
  let m: RegExpExecArray | null;
  while ((m = regex.exec(text)) !== null) {
    if (m[0].length === 0) {
      // Step over the empty match by a whole code point.
      const cp = text.codePointAt(regex.lastIndex);
      regex.lastIndex += cp !== undefined && cp > 0xffff ? 2 : 1;
      continue;
    }
    found.push({ start: start + m.index, end: start + m.index + m[0].length });
  }
  return found;
}

/**
 * Neighbouring ranges joined wherever the cut between them is not allowed (token units: inside a long run without
 * spaces, cuts only between its tokens, where a span's count is exact without re-encoding it).
 */
function joinWhereNotAllowed(pieces: PieceOffsets, cutAllowed: (position: number) => boolean): PieceOffsets {
  // In place: the offsets are fresh from graphemeOffsets(), and a long run has millions of them.
  const { starts, ends } = pieces;
  let n = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (n > 0 && ends[n - 1] === starts[i] && !cutAllowed(starts[i]!)) {
      ends[n - 1] = ends[i]!;
    } else {
      starts[n] = starts[i]!;
      ends[n++] = ends[i]!;
    }
  }
  pieces.length = n;
  pieces.longest = undefined; // joined pieces are longer
  return pieces;
}

/** Ranges per separator kept for a document before its memo starts over. */
const MAX_MEMO_RANGES = 10_000;

/**
 * The levels of a separator hierarchy over `source`: each separator cuts a range into pieces; "" means between
 * grapheme clusters (never inside an emoji or a surrogate pair) and ends the hierarchy, as nothing is finer.
 * With `asRegex`, separators are patterns already checked by options validation. `cutAllowed` restricts where the
 * "" level may cut.
 */
export function separatorLevels(
  source: string,
  separators: readonly string[],
  asRegex: boolean,
  keep: KeepSeparator,
  cutAllowed: ((position: number) => boolean) | null = null,
): Level[] {
  const levels: Level[] = [];
  for (const s of separators) {
    if (s === '') {
      levels.push(graphemeLevel(source, cutAllowed));
      break;
    }
    const matcher: string | RegExp = asRegex ? new RegExp(s, 'gu') : s;
    const memo = splitMemo(source, `${asRegex ? 'regex' : 'text'}\u0000${keep}\u0000${s}`);
    levels.push((start, end) => {
      const key = start * (source.length + 1) + end;
      let pieces = memo.get(key);
      if (!pieces) {
        pieces = splitOnSeparator(source, start, end, matcher, keep);
        // Bounded: re-packed ranges (a lone heading joined to its body) differ from one size to the next.
        if (memo.size >= MAX_MEMO_RANGES) memo.clear();
        memo.set(key, pieces);
      }
      return pieces;
    });
  }
  return levels;
}

/**
 * The finest level: between grapheme clusters (never inside an emoji or a surrogate pair), or with `cutAllowed`
 * only where it allows (token units: between the tokens of a long run without spaces). It also gives its pieces as
 * offset arrays (see Level).
 */
export function graphemeLevel(source: string, cutAllowed: ((position: number) => boolean) | null): Level {
  const offsets = cutAllowed
    ? (start: number, end: number) => joinWhereNotAllowed(graphemeOffsets(source, start, end), cutAllowed)
    : (start: number, end: number) => graphemeOffsets(source, start, end);
  return Object.assign((start: number, end: number) => toRanges(offsets(start, end)), { offsets });
}

/**
 * A document's separator splits, per separator, by range, kept in the document's cache. A slider move re-packs the
 * same document: its paragraphs (and the lines of its long paragraphs) are the same at every size, so they are cut
 * once. The grapheme level never is kept (a long line without spaces has millions of pieces). Callers never modify
 * the pieces they are given.
 */
function splitMemo(source: string, separatorKey: string): Map<number, Range[]> {
  return documentCache.getOrCompute(source, `separators.splits:${separatorKey}`, () => new Map<number, Range[]>(), () => splitMemoBytes(source));
}

/**
 * Estimated bytes of one separator's memo, taken when it is created (it fills while packing): about one range
 * (40 bytes with its array slot) per 40 characters, more than paragraph and line pieces take; word pieces are
 * kept only for the long lines that are cut at words (a document of one long line holds more).
 */
function splitMemoBytes(source: string): number {
  return source.length;
}
