/**
 * Stable short hashes for document ids and chunk ids. Not cryptographic: two independent 32-bit multiplicative
 * hashes over UTF-16 code units, combined to 53 bits and written in base 36, so the page (worker), the CLI and the
 * library produce the same ids for the same input without any platform API.
 */
export function hashString(text: string, seed = 0): string {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x9e3779b9 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // Final avalanche so that short inputs differing in one character spread over all bits.
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1 ^ h2, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 ^= h2 >>> 13;
  h2 = Math.imul(h2, 0x27d4eb2f);
  h2 ^= h2 >>> 16;
  const value = (h2 & 0x1fffff) * 0x100000000 + (h1 >>> 0);
  return value.toString(36).padStart(11, '0');
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

/** A chunk id from the document id, a canonical key of the resolved options and the chunk's span. */
export function chunkId(documentId: string, optionsKey: string, start: number, end: number): string {
  return hashString(`${documentId}\u0000${optionsKey}\u0000${start}:${end}`);
}
