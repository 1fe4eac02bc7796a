import type { SplitSpan } from '../../registry';
import type { Range } from '../../types';

/** A chunk as @chonkiejs/core returns it, with the source range its characters came from (`origin`). */
export interface ReferenceChunk {
  text: string;
  startIndex: number;
  endIndex: number;
  tokenCount: number;
  origin: Range;
}

/** What a Chonkie compat chunk's metadata says when the package's offsets are not the chunk's source range. */
export interface ChonkieOffsetsNote {
  /** The package's startIndex / endIndex, which are not where its text (`content`) came from in the source. */
  referenceOffsets: Range;
}

/**
 * The package's chunks as spans: the source range each chunk's characters came from (`origin`, tracked through the
 * reference algorithm), which is the package's own startIndex/endIndex whenever those are right. Where they are not
 * (they point elsewhere, or at text that is not the package's), metadata.referenceOffsets keeps the package's
 * numbers; where the range's text is not the package's text, `content` holds the package's text.
 */
export function toSpans(source: string, chunks: readonly ReferenceChunk[], oversize?: (c: ReferenceChunk) => boolean): SplitSpan[] {
  let prevStart = 0;
  let prevEnd = 0;
  return chunks.map((c) => {
    let { start, end } = c.origin;
    // A chunk of made-up characters only (the whitespace join's spaces) sits where the previous chunk ended.
    if (start === end) start = end = Math.max(prevEnd, prevStart);
    // A space the whitespace join put before the group, where the source has one just before it.
    if (c.text[0] === ' ' && start - 1 >= prevStart && source[start - 1] === ' ' && source.slice(start, end) !== c.text && source.slice(start - 1, end) === c.text) start -= 1;
    if (end < start) end = start;
    prevStart = start;
    prevEnd = end;
    const span: SplitSpan = { start, end };
    if (source.slice(start, end) !== c.text) span.content = c.text;
    if (span.content !== undefined || start !== c.startIndex || end !== c.endIndex) {
      const note: ChonkieOffsetsNote = { referenceOffsets: { start: c.startIndex, end: c.endIndex } };
      span.metadata = { ...note };
    }
    if (oversize?.(c)) span.oversize = true;
    return span;
  });
}
