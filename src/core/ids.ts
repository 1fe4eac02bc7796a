/**
 * Stable short hashes for document ids and chunk ids. Not cryptographic: two independent 32-bit multiplicative
 * hashes over UTF-16 code units, combined to 53 bits and written in base 36, so the page (worker), the CLI and the
 * library produce the same ids for the same input without any platform API.
 */
/** 53-bit hash of UTF-16 code units. */
function hash53(text: string, seed: number): number {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x9e3779b9 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return finish(h1, h2);
}

/** The same hash over the 16-bit halves of two integers (a span), without building a string. */
function hash53Span(start: number, end: number, seed: number): number {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x9e3779b9 ^ seed;
  for (const c of [start & 0xffff, start >>> 16, end & 0xffff, end >>> 16]) {
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
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

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A hash as 11 base-36 digits (by hand: Number#toString(36) on a 53-bit double is slow in V8). */
function base36(hash: number): string {
  let value = hash;
  let out = '';
  for (let i = 0; i < 11; i++) {
    const digit = value % 36;
    out = DIGITS[digit] + out;
    value = (value - digit) / 36;
  }
  return out;
}

export function hashString(text: string, seed = 0): string {
  return base36(hash53(text, seed));
}

let lastDocument: { text: string; id: string } | null = null;

/**
 * Default document id: a hash of the text (so the page and the CLI agree without being told an id). The last one
 * is remembered: re-chunking the same document on every slider move should not re-hash a megabyte.
 */
export function documentIdFor(text: string): string {
  if (lastDocument && lastDocument.text === text) return lastDocument.id;
  const id = 'doc-' + hashString(text);
  lastDocument = { text, id };
  return id;
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
