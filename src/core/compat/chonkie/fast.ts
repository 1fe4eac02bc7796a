import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';
import { utf8Length } from '../../units/bytes';
import { toSpans, type ReferenceChunk } from './spans';

/** FastChunker's defaults (@chonkiejs/core 0.0.11 over @chonkiejs/chunk 0.9.3): 4096 bytes, split after \n . ? */
export const CHONKIE_FAST_SIZE = 4096;
export const CHONKIE_FAST_DELIMITERS = '\n.?';

/**
 * FastChunker's chunks, as @chonkiejs/core 0.0.11 makes them: the text's UTF-8 bytes are cut into pieces of at most
 * `size` bytes by @chonkiejs/chunk (chunk_offsets, delimiter mode, suffix): the rest of the text when it fits,
 * else after the last delimiter byte in the next `size` bytes (one at the piece's first byte does not count), else
 * at exactly `size` bytes, inside a character if one is there. Each piece is decoded with TextDecoder (decodePiece)
 * and its startIndex/endIndex are the running sum of the decoded lengths. `origin` is the source range holding the
 * piece's bytes, widened to whole characters where a cut falls inside one. Core has no TextEncoder: the bytes are
 * walked through the text's characters (UTF-8 delimiters are ASCII, and an ASCII byte is always a whole character).
 */
export function fastReference(text: string, size: number): ReferenceChunk[] {
  if (!text) return [];
  const map = utf8Map(text);
  const total = map.unitAt.length - 1;
  const isDelimiterAt = (b: number): boolean => map.startsChar[b] === 1 && CHONKIE_FAST_DELIMITERS.includes(text[map.unitAt[b]!]!);
  const out: ReferenceChunk[] = [];
  let charPos = 0;
  for (let pos = 0; pos < total; ) {
    let split = total;
    if (total - pos > size) {
      split = pos + size;
      for (let i = pos + size - 1; i > pos; i--) {
        if (isDelimiterAt(i)) {
          split = i + 1;
          break;
        }
      }
    }
    const piece = decodePiece(text, map, pos, split);
    const end = map.startsChar[split] ? map.unitAt[split]! : nextCharUnit(text, map, split);
    out.push({ text: piece, startIndex: charPos, endIndex: charPos + piece.length, tokenCount: 0, origin: { start: map.unitAt[pos]!, end } });
    charPos += piece.length;
    pos = split;
  }
  return out;
}

/** Per UTF-8 byte of the text: the UTF-16 start of the character holding it, and whether the byte starts it. */
interface Utf8Map {
  unitAt: Int32Array;
  startsChar: Uint8Array;
}

function utf8Map(text: string): Utf8Map {
  const total = utf8Length(text);
  const unitAt = new Int32Array(total + 1);
  const startsChar = new Uint8Array(total + 1);
  let b = 0;
  for (let i = 0; i < text.length; ) {
    const units = text.codePointAt(i)! > 0xffff ? 2 : 1;
    const n = utf8Length(text, i, i + units);
    startsChar[b] = 1;
    unitAt.fill(i, b, b + n);
    b += n;
    i += units;
  }
  unitAt[total] = text.length;
  startsChar[total] = 1;
  return { unitAt, startsChar };
}

/** The UTF-16 end of the character holding byte b. */
function nextCharUnit(text: string, map: Utf8Map, b: number): number {
  const i = map.unitAt[b]!;
  return i + (text.codePointAt(i)! > 0xffff ? 2 : 1);
}

/**
 * What TextDecoder (UTF-8, a new stream per call) gives for bytes [from, to) of the text: a continuation byte
 * without its lead is one U+FFFD each, a character whose bytes end early one U+FFFD, a lone surrogate (written as
 * U+FFFD's bytes) U+FFFD, and a byte order mark at the very start is dropped.
 */
function decodePiece(text: string, map: Utf8Map, from: number, to: number): string {
  let out = '';
  let b = from;
  while (b < to && !map.startsChar[b]) {
    out += '\uFFFD';
    b++;
  }
  if (b >= to) return out;
  const whole = map.startsChar[to] ? to : to - 1 - lastLeadBack(map, to);
  let middle = text.slice(map.unitAt[b]!, map.unitAt[whole]!).replace(LONE_SURROGATE, '\uFFFD');
  if (b === from && middle.charCodeAt(0) === 0xfeff) middle = middle.slice(1);
  out += middle;
  if (whole < to) out += '\uFFFD';
  return out;
}

/** How many bytes before `to` the lead byte of the character cut at `to` lies (to - 1 - that = its position). */
function lastLeadBack(map: Utf8Map, to: number): number {
  let k = 0;
  while (!map.startsChar[to - 1 - k]) k++;
  return k;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** FastChunker: pieces of at most `size` UTF-8 bytes; one whose text (U+FFFD for a cut character) counts more is flagged oversize. */
export function chonkieFast(text: string, ctx: ChunkContext): SplitSpan[] {
  const size = ctx.options.size;
  return toSpans(text, fastReference(text, size), (c) => utf8Length(c.text) > size);
}
