import type { ChunkContext } from '../../types';
import { meterFor } from '../../measure';
import { mergeSplits } from './merge';
import { splitOnSeparator } from './pieces';
import { RunControl, type LangchainSpan } from './run';

/**
 * LangChain JS's CharacterTextSplitter: split on ONE literal separator (default "\n\n"), then merge. With
 * keepSeparator the separator starts the next piece and pieces are joined with ""; without it the separator is
 * dropped and put back by the join. No piece is split further: a piece longer than the size is a chunk of its own.
 */
export function splitCharacterLangchain(
  source: string,
  ctx: ChunkContext,
  separator: string,
  keepSeparator: boolean,
): LangchainSpan[] {
  const run = new RunControl(ctx, source.length);
  const meter = meterFor(ctx.unit, source);
  const pieces = splitOnSeparator(source, 0, source.length, separator, keepSeparator);
  const lengths: number[] = new Array(pieces.starts.length);
  for (let i = 0; i < lengths.length; i++) {
    lengths[i] = meter.exact(pieces.starts[i]!, pieces.ends[i]!);
    if ((i & 255) === 255) run.check();
  }
  const out: LangchainSpan[] = [];
  mergeSplits(
    {
      source,
      pieces,
      lengths,
      from: 0,
      to: lengths.length,
      separator: keepSeparator ? '' : separator,
      size: ctx.options.size,
      overlap: ctx.options.overlap,
      run,
    },
    out,
  );
  run.finish();
  return out;
}
