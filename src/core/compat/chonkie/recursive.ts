import type { ChunkContext } from '../../types';
import { RunControl } from '../langchain/run';
import { mergeSplits, splitOffsets, utf8Bytes } from './scan';
import { chonkieTokenizer, type ChonkieTokenizer } from './tokenizer';
import { Traced } from './traced';
import type { ReferenceChunk } from './spans';

/** RecursiveChunker's defaults (@chonkiejs/core 0.0.11). */
export const CHONKIE_RECURSIVE_SIZE = 512;
export const CHONKIE_MIN_CHARACTERS_PER_CHUNK = 24;
/** Its heuristic: a text longer than chunkSize × 6.5 characters is taken to be over the size without counting. */
const CHARS_PER_TOKEN = 6.5;

/** One level of RecursiveRules: delimiter characters (cut after each), whitespace, or token windows. */
type Level = { kind: 'delimiters'; delimiters: string } | { kind: 'whitespace' } | { kind: 'tokens' };

/**
 * The default RecursiveRules: paragraphs, sentence ends, pauses, whitespace, tokens. The package joins a level's
 * delimiter strings and keeps each distinct character but the space: ["\n\n", "\r\n", "\n", "\r"] cuts after every
 * "\n" and "\r", [". ", "! ", "? "] after every ".", "!" and "?" (no space needed), and the pauses level after
 * each of its characters — whose UTF-8 bytes are the real delimiters ("—" is E2 80 94, see scan.ts).
 */
const DEFAULT_LEVELS: Level[] = [
  { kind: 'delimiters', delimiters: distinct(['\n\n', '\r\n', '\n', '\r']) },
  { kind: 'delimiters', delimiters: distinct(['. ', '! ', '? ']) },
  { kind: 'delimiters', delimiters: distinct(['{', '}', '"', '[', ']', '<', '>', '(', ')', ':', ';', ',', '—', '|', '~', '-', '...', '`', "'"]) },
  { kind: 'whitespace' },
  { kind: 'tokens' },
];

function distinct(delimiters: string[]): string {
  return [...new Set(delimiters.join(''))].filter((c) => c !== ' ').join('');
}

/**
 * @chonkiejs/core's RecursiveChunker, restated: at each level split the text, estimate each piece's tokens, merge
 * neighbours into groups below the size (scan.ts mergeSplits), keep a group that fits as a chunk and send a larger
 * one to the next level. Offsets are running sums of the texts' lengths.
 *
 * QUIRK (reproduced): the delimiter split works on UTF-8 bytes and its byte offsets are used as string indexes, so
 * on non-ASCII text pieces are cut at the wrong places (even inside a surrogate pair) and later pieces come out
 * empty; the whitespace level drops the spaces it cut at and joins with one " " (and puts " " before every group
 * but the first), so runs of spaces collapse and a dropped non-space character is replaced by a space. The
 * package's texts can then stop being source substrings and its offsets drift. Each chunk keeps the package's text
 * in `content` and its offsets in metadata (spans.ts); `text` is the source range its characters came from.
 */
export function recursiveReference(text: string, ctx: ChunkContext): ReferenceChunk[] {
  const size = ctx.options.size;
  if (size <= 0) throw new Error('chunkSize must be greater than 0');
  const tokenizer = chonkieTokenizer(ctx.unit);
  const run = new RunControl(ctx, text.length);
  const out: ReferenceChunk[] = [];
  const estimate = (t: string): number => (Math.max(1, Math.floor(t.length / CHARS_PER_TOKEN)) > size ? size + 1 : tokenizer.countTokens(t));

  const recurse = (piece: Traced, level: number, startOffset: number): void => {
    if (!piece.text) return;
    if (level >= DEFAULT_LEVELS.length) {
      out.push(make(piece, estimate(piece.text), startOffset));
      return;
    }
    const rule = DEFAULT_LEVELS[level]!;
    const splits = splitText(piece, rule, tokenizer, size);
    const counts = splits.map((s) => estimate(s.text));
    let merged: Traced[];
    let mergedCounts: number[];
    if (rule.kind === 'tokens') {
      merged = splits;
      mergedCounts = counts;
    } else {
      const whitespace = rule.kind === 'whitespace';
      [merged, mergedCounts] = mergeGroups(splits, counts, size, whitespace);
      // The whitespace level puts back one space before every group but the first.
      if (whitespace) merged = merged.map((m, i) => (i === 0 ? m : Traced.join([m], '', ' ')));
    }
    let offset = startOffset;
    for (let i = 0; i < merged.length; i++) {
      const m = merged[i]!;
      if (mergedCounts[i]! > size) recurse(m, level + 1, offset);
      else out.push(make(m, mergedCounts[i]!, offset));
      offset += m.text.length;
      if (level === 0) run.step(m.span().end);
    }
  };

  recurse(Traced.source(text), 0, 0);
  run.finish();
  return out;
}

function make(piece: Traced, tokenCount: number, startOffset: number): ReferenceChunk {
  return { text: piece.text, startIndex: startOffset, endIndex: startOffset + piece.text.length, tokenCount, origin: piece.span() };
}

/** splitText: byte-offset delimiter splits used as string indexes, whitespace splits, or token windows. */
function splitText(piece: Traced, rule: Level, tokenizer: ChonkieTokenizer, size: number): Traced[] {
  if (rule.kind === 'tokens') {
    const ids = tokenizer.encode(piece.text);
    const offsets = tokenizer.tokenOffsets(piece.text, ids);
    const windows: Traced[] = [];
    for (let i = 0; i < ids.length; i += size) {
      const last = Math.min(i + size, ids.length);
      const decoded = tokenizer.decode(ids.slice(i, last));
      const start = offsets.starts[i]!;
      const end = offsets.ends[last - 1]!;
      windows.push(tokenizer.exactSlices ? piece.sub(start, end) : piece.window(decoded, start, end));
    }
    return windows;
  }
  const bytes = utf8Bytes(piece.text);
  const flat =
    rule.kind === 'whitespace'
      ? splitOffsets(bytes, ' ', 'none', 0)
      : splitOffsets(bytes, rule.delimiters, 'prev', CHONKIE_MIN_CHARACTERS_PER_CHUNK);
  const pieces: Traced[] = [];
  // Byte offsets taken as UTF-16 indexes, as the package does (text.slice(start, end)).
  for (let i = 0; i < flat.length; i += 2) pieces.push(piece.sub(flat[i]!, flat[i + 1]!));
  return pieces;
}

/** mergeSplits: groups below the size joined ("" or, at the whitespace level, " "), or all as they are when every
 * piece is over the size. */
function mergeGroups(splits: Traced[], counts: number[], size: number, whitespace: boolean): [Traced[], number[]] {
  if (splits.length === 0) return [[], []];
  if (counts.every((c) => c > size)) return [splits, counts];
  const groups = mergeSplits(counts, size, whitespace);
  const merged: Traced[] = [];
  let from = 0;
  for (const end of groups.ends) {
    const group = splits.slice(from, end);
    merged.push(whitespace ? Traced.join(group, ' ') : joinAdjacent(group));
    from = end;
  }
  return [merged, groups.counts];
}

/** Pieces of one string that follow each other: their join is one substring (no per-character map needed). */
function joinAdjacent(group: Traced[]): Traced {
  return group.length === 1 ? group[0]! : Traced.join(group, '');
}
