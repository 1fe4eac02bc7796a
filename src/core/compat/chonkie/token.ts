import type { ChunkContext } from '../../types';
import { RunControl } from '../langchain/run';
import type { ReferenceChunk } from './spans';
import { chonkieTokenizer } from './tokenizer';

/** TokenChunker's defaults (@chonkiejs/core 0.0.11). */
export const CHONKIE_TOKEN_SIZE = 512;
export const CHONKIE_TOKEN_OVERLAP = 0;

/**
 * @chonkiejs/core's TokenChunker, restated: encode the text, then a window of `size` tokens at every multiple of
 * `size - overlap` below the token count (so the last windows can be tails of earlier ones); each chunk's text is
 * the decoded window.
 *
 * QUIRK (reproduced): the package reports token indexes as character offsets: startIndex is the UTF-16 length of
 * the text's first `i` code points where `i` is the window's first token index, endIndex that of
 * min(i + size, code points). With the character tokenizer (one token per code point) they are right; with a real
 * tokenizer they are wrong, so each chunk's span is where its tokens are (the characters their bytes belong to),
 * metadata.referenceOffsets keeps the package's numbers, and a window that cuts a character decodes to U+FFFD
 * (`content`).
 */
export function tokenReference(text: string, ctx: ChunkContext): ReferenceChunk[] {
  const { size, overlap } = ctx.options;
  if (size <= 0) throw new Error('chunkSize must be greater than 0');
  if (overlap < 0) throw new Error('chunkOverlap must be non-negative');
  if (overlap >= size) throw new Error('chunkOverlap must be less than chunkSize');
  if (!text) return [];
  const tokenizer = chonkieTokenizer(ctx.unit);
  const run = new RunControl(ctx, text.length);
  const ids = tokenizer.encode(text);
  const offsets = tokenizer.tokenOffsets(text, ids);
  // UTF-16 offset after the first k code points (k = 0..code points).
  const codePointEnds: number[] = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    codePointEnds.push(i + 1);
  }
  const codePoints = codePointEnds.length - 1;
  const step = size - overlap;
  const out: ReferenceChunk[] = [];
  for (let i = 0; i < ids.length; i += step) {
    const last = Math.min(i + size, ids.length);
    const window = ids.slice(i, last);
    out.push({
      text: tokenizer.decode(window),
      startIndex: codePointEnds[Math.min(i, codePoints)]!,
      endIndex: codePointEnds[Math.min(i + size, codePoints)]!,
      tokenCount: window.length,
      origin: { start: offsets.starts[i]!, end: offsets.ends[last - 1]! },
    });
    run.step(offsets.ends[last - 1]!);
  }
  run.finish();
  return out;
}
