import type { DocumentStructure, LoadedStrategy } from '../registry';
import { sentenceSplitter } from '../segment/sentences';
import type { ChunkContext, Range } from '../types';
import { headingPathOf, Progress, sectionsOf, structureOf, trimRange, type UnitSpan } from './common';

/**
 * Sentence windows (as LlamaIndex's SentenceWindowNodeParser: the sentence is embedded, the window is kept for the
 * LLM). One leaf per sentence (Intl.Segmenter with the options' locale, whitespace trimmed off its edges), with
 * `window` = the span from the `w`-th sentence before it to the `w`-th after it, clipped to the section holding the
 * sentence (structure sections, else the whole document). Sentences are found per section, so none crosses a
 * section boundary. A sentence is never cut, whatever its size: the unit is the sentence.
 */
export async function splitSentenceWindows(
  text: string,
  strategy: LoadedStrategy,
  ctx: ChunkContext,
  w: number,
  known?: DocumentStructure | null,
): Promise<UnitSpan[]> {
  const progress = new Progress(ctx);
  const structure = await structureOf(text, strategy, ctx, known);
  const total = Math.max(1, text.length);
  const out: UnitSpan[] = [];
  const sentencesIn = sentenceSplitter(text, ctx.options.locale);
  for (const section of sectionsOf(text, structure)) {
    const found: Range[] = [];
    for (const piece of linePieces(text, section.start, section.end)) {
      progress.report(piece.start / total);
      for (const s of sentencesIn(piece.start, piece.end)) {
        const t = trimRange(text, s);
        if (t.start >= t.end) continue;
        // "## 1. Working hours": the segmenter ends a sentence after a heading's section number; the number joins
        // the title after it on the same line.
        const previous = found[found.length - 1];
        if (previous && isBareMarker(text.slice(previous.start, previous.end)) && !/[\r\n]/.test(text.slice(previous.end, t.start))) {
          previous.end = t.end;
        } else {
          found.push(t);
        }
      }
    }
    for (let i = 0; i < found.length; i++) {
      const sentence = found[i]!;
      const window = { start: found[Math.max(0, i - w)]!.start, end: found[Math.min(found.length - 1, i + w)]!.end };
      const unit: UnitSpan = { start: sentence.start, end: sentence.end, level: 0, parent: null, leaf: true, window };
      const path = headingPathOf(text, structure, sentence);
      if (path) unit.headingPath = path;
      out.push(unit);
    }
  }
  progress.report(1);
  return out;
}

/** Pieces segmented one at a time, so progress and the abort signal are seen on a long section. */
const PIECE = 32_768;

/**
 * source[start, end) in pieces of about PIECE characters, each ending right after a line break: a sentence always
 * ends at a line break (UAX #29, SB4), so segmenting the pieces one by one finds the same sentences as the whole.
 * A piece without a line break runs on to the next one (or the end).
 */
function linePieces(source: string, start: number, end: number): Range[] {
  const out: Range[] = [];
  let from = start;
  while (end - from > PIECE) {
    const newline = source.indexOf('\n', from + PIECE);
    if (newline < 0 || newline + 1 >= end) break;
    out.push({ start: from, end: newline + 1 });
    from = newline + 1;
  }
  out.push({ start: from, end });
  return out;
}

/** A "sentence" that is only a markdown heading marker with a section number ("## 1.", "#### 4.1."). */
function isBareMarker(sentence: string): boolean {
  return /^#{1,6}[ \t]+(\d+\.)+(\d+)?$/.test(sentence);
}
