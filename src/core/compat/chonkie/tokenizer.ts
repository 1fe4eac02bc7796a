import type { Unit } from '../../types';
import type { TiktokenUnit } from '../../units/tiktoken';
import { isTiktokenUnit } from '../../units/unit';
import { unitDescriptor } from '../../units';

/**
 * What @chonkiejs/core asks of a tokenizer (its Tokenizer class, or any object with these methods), over
 * Chunkscope's units: `chars` is Chonkie's default "character" tokenizer (countTokens = UTF-16 length, encode =
 * one id per code point), a tiktoken encoding is js-tiktoken with special-token strings counted as text.
 */
export interface ChonkieTokenizer {
  countTokens(text: string): number;
  encode(text: string): number[];
  decode(ids: number[]): string;
  /** Per token of encode(text): the UTF-16 start of the character holding its first byte and the first character
   * boundary at or after its last byte (one pass), for locating windows of tokens in `text`. */
  tokenOffsets(text: string, ids: readonly number[]): TokenOffsets;
  /** Whether decode(encode(x).slice(a, b)) is always text.slice(...) of whole characters (the character tokenizer). */
  readonly exactSlices: boolean;
}

export function chonkieTokenizer(unit: Unit): ChonkieTokenizer {
  if (unitDescriptor(unit.name)?.isLength) return CHARACTER;
  if (isTiktokenUnit(unit)) return tiktokenTokenizer(unit);
  throw new Error(`Chonkie's tokenizers count characters or tokens: unit ${unit.name} has no Chonkie equivalent`);
}

const CHARACTER: ChonkieTokenizer = {
  exactSlices: true,
  countTokens: (text) => text.length,
  encode(text) {
    const ids: number[] = [];
    for (const ch of text) ids.push(ch.codePointAt(0)!);
    return ids;
  },
  decode(ids) {
    let out = '';
    for (const id of ids) out += String.fromCodePoint(id);
    return out;
  },
  tokenOffsets(text, ids) {
    const starts = new Int32Array(ids.length);
    const ends = new Int32Array(ids.length);
    let offset = 0;
    for (let i = 0; i < ids.length; i++) {
      starts[i] = offset;
      offset += ids[i]! > 0xffff ? 2 : 1;
      ends[i] = offset;
    }
    return { starts, ends };
  },
};

function tiktokenTokenizer(unit: TiktokenUnit): ChonkieTokenizer {
  return {
    exactSlices: false,
    countTokens: (text) => unit.count(text),
    encode: (text) => unit.encode(text),
    decode: (ids) => unit.decode(ids),
    tokenOffsets(text, ids) {
      const starts = new Int32Array(ids.length);
      const ends = new Int32Array(ids.length);
      // Two cursors over the characters, each with the byte offset where its character starts.
      let startChar = 0;
      let startByte = 0;
      let endChar = 0;
      let endByte = 0;
      let byte = 0;
      for (let t = 0; t < ids.length; t++) {
        while (startChar < text.length && startByte + utf8Width(text, startChar) <= byte) {
          startByte += utf8Width(text, startChar);
          startChar += utf16Width(text, startChar);
        }
        starts[t] = startChar;
        byte += unit.tokenByteLength(ids[t]!); // the unit's own byte table (js-tiktoken's encoder is never built)
        while (endChar < text.length && endByte < byte) {
          endByte += utf8Width(text, endChar);
          endChar += utf16Width(text, endChar);
        }
        ends[t] = endChar;
      }
      return { starts, ends };
    },
  };
}

export interface TokenOffsets {
  starts: Int32Array;
  ends: Int32Array;
}

/** UTF-8 bytes of the character at `i` as TextEncoder writes it (a lone surrogate becomes U+FFFD: 3 bytes). */
export function utf8Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) return 4;
  return 3;
}

export function utf16Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}
