import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { RunControl } from '../langchain/run';
import { joinedChunk, PieceCounter, pieceText, regexMatches, rejectSpecialTokens, splitIntoLeaves, splitKeepSeparator, splitUnits, type Piece } from './pieces';
import { llamaindexSentences } from './sentences';

/** SentenceSplitter's defaults in @llamaindex/core 0.6.x. */
export const SENTENCE_SPLITTER_DEFAULTS = {
  chunkSize: 1024,
  chunkOverlap: 200,
  separator: ' ',
  paragraphSeparator: '\n\n\n',
  secondaryChunkingRegex: '[^,.;。？！]+[,.;。？！]?',
} as const;

export interface SentenceSplitterParams {
  chunkSize: number;
  chunkOverlap: number;
  separator?: string;
  paragraphSeparator?: string;
  secondaryChunkingRegex?: string;
}

/**
 * LlamaIndex TS's SentenceSplitter.splitText (@llamaindex/core 0.6.23), with source offsets:
 *
 * - "" gives one empty chunk; a text of at most chunkSize tokens is one piece;
 * - otherwise the first of these that gives more than one piece: the paragraph separator (kept at the start of the
 *   next piece), sentences (./sentences.ts), the secondary regex (its matches only: characters no match covers —
 *   a second punctuation mark in a row, a leading one — are lost), the word separator (kept), UTF-16 units; pieces
 *   still over chunkSize are split again the same way from the top;
 * - pieces are packed greedily by their token counts (each piece counted alone); when the next piece does not fit,
 *   the chunk is closed and the next one starts with the previous chunk's trailing pieces that fit in chunkOverlap
 *   — and then takes the next piece whatever its size, so a chunk can exceed chunkSize by up to the overlap;
 * - chunks are the pieces joined with "" and trimmed; empty ones are dropped.
 *
 * `root`: the piece whose string is split (a chunk of a level above, for HierarchicalNodeParser; by default the whole
 * source); offsets stay the source's.
 *
 * A piece no splitter can cut and still over chunkSize (a single character of several tokens at a tiny size) makes
 * the package recurse until its stack overflows; this throws a RangeError instead.
 */
export function splitSentenceLlamaindex(
  source: string,
  ctx: ChunkContext,
  params: SentenceSplitterParams,
  root: Piece = { start: 0, end: source.length },
): SplitSpan[] {
  const { chunkSize, chunkOverlap } = params;
  if (chunkOverlap >= chunkSize) throw new Error('Chunk overlap must be less than chunk size.');
  if (pieceText(source, root) === '') return [{ start: root.start, end: root.start }];
  rejectSpecialTokens(pieceText(source, root), ctx);
  const run = new RunControl(ctx, source.length);
  const counter = new PieceCounter(source, ctx.unit);
  const paragraph = params.paragraphSeparator ?? SENTENCE_SPLITTER_DEFAULTS.paragraphSeparator;
  const word = params.separator ?? SENTENCE_SPLITTER_DEFAULTS.separator;
  const secondary = new RegExp(params.secondaryChunkingRegex ?? SENTENCE_SPLITTER_DEFAULTS.secondaryChunkingRegex, 'g');
  const splitters: ((s: string) => { start: number; end: number; text?: string }[])[] = [
    (s) => splitKeepSeparator(s, paragraph),
    (s) => llamaindexSentences(s),
    (s) => regexMatches(s, secondary),
    (s) => splitKeepSeparator(s, word),
    (s) => splitUnits(s),
  ];

  // ---- split: leaves of at most chunkSize tokens, in order, with their counts
  const { leaves, sizes } = splitIntoLeaves(source, splitters, counter, chunkSize, run, (p) => {
    throw new RangeError(`LlamaIndex's SentenceSplitter cannot split a piece of ${counter.count(p)} tokens below chunkSize ${chunkSize} (the package recurses until its stack overflows)`);
  }, root);

  // ---- merge
  const out: SplitSpan[] = [];
  let current: number[] = []; // indexes into leaves
  let currentLength = 0;
  let newChunk = true;
  const emit = (indexes: number[]): void => {
    const span = joinedChunk(
      source,
      indexes.map((i) => leaves[i]!),
    );
    if (span) out.push(span);
  };
  for (let i = 0; i < leaves.length; ) {
    const tokens = sizes[i]!;
    if (tokens > chunkSize) throw new Error('Single token exceeded chunk size');
    if (currentLength + tokens > chunkSize && !newChunk) {
      emit(current);
      const last = current;
      current = [];
      currentLength = 0;
      newChunk = true;
      for (let k = last.length - 1; k >= 0 && currentLength + sizes[last[k]!]! <= chunkOverlap; k--) {
        currentLength += sizes[last[k]!]!;
        current.unshift(last[k]!);
      }
      continue;
    }
    // (The package's other branch, which would close the chunk without taking the piece, can never be reached.)
    currentLength += tokens;
    current.push(i);
    newChunk = false;
    i++;
  }
  if (!newChunk) emit(current);
  run.finish();
  return out;
}
