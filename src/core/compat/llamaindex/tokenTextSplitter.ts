import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { RunControl } from '../langchain/run';
import { joinedChunk, PieceCounter, rejectSpecialTokens, splitIntoLeaves, splitKeepSeparator, splitUnits } from './pieces';

/** TokenTextSplitter's defaults in @llamaindex/core 0.6.x (DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_OVERLAP). */
export const TOKEN_TEXT_SPLITTER_DEFAULTS = { chunkSize: 1024, chunkOverlap: 20, separator: ' ', backupSeparators: ['\n'] } as const;

export interface TokenTextSplitterParams {
  chunkSize: number;
  chunkOverlap: number;
  separator?: string;
  backupSeparators?: readonly string[];
}

/**
 * LlamaIndex TS's TokenTextSplitter.splitText (@llamaindex/core 0.6.23), with source offsets. Despite its name it
 * does not cut token windows: it packs words.
 *
 * - "" gives one empty chunk; a text of at most chunkSize tokens is one piece;
 * - otherwise split at " " (kept at the start of the next piece), else at "\n", else into UTF-16 units — the first
 *   that gives more than one piece; pieces over chunkSize are split again; a piece nothing can cut stays as it is
 *   (over the size: the package warns);
 * - pieces are packed while their summed token counts fit; a chunk is the pieces joined and trimmed (empty ones
 *   dropped).
 *
 * QUIRK reproduced: chunkOverlap is never applied. The package collects the overlap from the chunk it has just
 * emptied, so every chunk starts where the previous one ended, whatever the overlap.
 */
export function splitTokenLlamaindex(source: string, ctx: ChunkContext, params: TokenTextSplitterParams): SplitSpan[] {
  const { chunkSize, chunkOverlap } = params;
  if (chunkOverlap > chunkSize) {
    throw new Error(`Got a larger chunk overlap (${chunkOverlap}) than chunk size (${chunkSize}), should be smaller.`);
  }
  if (source === '') return [{ start: 0, end: 0 }];
  rejectSpecialTokens(source, ctx);
  const run = new RunControl(ctx, source.length);
  const counter = new PieceCounter(source, ctx.unit);
  const separators = [params.separator ?? TOKEN_TEXT_SPLITTER_DEFAULTS.separator, ...(params.backupSeparators ?? TOKEN_TEXT_SPLITTER_DEFAULTS.backupSeparators)];
  const splitters: ((s: string) => { start: number; end: number }[])[] = [
    ...separators.map((sep) => (s: string) => splitKeepSeparator(s, sep)),
    (s) => splitUnits(s),
  ];

  // A piece nothing cuts is kept over the size (the package only warns).
  const { leaves, sizes } = splitIntoLeaves(source, splitters, counter, chunkSize, run, (p, tokens) => (Number.isFinite(tokens) ? tokens : counter.count(p)));

  const out: SplitSpan[] = [];
  let from = 0; // first leaf of the current chunk
  let length = 0;
  const emit = (to: number): void => {
    const span = joinedChunk(source, leaves.slice(from, to));
    if (span) out.push(span);
  };
  for (let i = 0; i < leaves.length; i++) {
    const tokens = sizes[i]!;
    if (length + tokens > chunkSize) {
      emit(i);
      from = i;
      length = 0;
    }
    length += tokens;
  }
  emit(leaves.length);
  run.finish();
  return out;
}
