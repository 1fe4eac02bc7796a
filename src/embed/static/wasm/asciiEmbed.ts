import type { StaticTable } from '../onnxTable';
import type { StaticTokenizer } from '../tokenizer';
import { ASCII_EMBED_WASM } from './asciiEmbedModule';

/**
 * The built-in model's vectors in WebAssembly (asciiEmbed.as.ts, SIMD): the tokenizer's lookup and the row sums,
 * which are most of StaticEmbedder's time, in compiled code that needs no warm-up. ASCII texts are lowercased and
 * tokenized in the module; other texts come lowercased by JavaScript (texts with a surrogate stay on the JavaScript
 * path). The contract, which asciiEmbed.test.ts checks bit for bit against the JavaScript path: for a text that holds
 * no added token, the vector is the float32 normalization of the sum of its tokens' rows, each dimension added in
 * token order in doubles; exactly what StaticEmbedder computes for such a text without WebAssembly.
 *
 * The module's memory holds copies of the tables (the vocabulary's probe arrays, the int8 rows and their scales, a
 * float32 table filled row by row on first use), then room for one text, its token rows and the output vector.
 */

const PAGE = 65536;
/** Longer texts stay on the JavaScript path (same vector): the memory, which never shrinks, grows 5 bytes a unit. */
export const MAX_ASCII_TEXT = 1 << 20;

/** The parts of the WebAssembly API used here (the engine's own types are not in every build's lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface Exports {
  memory: WasmMemory;
  heapStart(): number;
  configure(...addresses: number[]): void;
  embedAscii(text: number, length: number, bases: number, out: number): number;
  embedAsciiTexts(text: number, lengths: number, count: number, bases: number, out: number, done: number): void;
  embedLoweredTexts(text: number, lengths: number, count: number, units: number, bases: number, out: number, done: number): void;
  sumIds(ids: number, count: number, bases: number): void;
}

/** Where one call's inputs and outputs go, after the tables (see AsciiEmbedder.area). */
interface Area {
  lengths: number;
  done: number;
  units: number;
  out: number;
  bases: number;
  text: number;
}

export class AsciiEmbedder {
  private bytes: Uint8Array;

  private constructor(
    private readonly wasm: Exports,
    private readonly dims: number,
    /** Where the f64 sums of sumIds are. */
    private readonly sumsAt: number,
    /** Where the per-call area starts. */
    private readonly scratch: number,
  ) {
    this.bytes = new Uint8Array(wasm.memory.buffer);
  }

