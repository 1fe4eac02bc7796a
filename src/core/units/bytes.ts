import type { Unit } from '../types';
import type { SpanMeter } from './meter';
import type { UnitDescriptor } from './unit';

/**
 * UTF-8 bytes, as TextEncoder writes the text (Chonkie's FastChunker and most storage limits count these): 1 for
 * ASCII, 2 up to U+07FF, 3 for the rest of the Basic Multilingual Plane, 4 for a surrogate pair, and 3 for a lone
 * surrogate (TextEncoder writes U+FFFD).
 */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export const bytesUnit: Unit = {
  name: 'bytes',
  count: (text) => utf8Length(text),
};

/** Code units per block of the meter's table: a span's count costs two table reads and at most two partial blocks. */
const BLOCK = 64;

/**
 * Spans of one source in bytes: exact, O(BLOCK) per span. bytesBefore[k] is the byte length of the first k * BLOCK
 * code units, with a surrogate pair that straddles a block edge counted 2 + 2; a span that cuts a pair has a lone
 * surrogate there, which TextEncoder writes as 3 bytes, so each cut edge adds 1.
 */
function bytesMeter(source: string): SpanMeter {
  let table: Float64Array | null = null;
  const before = (x: number): number => {
    if (!table) {
      const t = new Float64Array(Math.floor(source.length / BLOCK) + 1);
      for (let k = 1; k < t.length; k++) t[k] = t[k - 1]! + pairedLength(source, (k - 1) * BLOCK, k * BLOCK);
      table = t;
    }
    const k = Math.floor(x / BLOCK);
    return table[k]! + pairedLength(source, k * BLOCK, x);
  };
  const exact = (a: number, b: number): number => {
    if (b <= a) return 0;
    return before(b) - before(a) + (cutsPair(source, a) ? 1 : 0) + (cutsPair(source, b) ? 1 : 0);
  };
  return { exactEstimates: true, mostPerCodeUnit: 3, exact, estimate: exact };
}

/** Bytes of [from, to) with each half of a surrogate pair of the whole source counted 2 (a lone one 3). */
function pairedLength(source: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if ((c & 0xf800) !== 0xd800) n += 3;
    else n += isPaired(source, i) ? 2 : 3;
  }
  return n;
}

function isPaired(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (c <= 0xdbff) return i + 1 < source.length && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
  return i > 0 && (source.charCodeAt(i - 1) & 0xfc00) === 0xd800;
}

/** Whether position x falls between the two halves of a surrogate pair. */
function cutsPair(source: string, x: number): boolean {
  return x > 0 && x < source.length && (source.charCodeAt(x - 1) & 0xfc00) === 0xd800 && (source.charCodeAt(x) & 0xfc00) === 0xdc00;
}

export const bytes: UnitDescriptor<'bytes'> = {
  name: 'bytes',
  label: 'bytes',
  longLabel: 'bytes (UTF-8)',
  title: 'Bytes (UTF-8)',
  noun: 'byte',
  description: 'bytes (UTF-8)',
  additive: true,
  isLength: false,
  mostCodeUnitsPerCount: 1,
  program: {
    js: { setup: ['const utf8 = new TextEncoder();', 'const countBytes = (t) => utf8.encode(t).length;'], count: 'countBytes' },
    py: { count: 'lambda t: len(t.encode("utf-8"))' },
    pyTokenizer: 'str.encode  # one token per UTF-8 byte',
    charsPer: 1,
  },
  load: () => Promise.resolve(bytesUnit),
  meter: (_, source) => bytesMeter(source),
};
