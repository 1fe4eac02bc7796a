// AssemblyScript, compiled by `npm run build:wasm` into asciiEmbedModule.ts (not TypeScript: excluded from tsc).
//
// The built-in model's vector of a text, as StaticEmbedder computes it in JavaScript (see asciiEmbed.ts for the
// contract): lowercase + BertPreTokenizer + WordLevel lookup, the sum of the tokens' rows in doubles, each dimension
// in token order (two dimensions per SIMD lane pair, so the same additions in the same order), then the Euclidean
// normalization to float32. An ASCII text is lowercased here; any other text comes lowercased by the host (the
// Unicode rules are JavaScript's), and the host classifies its non-ASCII units (whitespace, punctuation, word) the
// first time they are met. The caller has checked that no text holds an added token.

/** The host's class of a UTF-16 unit: 1 whitespace, 2 punctuation, 3 word (the tokenizer's classOfUnit). */
declare function classOf(unit: i32): i32;

const SPACE: u8 = 1;
const WORD: u8 = 3;

// Where the caller put the tables (byte addresses in this memory), set once by configure.
let classes: usize = 0; // u8[65536]: SPACE, PUNCT or WORD per UTF-16 unit, 0 until the host has classified it
let slotOffsets: usize = 0; // i32 per vocabulary slot: offset of its word in `chars`, -1 when empty
let slotLengths: usize = 0; // i32 per slot
let slotIds: usize = 0; // i32 per slot
let chars: usize = 0; // u16 code units of the words
let slotMask: u32 = 0;
let int8: usize = 0; // i8[rows * dims]
let scales: usize = 0; // f32[rows]
let table: usize = 0; // f32[rows * dims], row r filled on first use
let ready: usize = 0; // u8[rows]: 1 once row r is in `table`
let zero: usize = 0; // u8[rows]: 1 for an all-zero row ([PAD], [UNK]): it adds nothing
let bases: usize = 0; // i32 per token of the current text: its row's first index in `table`
let sums: usize = 0; // f64[dims]
let rows: i32 = 0;
let dims: i32 = 0;
let unkId: i32 = 0;