  /** The embedder for these tables, or null where WebAssembly (with SIMD) is not available or not allowed. */
  static create(tokenizer: StaticTokenizer, weights: StaticTable): AsciiEmbedder | null {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!api) return null;
    const { vocabulary, unkId, asciiClasses, classOf } = tokenizer.lookupTables;
    let instance: { exports: unknown };
    try {
      // Compiled synchronously: the module is small (engines allow that for under 4 KB even on a page's main thread),
      // and an asynchronous compile cost a one-document process a turn of its event loop.
      // The module asks the tokenizer for the class of a non-ASCII unit the first time it meets one.
      instance = new api.Instance(new api.Module(decodeBase64(ASCII_EMBED_WASM)), { 'asciiEmbed.as': { classOf } });
    } catch {
      return null; // no SIMD, or a Content-Security-Policy without 'wasm-unsafe-eval': the JavaScript path
    }
    const wasm = instance.exports as unknown as Exports;
    const probe = vocabulary.probeArrays();
    const { rows, dims } = weights;
    // Each table at a 16-byte boundary, in this order; then the sums (f64 per dimension) and the per-call area.
    const parts: [string, ArrayBufferView | number][] = [
      ['classes', UNIT_COUNT],
      ['offsets', probe.offsets],
      ['lengths', probe.lengths],
      ['ids', probe.ids],
      ['chars', probe.chars],
      ['int8', weights.int8],
      ['scales', weights.scales],
      ['table', rows * dims * 4],
      ['ready', rows],
      ['zero', weights.zero],
      ['sums', dims * 8],
    ];
    const at = new Map<string, number>();
    let end = wasm.heapStart();
    for (const [name, part] of parts) {
      at.set(name, end);
      end = align16(end + (typeof part === 'number' ? part : part.byteLength));
    }
    growTo(wasm.memory, end);
    const bytes = new Uint8Array(wasm.memory.buffer);
    for (const [name, part] of parts) {
      if (typeof part !== 'number') bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at.get(name)!);
    }
    // The ASCII units' classes up front (the ASCII path reads them without asking); the others when first met.
    bytes.set(asciiClasses, at.get('classes')!);
    const a = (name: string) => at.get(name)!;
    wasm.configure(a('classes'), a('offsets'), a('lengths'), a('ids'), a('chars'), probe.mask, a('int8'), a('scales'), a('table'), a('ready'), a('zero'), a('sums'), rows, dims, unkId);
    return new AsciiEmbedder(wasm, dims, a('sums'), end);
  }

  /**
   * Writes the vector of `text` into `out` and returns true, or returns false (and leaves `out` alone) when the text
   * is not ASCII or longer than a mebibyte. The caller has checked that it holds no added token.
   */
  embed(text: string, out: Float32Array): boolean {
    const length = text.length;
    if (length > MAX_ASCII_TEXT) return false;
    const area = this.area(1, length, length);
    const { read, written } = encoder.encodeInto(text, this.bytes.subarray(area.text, area.text + length));
    // Every UTF-16 unit became one byte only when the text is ASCII.
    if (read !== length || written !== length) return false;
    this.wasm.embedAscii(area.text, length, area.bases, area.out);
    out.set(new Float32Array(this.wasm.memory.buffer, area.out, this.dims));
    return true;
  }

  /**
   * The vectors of `texts[i]` for each i of `which` (texts without added tokens, at most a mebibyte each) into `out`
   * from i * dims, in at most two calls (the ASCII texts, then the others lowercased); returns the indices it leaves
   * to the JavaScript path (texts with a surrogate), in order. One copy of all the texts and one call into the module
   * cost far less than a copy and a call per text, whose code a short process would run mostly before it is optimized.
   */
  embedMany(texts: readonly string[], which: readonly number[], out: Float32Array): number[] {
    if (which.length === 0) return [];
    const others = this.embedTexts(
      which.map((i) => texts[i]!),
      which,
      out,
      (area, count) => this.wasm.embedAsciiTexts(area.text, area.lengths, count, area.bases, area.out, area.done),
    );
    return others.length === 0 ? others : this.embedLowered(texts, others, out);
  }

  /**
   * embedMany's second pass, for texts that are not ASCII: lowercased here (String.prototype.toLowerCase on the whole
   * text, as the tokenizer's Lowercase normalizer does), then tokenized and embedded in the module. Returns the
   * indices left to the JavaScript path: texts with a surrogate (a code point beyond the BMP, or a lone one).
   */
  private embedLowered(texts: readonly string[], which: readonly number[], out: Float32Array): number[] {
    const left = which.filter((i) => SURROGATE.test(texts[i]!));
    const taken = which.filter((i) => !SURROGATE.test(texts[i]!));
    if (taken.length > 0) {
      const lowered = taken.map((i) => texts[i]!.toLowerCase());
      const notDone = this.embedTexts(lowered, taken, out, (area, count) =>
        this.wasm.embedLoweredTexts(area.text, area.lengths, count, area.units, area.bases, area.out, area.done),
      );
      left.push(...notDone);
    }
    return left.sort((a, b) => a - b);
  }

  /**
   * Writes `parts` into the module's memory (joined, one encodeInto, their lengths in UTF-16 units), runs `call` on
   * them, copies each vector the module marked done into `out` from which[k] * dims, and returns the others' indices.
   */
  private embedTexts(parts: string[], which: readonly number[], out: Float32Array, call: (area: Area, count: number) => void): number[] {
    const count = parts.length;
    let longest = 0;
    for (const part of parts) longest = Math.max(longest, part.length);
    const joined = parts.join('');
    // UTF-8 takes at most three bytes per UTF-16 unit.
    const area = this.area(count, longest, joined.length * 3);
    encoder.encodeInto(joined, this.bytes.subarray(area.text, area.text + joined.length * 3));
    const memory = this.wasm.memory.buffer;
    const lengths = new Int32Array(memory, area.lengths, count);
    for (let k = 0; k < count; k++) lengths[k] = parts[k]!.length;
    call(area, count);
    const notDone: number[] = [];
    copyDone(new Uint8Array(memory, area.done, count), new Float32Array(memory, area.out, count * this.dims), this.dims, which, out, notDone);
    return notDone;
  }

  /**
   * sum = the sum of the rows of `ids` (the JavaScript tokenizer's, for a text the ASCII path does not take), each
   * dimension in token order in doubles: what StaticEmbedder's loop computes, in compiled code.
   */
  sumIds(ids: Int32Array, sum: Float64Array): void {
    const area = this.area(1, ids.length, ids.length * 4);
    new Int32Array(this.wasm.memory.buffer, area.text, ids.length).set(ids);
    this.wasm.sumIds(area.text, ids.length, area.bases);
    sum.set(new Float64Array(this.wasm.memory.buffer, this.sumsAt, this.dims));
  }

  /**
   * The per-call area for `count` texts, the longest `longest` units, `textBytes` bytes in all: their lengths, which
   * were embedded, their vectors, the token rows of one text (at most one per unit), then the texts. The memory grows
   * when it must.
   */
  private area(count: number, longest: number, textBytes: number): Area {
    const lengths = this.scratch;
    const done = align16(lengths + count * 4);
    const out = align16(done + count);
    const units = align16(out + count * this.dims * 4);
    const bases = align16(units + longest * 2);
    const text = align16(bases + longest * 4);
    if (growTo(this.wasm.memory, text + textBytes)) this.bytes = new Uint8Array(this.wasm.memory.buffer);
    return { lengths, done, out, units, bases, text };
  }
}

const encoder = new TextEncoder();
/** Every UTF-16 unit has a class in the module's table. */
const UNIT_COUNT = 0x10000;
/** A high or low surrogate: such a text stays on the JavaScript path. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The k-th vector of `vectors` into `out` from which[k] * dims where done[k] is 1, else which[k] is pushed to
 * `notDone`; runs of neighbouring slots in one copy.
 */
function copyDone(done: Uint8Array, vectors: Float32Array, dims: number, which: readonly number[], out: Float32Array, notDone: number[]): void {
  let k = 0;
  while (k < which.length) {
    if (done[k] !== 1) {
      notDone.push(which[k]!);
      k++;
      continue;
    }
    let end = k + 1;
    while (end < which.length && done[end] === 1 && which[end] === which[end - 1]! + 1) end++;
    out.set(vectors.subarray(k * dims, end * dims), which[k]! * dims);
    k = end;
  }
}

function align16(n: number): number {
  return (n + 15) & ~15;
}

/** Grows the memory to at least `bytes`; true when it grew (its buffer, and every view of it, was replaced). */
function growTo(memory: WasmMemory, bytes: number): boolean {
  const missing = bytes - memory.buffer.byteLength;
  if (missing <= 0) return false;
  memory.grow(Math.ceil(missing / PAGE));
  return true;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
