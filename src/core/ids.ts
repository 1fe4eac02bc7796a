/**
 * Stable short hashes for document ids and chunk ids. Not cryptographic: two independent 32-bit multiplicative
 * hashes over the text's UTF-8 bytes taken four at a time, combined to 53 bits and written in base 36, so the page
 * (worker), the CLI and the library produce the same ids for the same input with only TextEncoder, which both have.
 * UTF-8 through encodeInto (native) reads a megabyte in about a millisecond; the earlier loop over UTF-16 code units
 * took 6-8 ms, most of a new document's first chunking.
 */
import { documentCache } from './documentCache';
/** TextEncoder, in every browser, worker and Node; declared here because the engine is built without the DOM lib. */
declare const TextEncoder: new () => { encodeInto(source: string, destination: Uint8Array): { read: number; written: number } };
const encoder = new TextEncoder();
/** UTF-16 units encoded per encodeInto call: the byte buffer stays small and is reused. */
const BLOCK = 1 << 14;
const bytes = new Uint8Array(BLOCK * 3 + 8);
const words = new Int32Array(bytes.buffer);

/** 53-bit hash of a string. */
function hash53(text: string, seed: number): number {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x9e3779b9 ^ seed;
  for (let from = 0; from < text.length || from === 0; ) {
    let to = Math.min(text.length, from + BLOCK);
    // Never split a surrogate pair between two blocks (each half alone would encode as U+FFFD).
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to--;
    const block = from === 0 && to === text.length ? text : text.substring(from, to);
    const { written } = encoder.encodeInto(block, bytes);
    const pairs = (written + 7) >> 3;
    bytes.fill(0, written, pairs << 3);
    for (let w = 0; w < pairs; w++) {
      h1 = Math.imul(h1 ^ words[2 * w]!, 0x01000193);
      h2 = Math.imul(h2 ^ words[2 * w + 1]!, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = Math.imul(h1 ^ written, 0x01000193);
    // A lone surrogate encodes as U+FFFD, as a real U+FFFD does: where one may be, mix in the code units too, so
    // the two texts still differ. Rare, so the slow loop costs nothing on ordinary text.
    if (hasReplacementCharacter(written)) {
      for (let i = 0; i < block.length; i++) h2 = Math.imul(h2 ^ block.charCodeAt(i), 0x5bd1e995);
    }
    if (to === text.length) break;
    from = to;
  }
  return finish(h1, h2);
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** Whether bytes[0, written) hold EF BF BD, U+FFFD in UTF-8. */
function hasReplacementCharacter(written: number): boolean {
  const view = bytes.subarray(0, written);
  for (let at = view.indexOf(0xef); at >= 0; at = view.indexOf(0xef, at + 1)) {
    if (view[at + 1] === 0xbf && view[at + 2] === 0xbd) return true;
  }
  return false;
}

/** The same hash over the 16-bit halves of two integers (a span), without building a string (unrolled: no array). */
function hash53Span(start: number, end: number, seed: number): number {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x9e3779b9 ^ seed;
  h1 = Math.imul(h1 ^ (start & 0xffff), 0x01000193);
  h2 = Math.imul(h2 ^ (start & 0xffff), 0x5bd1e995);
  h2 ^= h2 >>> 15;
  h1 = Math.imul(h1 ^ (start >>> 16), 0x01000193);
  h2 = Math.imul(h2 ^ (start >>> 16), 0x5bd1e995);
  h2 ^= h2 >>> 15;
  h1 = Math.imul(h1 ^ (end & 0xffff), 0x01000193);
  h2 = Math.imul(h2 ^ (end & 0xffff), 0x5bd1e995);
  h2 ^= h2 >>> 15;
  h1 = Math.imul(h1 ^ (end >>> 16), 0x01000193);
  h2 = Math.imul(h2 ^ (end >>> 16), 0x5bd1e995);
  h2 ^= h2 >>> 15;
  return finish(h1, h2);
}

/** Final avalanche, so that short inputs differing in one value spread over all bits; 53 bits out. */
function finish(h1: number, h2: number): number {
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1 ^ h2, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 ^= h2 >>> 13;
  h2 = Math.imul(h2, 0x27d4eb2f);
  h2 ^= h2 >>> 16;
  return (h2 & 0x1fffff) * 0x100000000 + (h1 >>> 0);
}

const DIGIT_CODES = Uint8Array.from('0123456789abcdefghijklmnopqrstuvwxyz', (c) => c.charCodeAt(0));
const digits = new Uint8Array(11);

/**
 * A hash as 11 base-36 digits (by hand: Number#toString(36) on a 53-bit double is slow in V8), built as one string
 * from char codes: a re-split after a threshold move makes thousands of ids, and concatenating made 11 strings each.
 */
function base36(hash: number): string {
  let value = hash;
  for (let i = 10; i >= 0; i--) {
    const digit = value % 36;
    digits[i] = DIGIT_CODES[digit]!;
    value = (value - digit) / 36;
  }
  const d = digits;
  return String.fromCharCode(d[0]!, d[1]!, d[2]!, d[3]!, d[4]!, d[5]!, d[6]!, d[7]!, d[8]!, d[9]!, d[10]!);
}

export function hashString(text: string, seed = 0): string {
  return base36(hash53(text, seed));
}

/** An id string's estimated bytes. */
const ID_BYTES = (): number => 64;

/**
 * Default document id: a hash of the text (so the page and the CLI agree without being told an id). It is kept in
 * the document's cache: re-chunking the same document on every slider move should not re-hash a megabyte.
 */
export function documentIdFor(text: string): string {
  return documentCache.getOrCompute(text, 'ids.documentId', () => 'doc-' + hashString(text), ID_BYTES);
}

/**
 * Chunk ids for one run: hash(documentId, canonical options key) once, then each span is hashed with it as the
 * seed, so thousands of chunks cost a few characters of hashing each.
 */
export function chunkIdMaker(documentId: string, optionsKey: string): (start: number, end: number) => string {
  const seed = hash53(`${documentId}\u0000${optionsKey}`, 0) % 0x100000000 | 0;
  return (start, end) => base36(hash53Span(start, end, seed));
}

/**
 * Ids for structure-aware chunks: from the document id, the options, the heading path and the content, so a chunk
 * keeps its id when text elsewhere in the document changes. Identical (path, content) pairs get an ordinal.
 */
export function structuralIdMaker(documentId: string, optionsKey: string): (headingPath: readonly string[], content: string) => string {
  const seed = hash53(`${documentId}\u0000${optionsKey}`, 0) % 0x100000000 | 0;
  const seen = new Map<string, number>();
  return (headingPath, content) => {
    const key = `${headingPath.join('\u0001')}\u0000${content}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    return base36(hash53(ordinal === 0 ? key : `${key}\u0000${ordinal}`, seed));
  };
}