/** The first byte address the caller may use (after this module's own data), 16-byte aligned. */
export function heapStart(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function configure(
  classesAt: usize,
  offsetsAt: usize,
  lengthsAt: usize,
  idsAt: usize,
  charsAt: usize,
  mask: u32,
  int8At: usize,
  scalesAt: usize,
  tableAt: usize,
  readyAt: usize,
  zeroAt: usize,
  sumsAt: usize,
  rowCount: i32,
  dimCount: i32,
  unk: i32,
): void {
  classes = classesAt;
  slotOffsets = offsetsAt;
  slotLengths = lengthsAt;
  slotIds = idsAt;
  chars = charsAt;
  slotMask = mask;
  int8 = int8At;
  scales = scalesAt;
  table = tableAt;
  ready = readyAt;
  zero = zeroAt;
  sums = sumsAt;
  rows = rowCount;
  dims = dimCount;
  unkId = unk;
}

function lowered(unit: u32): u32 {
  return unit - 0x41 < 26 ? unit + 0x20 : unit;
}

/** The id of text[from, to) lowercased, or -1: VocabTable.slotOf's FNV-1a hash and linear probing. */
function lookup(text: usize, from: i32, to: i32): i32 {
  let h: u32 = 0x811c9dc5;
  for (let i = from; i < to; i++) h = (h ^ lowered(<u32>load<u8>(text + <usize>i))) * 0x01000193;
  const length = to - from;
  let slot = (h ^ (h >>> 15)) & slotMask;
  // The table always has an empty slot (it is at most half full), so the probe ends.
  let at = load<i32>(slotOffsets + (<usize>slot << 2));
  while (at >= 0) {
    if (load<i32>(slotLengths + (<usize>slot << 2)) == length) {
      let i = 0;
      for (; i < length; i++) {
        if (<u32>load<u16>(chars + (<usize>(at + i) << 1)) != lowered(<u32>load<u8>(text + <usize>(from + i)))) break;
      }
      if (i == length) return load<i32>(slotIds + (<usize>slot << 2));
    }
    slot = (slot + 1) & slotMask;
    at = load<i32>(slotOffsets + (<usize>slot << 2));
  }
  return -1;
}

/** The class of a UTF-16 unit, asked of the host the first time. */
function classOfUnit(unit: u32): u8 {
  let c = load<u8>(classes + <usize>unit);
  if (c == 0) {
    c = <u8>classOf(<i32>unit);
    store<u8>(classes + <usize>unit, c);
  }
  return c;
}

/** lookup for UTF-16 units (u16 at `units`), already lowercased. */
function lookupUnits(units: usize, from: i32, to: i32): i32 {
  let h: u32 = 0x811c9dc5;
  for (let i = from; i < to; i++) h = (h ^ <u32>load<u16>(units + (<usize>i << 1))) * 0x01000193;
  const length = to - from;
  let slot = (h ^ (h >>> 15)) & slotMask;
  let at = load<i32>(slotOffsets + (<usize>slot << 2));
  while (at >= 0) {
    if (load<i32>(slotLengths + (<usize>slot << 2)) == length) {
      let i = 0;
      for (; i < length; i++) {
        if (load<u16>(chars + (<usize>(at + i) << 1)) != load<u16>(units + (<usize>(from + i) << 1))) break;
      }
      if (i == length) return load<i32>(slotIds + (<usize>slot << 2));
    }
    slot = (slot + 1) & slotMask;
    at = load<i32>(slotOffsets + (<usize>slot << 2));
  }
  return -1;
}

/** Row `id` as float32(int8 value * scale), filled in `table` on its first use. */
function rowBase(id: i32): i32 {
  const base = id * dims;
  if (load<u8>(ready + <usize>id) == 0) {
    const scale = load<f32>(scales + (<usize>id << 2));
    for (let k = 0; k < dims; k++) {
      store<f32>(table + (<usize>(base + k) << 2), <f32>load<i8>(int8 + <usize>(base + k)) * scale);
    }
    store<u8>(ready + <usize>id, 1);
  }
  return base;
}

/**
 * The token `id` (-1: not in the vocabulary, so the unknown word) as the `count`-th row to sum, unless its row is all
 * zeros ([PAD], [UNK]: it adds nothing); returns the new count.
 */
function keepRow(id: i32, count: i32): i32 {
  if (id < 0) id = unkId;
  if (id >= rows || load<u8>(zero + <usize>id) != 0) return count;
  store<i32>(bases + (<usize>count << 2), rowBase(id));
  return count + 1;
}

/**
 * Embeds the ASCII text of `length` bytes at `text` into `dims` float32 values at `out`, using `basesAt` (room for
 * `length` i32) for the token rows. Returns the number of tokens whose rows were summed.
 */
export function embedAscii(text: usize, length: i32, basesAt: usize, out: usize): i32 {
  bases = basesAt;
  let count = 0;
  let i = 0;
  while (i < length) {
    const cls = load<u8>(classes + <usize>load<u8>(text + <usize>i));
    if (cls == SPACE) {
      i++;
      continue;
    }
    let end = i + 1;
    // A word runs while the units are word units; a punctuation mark is a word of its own.
    if (cls == WORD) while (end < length && load<u8>(classes + <usize>load<u8>(text + <usize>end)) == WORD) end++;
    count = keepRow(lookup(text, i, end), count);
    i = end;
  }
  sumRows(count);
  normalize(out);
  return count;
}

/**
 * embedAscii for `count` texts stored one after another from `text` in UTF-8, their lengths in UTF-16 units i32 at
 * `lengths`; the vectors one after another from `out`. A text that is not ASCII is skipped (its UTF-8 bytes are
 * walked to find the next text) and gets 0 in the u8 at `done`, the others 1. `basesAt` has room for the longest.
 */
export function embedAsciiTexts(text: usize, lengths: usize, count: i32, basesAt: usize, out: usize, done: usize): void {
  let at = text;
  for (let i = 0; i < count; i++) {
    const units = load<i32>(lengths + (<usize>i << 2));
    let ascii = true;
    for (let b = 0; b < units; b++) {
      if (load<u8>(at + <usize>b) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      embedAscii(at, units, basesAt, out + (<usize>(i * dims) << 2));
      at += <usize>units;
    } else at = skipUtf8(at, units);
    store<u8>(done + <usize>i, ascii ? 1 : 0);
  }
}

/** The address after `units` UTF-16 units of UTF-8 from `at` (a four-byte sequence is two units). */
function skipUtf8(at: usize, units: i32): usize {
  while (units > 0) {
    const lead = <u32>load<u8>(at);
    if (lead < 0x80) at += 1;
    else if (lead < 0xe0) at += 2;
    else if (lead < 0xf0) at += 3;
    else {
      at += 4;
      units--;
    }
    units--;
  }
  return at;
}

/**
 * embedAsciiTexts for texts the host has lowercased, any of them not ASCII: each is decoded from UTF-8 into UTF-16
 * units at `unitsAt` (room for the longest), tokenized there and embedded. A text with a code point beyond the BMP
 * (a four-byte sequence: a surrogate pair, whose class the host decides for the pair) is skipped with 0 in `done`.
 */
export function embedLoweredTexts(text: usize, lengths: usize, count: i32, unitsAt: usize, basesAt: usize, out: usize, done: usize): void {
  bases = basesAt;
  let at = text;
  for (let i = 0; i < count; i++) {
    const units = load<i32>(lengths + (<usize>i << 2));
    // Decode: one unit per one-, two- or three-byte sequence.
    let n = 0;
    let bmp = true;
    while (n < units) {
      const lead = <u32>load<u8>(at);
      let unit: u32;
      if (lead < 0x80) {
        unit = lead;
        at += 1;
      } else if (lead < 0xe0) {
        unit = ((lead & 0x1f) << 6) | (<u32>load<u8>(at, 1) & 0x3f);
        at += 2;
      } else if (lead < 0xf0) {
        unit = ((lead & 0x0f) << 12) | ((<u32>load<u8>(at, 1) & 0x3f) << 6) | (<u32>load<u8>(at, 2) & 0x3f);
        at += 3;
      } else {
        bmp = false;
        at += 4;
        n += 2;
        continue;
      }
      store<u16>(unitsAt + (<usize>n << 1), <u16>unit);
      n++;
    }
    store<u8>(done + <usize>i, bmp ? 1 : 0);
    if (!bmp) continue;
    let tokens = 0;
    let k = 0;
    while (k < units) {
      const cls = classOfUnit(<u32>load<u16>(unitsAt + (<usize>k << 1)));
      if (cls == SPACE) {
        k++;
        continue;
      }
      let end = k + 1;
      if (cls == WORD) while (end < units && classOfUnit(<u32>load<u16>(unitsAt + (<usize>end << 1))) == WORD) end++;
      tokens = keepRow(lookupUnits(unitsAt, k, end), tokens);
      k = end;
    }
    sumRows(tokens);
    normalize(out + (<usize>(i * dims) << 2));
  }
}

/**
 * The sums of the rows of `count` token ids (i32 at `ids`, any text's: the JavaScript tokenizer's) into the f64 sums
 * area, using `basesAt` (room for `count` i32), not normalized: the JavaScript path normalizes them itself.
 */
export function sumIds(ids: usize, count: i32, basesAt: usize): void {
  bases = basesAt;
  let kept = 0;
  for (let t = 0; t < count; t++) {
    const id = load<i32>(ids + (<usize>t << 2));
    if (id >= 0) kept = keepRow(id, kept);
  }
  sumRows(kept);
}

/** sums[k] = the rows' values in dimension k added in token order, from 0 (eight dimensions per pass). */
function sumRows(count: i32): void {
  let k = 0;
  for (; k + 8 <= dims; k += 8) {
    let a0 = f64x2.splat(0);
    let a1 = f64x2.splat(0);
    let a2 = f64x2.splat(0);
    let a3 = f64x2.splat(0);
    for (let t = 0; t < count; t++) {
      const at = table + (<usize>(load<i32>(bases + (<usize>t << 2)) + k) << 2);
      const lo = v128.load(at);
      const hi = v128.load(at, 16);
      a0 = f64x2.add(a0, f64x2.promote_low_f32x4(lo));
      a1 = f64x2.add(a1, f64x2.promote_low_f32x4(f32x4.shuffle(lo, lo, 2, 3, 0, 1)));
      a2 = f64x2.add(a2, f64x2.promote_low_f32x4(hi));
      a3 = f64x2.add(a3, f64x2.promote_low_f32x4(f32x4.shuffle(hi, hi, 2, 3, 0, 1)));
    }
    const s = sums + (<usize>k << 3);
    v128.store(s, a0);
    v128.store(s, a1, 16);
    v128.store(s, a2, 32);
    v128.store(s, a3, 48);
  }
  for (; k < dims; k++) {
    let s: f64 = 0;
    for (let t = 0; t < count; t++) s += <f64>load<f32>(table + (<usize>(load<i32>(bases + (<usize>t << 2)) + k) << 2));
    store<f64>(sums + (<usize>k << 3), s);
  }
}

/** out = sums / |sums| in float32, or zeros when the sum has no direction (StaticEmbedder.embedOne's rule). */
function normalize(out: usize): void {
  let s: f64 = 0;
  for (let k = 0; k < dims; k++) {
    const v = load<f64>(sums + (<usize>k << 3));
    s += v * v;
  }
  const n = Math.sqrt(s);
  const none = !(n > 1e-9) || !isFinite(n);
  for (let k = 0; k < dims; k++) {
    store<f32>(out + (<usize>k << 2), none ? 0 : <f32>(load<f64>(sums + (<usize>k << 3)) / n));
  }
}
