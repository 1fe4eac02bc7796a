import type { ChunkContext } from '../../types';
import { meterFor, type SpanMeter } from '../../measure';
import { mergeSplits } from './merge';
import { rangeIncludes, splitOnSeparator, type Separator } from './pieces';
import { RunControl, type LangchainSpan } from './run';

/**
 * LangChain JS's RecursiveCharacterTextSplitter on source ranges. For a range and the separators still to try:
 * 1. pick the first separator that is "" or occurs in the range; the ones after it are kept for recursion
 *    (none when it is "", or when no separator occurs: then the LAST separator is used and nothing remains);
 * 2. split on it; pieces measuring strictly less than the size are collected;
 * 3. any other piece first flushes the collected ones through mergeSplits, then is split again with the
 *    remaining separators, or, when none remain, becomes a chunk exactly as it is: untrimmed, possibly over the
 *    size, possibly whitespace only, possibly starting with the separator that was kept.
 * A separator found last in the list leaves an EMPTY list (not "none"): the piece is then split into UTF-16 units
 * and merged with "" (keepSeparator) or LangChain fails (no keepSeparator); see mergeSplits.
 * LangChain measures a piece up to three times per run and everything again on the next run; here each piece is
 * measured through the engine's span meter, which remembers counts per (start, end) of the document, so a re-run
 * after a slider move re-measures almost nothing.
 */
export function splitRecursiveLangchain(
  source: string,
  ctx: ChunkContext,
  separators: readonly string[],
  keepSeparator: boolean,
): LangchainSpan[] {
  const state: RecursionState = {
    source,
    separators,
    keepSeparator,
    size: ctx.options.size,
    overlap: ctx.options.overlap,
    meter: meterFor(ctx.unit, source),
    run: new RunControl(ctx, source.length),
    out: [],
  };
  splitRange(state, 0, source.length, 0);
  state.run.finish();
  return state.out;
}

interface RecursionState {
  source: string;
  separators: readonly string[];
  keepSeparator: boolean;
  size: number;
  overlap: number;
  meter: SpanMeter;
  run: RunControl;
  out: LangchainSpan[];
}

/**
 * Split `source[start, end)` with `separators.slice(firstSeparator)` (LangChain's `_splitText(text, separators)`).
 * `next === -1` below stands for LangChain's `newSeparators` being undefined: nothing to recurse with.
 */
function splitRange(state: RecursionState, start: number, end: number, firstSeparator: number): void {
  const { source, separators, keepSeparator, size, meter, run, out } = state;
  run.step(start);

  // The separators of this call are separators[firstSeparator..]; its "last" one is the list's last one, or
  // undefined when that slice is empty.
  let separator: Separator = firstSeparator < separators.length ? separators[separators.length - 1] : undefined;
  let next = -1;
  for (let i = firstSeparator; i < separators.length; i++) {
    const candidate = separators[i]!;
    if (candidate === '') {
      separator = candidate;
      break;
    }
    if (rangeIncludes(source, start, end, candidate)) {
      separator = candidate;
      next = i + 1;
      break;
    }
  }

  const pieces = splitOnSeparator(source, start, end, separator, keepSeparator);
  const { starts, ends } = pieces;
  const count = starts.length;
  const lengths: number[] = new Array(count);
  const mergeSeparator: Separator = keepSeparator ? '' : separator;
  let collectedFrom = 0;
  for (let k = 0; k < count; k++) {
    const len = meter.exact(starts[k]!, ends[k]!);
    lengths[k] = len;
    if ((k & 255) === 255) run.check();
    if (len < size) continue;
    if (k > collectedFrom) {
      merge(state, pieces, lengths, collectedFrom, k, mergeSeparator);
    }
    if (next === -1) {
      // QUIRK: emitted as it is, not trimmed, even if only whitespace or over the size.
      out.push(len > size ? { start: starts[k]!, end: ends[k]!, oversize: true } : { start: starts[k]!, end: ends[k]! });
    } else {
      splitRange(state, starts[k]!, ends[k]!, next);
    }
    collectedFrom = k + 1;
  }
  if (count > collectedFrom) merge(state, pieces, lengths, collectedFrom, count, mergeSeparator);
}

function merge(
  state: RecursionState,
  pieces: ReturnType<typeof splitOnSeparator>,
  lengths: number[],
  from: number,
  to: number,
  separator: Separator,
): void {
  mergeSplits(
    { source: state.source, pieces, lengths, from, to, separator, size: state.size, overlap: state.overlap, run: state.run },
    state.out,
  );
}
