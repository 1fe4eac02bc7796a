import type { CompiledVocabulary } from './tokenizer';
import { VocabTable } from './vocabTable';

/**
 * A compiled vocabulary stored beside tokenizer.json (`vocab-table.bin`), so that loading the built-in model is a
 * few typed-array views instead of JSON.parse of the 473 KB tokenizer.json and 30,000 hash-table inserts (about
 * 40 ms of a cold CLI process). The table is the one compileStaticTokenizer builds from that tokenizer.json, slot for
 * slot, so lookups give the same ids; `npm run model:vocab-table` writes it and a unit test fails when it no longer
 * matches the tokenizer.json beside it. A folder without the file loads from tokenizer.json as before.
 *
 * Layout (little-endian): "CSVT", u32 version, u32 header length, the header as UTF-8 JSON, zeros to a multiple of
 * 4, then u16 word length per slot (0: empty), zeros to a multiple of 4, i32 id per filled slot in slot order, and
 * the filled slots' words in slot order as UTF-8.
 */

export const VOCAB_FILE = 'vocab-table.bin';
const MAGIC = 0x54565343; // "CSVT" read as a little-endian u32
const VERSION = 1;

export interface VocabFileHeader {
  format: 'chunkscope-vocab-table';
  version: number;
  slots: number;
  words: number;
  /** UTF-16 code units of all words together. */
  chars: number;
  unkId: number;
  added: string[];
  /** SHA-256 (hex) of the files it was compiled from, by name: how a test knows it is not stale. */
  compiledFrom: Record<string, string>;
}

const align4 = (n: number) => (n + 3) & ~3;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeVocabFile(vocabulary: CompiledVocabulary, compiledFrom: Record<string, string>): Uint8Array {
  const { lengths, ids, chars } = vocabulary.table.toSlots();
  const header: VocabFileHeader = {
    format: 'chunkscope-vocab-table',
    version: VERSION,
    slots: lengths.length,
    words: ids.length,
    chars: chars.length,
    unkId: vocabulary.unkId,
    added: vocabulary.added,
    compiledFrom,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const text = stringOf(chars);
  const words = new TextEncoder().encode(text);
  // UTF-8 cannot carry a lone surrogate: refuse rather than store a different word.
  if (new TextDecoder().decode(words) !== text) throw new Error('a vocabulary word holds a lone surrogate');
  const lengthsAt = align4(12 + headerBytes.length);
  const idsAt = align4(lengthsAt + lengths.byteLength);
  const wordsAt = idsAt + ids.byteLength;
  const out = new Uint8Array(wordsAt + words.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  for (let i = 0; i < lengths.length; i++) view.setUint16(lengthsAt + i * 2, lengths[i]!, true);
  for (let i = 0; i < ids.length; i++) view.setInt32(idsAt + i * 4, ids[i]!, true);
  out.set(words, wordsAt);
  return out;
}

function stringOf(units: Uint16Array): string {
  let out = '';
  for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192));
  return out;
}

/** The compiled vocabulary in a vocabulary file; throws with the reason when the bytes are not one. */
export function decodeVocabFile(bytes: Uint8Array): CompiledVocabulary & { header: VocabFileHeader } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || view.getUint32(0, true) !== MAGIC) throw new Error(`${VOCAB_FILE}: not a vocabulary table`);
  if (view.getUint32(4, true) !== VERSION) throw new Error(`${VOCAB_FILE}: version ${view.getUint32(4, true)}, expected ${VERSION}`);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as VocabFileHeader;
  const lengthsAt = align4(12 + headerLength);
  const idsAt = align4(lengthsAt + header.slots * 2);
  const wordsAt = idsAt + header.words * 4;
  if (header.format !== 'chunkscope-vocab-table' || wordsAt > bytes.length) throw new Error(`${VOCAB_FILE}: truncated or malformed`);
  // Copies, not views: the bytes may sit at an offset a typed array cannot start at. A little-endian engine reads
  // copies of the byte ranges as they are (a cold process spent 4 ms going through the DataView element by element).
  const lengths = LITTLE_ENDIAN ? new Uint16Array(bytes.slice(lengthsAt, lengthsAt + header.slots * 2).buffer) : new Uint16Array(header.slots);
  const ids = LITTLE_ENDIAN ? new Int32Array(bytes.slice(idsAt, idsAt + header.words * 4).buffer) : new Int32Array(header.words);
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < lengths.length; i++) lengths[i] = view.getUint16(lengthsAt + i * 2, true);
    for (let i = 0; i < ids.length; i++) ids[i] = view.getInt32(idsAt + i * 4, true);
  }
  const words = new TextDecoder().decode(bytes.subarray(wordsAt));
  if (words.length !== header.chars) throw new Error(`${VOCAB_FILE}: ${words.length} characters of words, expected ${header.chars}`);
  const chars = new Uint16Array(words.length);
  for (let i = 0; i < words.length; i++) chars[i] = words.charCodeAt(i);
  return { table: VocabTable.fromSlots({ lengths, ids, chars }), unkId: header.unkId, added: header.added, header };
}
