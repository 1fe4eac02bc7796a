import type { Range } from '../../core/types';
import { tokenOffsets } from '../offsets';
import type { EmbedCallOptions, Embedder, EmbedderInfo } from '../types';
import { readModelFile, readModelJson, readOptionalModelFile } from './files';
import { readStaticTable, type StaticTable } from './onnxTable';
import { isWhitespaceUnit, readStaticTokenizer, staticTokenizerFrom, type StaticTokenizer, type TokenizerJson } from './tokenizer';
import { decodeVocabFile, VOCAB_FILE } from './vocabFile';
import { AsciiEmbedder, MAX_ASCII_TEXT } from './wasm/asciiEmbed';

/**
 * The built-in static model without a neural runtime: its own tokenizer rules (tokenizer.ts) and a Float32Array row
 * lookup in its table (onnxTable.ts). A text's vector is the sum of its tokens' rows, normalized: what the ONNX
 * graph's `sentence_embedding` computes (ReduceSum then LpNormalization) and what mean pooling of
 * `last_hidden_state` followed by normalization gives (normalizing makes the mean and the sum the same vector).
 * `[PAD]` and `[UNK]` rows are zero, so unknown words add nothing; a text with no known word gives a zero vector.
 */

/** Texts embedded between two looks at the clock (cancel, progress, a turn for the event loop). */
const SLICE_TEXTS = 512;
/** Longest stretch without giving the event loop a turn (a worker must see a cancel message). */
const SLICE_MS = 40;
/** A character that is not whitespace (what trim() keeps), without copying the text. */
const NOT_BLANK = /\S/;
/** Texts summed from the previous one before a full sum again (bounds the rounding that accumulates, in doubles). */
const MAX_CHAIN = 64;
/** Piece sums kept for the next texts (a sliding window drops what it added two texts ago; 8 covers buffers up to 3). */
const RECENT_PIECES = 8;

/** Made-up sentences the warm-up embeds (see warmUp), and the words they are made of. */
const WARM_UP_SENTENCES = 600;
const WARM_UP_WORDS = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their has been its more would when will who some time what about people year than'.split(' ');

/** Only ASCII code units (such a text's vector is summed whole: see embedOne). */
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/** The key of an empty ring slot: never a trimmed piece (those neither start nor end with whitespace). */
const NO_PIECE = ' ';

/** A whitespace-bounded piece's trimmed text and the sum of its rows. */
interface PieceSum {
  key: string;
  sum: Float64Array;
}

export class StaticEmbedder implements Embedder {
  private readonly dims: number;
  /** The last text embedded and its sum of rows (in doubles: within 1e-7 of onnxruntime's float32 ReduceSum). */
  private previous: { text: string; sum: Float64Array; chain: number } | null = null;
  /** Two sum buffers used in turn: the previous text's sum stays readable while the next one is written. */
  private readonly sums: [Float64Array, Float64Array];
  private nextSum = 0;
  /** Sums of recent whitespace-bounded pieces, a ring reused in place (no allocation per text). */
  private readonly recent: PieceSum[];
  private recentNext = 0;
  /** Table offsets of the rows sumRows sums on the JavaScript path (grown as needed). */
  private bases = new Int32Array(256);

  constructor(
    readonly info: EmbedderInfo,
    private readonly tokenizer: StaticTokenizer,
    private readonly weights: StaticTable,
    /** The WebAssembly path for ASCII texts, or null where WebAssembly is not available. */
    private readonly ascii: AsciiEmbedder | null = null,
  ) {
    this.dims = weights.dims;
    this.sums = [new Float64Array(this.dims), new Float64Array(this.dims)];
    this.recent = Array.from({ length: RECENT_PIECES }, () => ({ key: NO_PIECE, sum: new Float64Array(this.dims) }));
  }

  /**
   * sum = the sum of the rows of `text`'s tokens, each dimension added in token order in doubles: in WebAssembly where
   * it runs (the same additions in compiled code), else here, dimension by dimension, four at a time, with the
   * partial sums in locals (without a load and a store of `sum` per token, which made this loop twice as slow).
   */
  private sumRows(text: string, sum: Float64Array): void {
    const ids = this.tokenizer.encodeShared(text);
    if (this.ascii) {
      this.ascii.sumIds(ids, sum);
      return;
    }
    const weights = this.weights;
    const { zero, rows } = weights;
    const d = this.dims;
    if (this.bases.length < ids.length) this.bases = new Int32Array(Math.max(ids.length, this.bases.length * 2));
    const bases = this.bases;
    let m = 0;
    for (let t = 0; t < ids.length; t++) {
      const id = ids[t]!;
      // [PAD], [UNK] and any other all-zero row add nothing (nor would an id past the table).
      if (id >= rows || zero[id] !== 0) continue;
      bases[m++] = weights.row(id);
    }
    const table = weights.table;
    let k = 0;
    for (; k + 4 <= d; k += 4) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let t = 0; t < m; t++) {
        const at = bases[t]! + k;
        s0 += table[at]!;
        s1 += table[at + 1]!;
        s2 += table[at + 2]!;
        s3 += table[at + 3]!;
      }
      sum[k] = s0;
      sum[k + 1] = s1;
      sum[k + 2] = s2;
      sum[k + 3] = s3;
    }
    for (; k < d; k++) {
      let s = 0;
      for (let t = 0; t < m; t++) s += table[bases[t]! + k]!;
      sum[k] = s;
    }
  }

  /** The sum of a whitespace-bounded piece's rows, kept for the next texts. */
  private pieceSum(piece: string): Float64Array {
    const key = piece.trim();
    const recent = this.recent;
    for (let r = 0; r < RECENT_PIECES; r++) if (recent[r]!.key === key) return recent[r]!.sum;
    const slot = this.recent[this.recentNext]!;
    this.recentNext = (this.recentNext + 1) % RECENT_PIECES;
    slot.key = key;
    this.sumRows(key, slot.sum);
    return slot.sum;
  }

  /**
   * The sum of `text`'s rows from the previous text's, when `text` continues it: the semantic splitter's windows
   * (sentences i-1, i, i+1, then i, i+1, i+2) overlap by all but one sentence. text = previous minus a prefix plus a
   * suffix, cut at whitespace, where the tokens of the whole are those of the parts (see splitsAtWhitespace), so
   * the sum is the same up to rounding in doubles. False when it does not apply.
   */
  private sumFromPrevious(text: string, sum: Float64Array): boolean {
    const prev = this.previous;
    if (!prev || prev.chain >= MAX_CHAIN) return false;
    const at = overlapStart(prev.text, text);
    if (at < 0) return false;
    // (prev - removed) + added, in two passes: the ring may reuse the removed piece's slot for the added one.
    const removed = this.pieceSum(prev.text.slice(0, at));
    for (let k = 0; k < this.dims; k++) sum[k] = prev.sum[k]! - removed[k]!;
    const added = this.pieceSum(text.slice(prev.text.length - at));
    for (let k = 0; k < this.dims; k++) sum[k] = sum[k]! + added[k]!;
    return true;
  }

  /**
   * The normalized sum of the rows of `text`'s tokens, written into `out` (zeros when no token has a direction).
   * An ASCII text without added tokens (most of an English document) is summed whole, in WebAssembly where it runs
   * and here otherwise, to the same bits; any other text continues the previous such text where it can.
   */
  embedOne(text: string, out: Float32Array): Float32Array {
    const plain = !this.tokenizer.containsAddedToken(text);
    if (plain && this.ascii?.embed(text, out)) return out;
    if (plain && ASCII_ONLY.test(text)) {
      const sum = this.sums[this.nextSum]!;
      this.sumRows(text, sum);
      return normalizeInto(sum, out);
    }
    const sum = this.sums[this.nextSum]!;
    // A capital sigma lowercases by context (Final_Sigma): such a text is summed whole and not continued.
    const splittable = this.tokenizer.splitsAtWhitespace && !text.includes('\u03a3');
    const chained = splittable && this.sumFromPrevious(text, sum);
    if (!chained) this.sumRows(text, sum);
    if (splittable) {
      const chain = chained ? this.previous!.chain + 1 : 0;
      if (this.previous) {
        this.previous.text = text;
        this.previous.sum = sum;
        this.previous.chain = chain;
      } else this.previous = { text, sum, chain };
      this.nextSum ^= 1;
    } else this.previous = null;
    return normalizeInto(sum, out);
  }

  /**
   * Runs every branch of the JavaScript path once on a few made-up texts (added tokens, emoji, a capital sigma), so
   * that the optimizing compiler sees type feedback for all of them.
   */
  private warmUp(): void {
    const out = new Float32Array(this.dims);
    const texts = [
      'The first line. Café au lait, naïve résumé!',
      'Café au lait, naïve résumé! Ünïcode 東京 😀 [UNK] xyzzyq',
      'naïve résumé! Ünïcode 東京 😀 [UNK] xyzzyq. ΣΟΦΙΑ Σ',
      'qqqzzzx',
      'Another text, another start.',
      'another start. And one more: "quoted" — dashes.',
    ];
    for (let r = 0; r < 3; r++) for (const t of texts) this.embedOne(t, out);
    this.previous = null;
    for (const p of this.recent) p.key = NO_PIECE;
  }

  /**
   * warmUp, then ~600 ordinary sentences in overlapping windows through embed's own path (a few ms), so that its
   * loops are optimized and the module's functions compiled by the optimizing tier before a first document: the
   * page's embedding worker calls it after loading the model, while the page waits for nothing. The CLI does not: in
   * a process that embeds one document, compiling earlier saves nothing.
   */
  warmUpThoroughly(): void {
    this.warmUp();
    const sentences: string[] = [];
    for (let i = 0; i < WARM_UP_SENTENCES; i++) {
      let s = '';
      for (let w = 0; w < 12; w++) s += (w === 0 ? '' : (i * 7 + w) % 9 === 0 ? ', ' : ' ') + WARM_UP_WORDS[(i * 13 + w * 5) % WARM_UP_WORDS.length]!;
      sentences.push(`${s}.`);
    }
    const windows = sentences.map((_, i) => sentences.slice(Math.max(0, i - 1), i + 2).join(' '));
    const out = vectorSlots(windows.length, this.dims);
    const seen = new Map<string, number>();
    for (let from = 0; from < windows.length; from += SLICE_TEXTS) this.embedSlice(windows, from, Math.min(windows.length, from + SLICE_TEXTS), seen, out);
    this.previous = null;
    for (const p of this.recent) p.key = NO_PIECE;
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      if (typeof t !== 'string' || !NOT_BLANK.test(t)) {
        throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
      }
    }
    // Each distinct text once (documents repeat lines); a repeat gets a copy in its own slot.
    const firstIndex = new Map<string, number>();
    const out = vectorSlots(texts.length, this.dims);
    let sliceStart = now();
    for (let from = 0; from < texts.length; from += SLICE_TEXTS) {
      const to = Math.min(texts.length, from + SLICE_TEXTS);
      this.embedSlice(texts, from, to, firstIndex, out);
      if (to < texts.length) {
        checkAborted(options.signal);
        options.onProgress?.(to / texts.length);
        if (now() - sliceStart > SLICE_MS) {
          await new Promise((r) => setTimeout(r, 0));
          sliceStart = now();
        }
      }
    }
    checkAborted(options.signal);
    options.onProgress?.(1);
    return out;
  }

  /**
   * embed for texts[from, to): the distinct texts without added tokens first, in one WebAssembly call for those that
   * are ASCII (embedOne's vectors, bit for bit), then every other distinct text through embedOne in order (with or
   * without WebAssembly, the JavaScript path sees the same texts in the same order), then the repeats copied.
   */
  private embedSlice(texts: readonly string[], from: number, to: number, firstIndex: Map<string, number>, out: Float32Array[]): void {
    const plain: number[] = [];
    let others: number[] = [];
    const repeats: number[] = [];
    for (let i = from; i < to; i++) {
      const text = texts[i]!;
      if (firstIndex.has(text)) repeats.push(i);
      else {
        firstIndex.set(text, i);
        if (this.ascii && text.length <= MAX_ASCII_TEXT && !this.tokenizer.containsAddedToken(text)) plain.push(i);
        else others.push(i);
      }
    }
    if (this.ascii && plain.length > 0) {
      const left = this.ascii.embedMany(texts, plain, out);
      if (left.length > 0) others = others.concat(left).sort((a, b) => a - b);
    }
    for (const i of others) this.embedOne(texts[i]!, out[i]!);
    for (const i of repeats) out[i]!.set(out[firstIndex.get(texts[i]!)!]!);
  }

  tokenize(text: string): Range[] {
    if (text === '') return [];
    return tokenOffsets(text, this.tokenizer.tokens(text));
  }

  /** Late chunking: one row per token. The model has no context, so this is exact for any window. */
  async embedTokens(text: string, options: EmbedCallOptions = {}): Promise<{ tokens: Range[]; vectors: Float32Array[] }> {
    checkAborted(options.signal);
    const tokens = this.tokenize(text);
    const ids = this.tokenizer.encode(text);
    if (ids.length !== tokens.length) throw new Error(`tokenizer gave ${ids.length} ids for ${tokens.length} tokens`);
    const d = this.dims;
    const w = this.weights;
    const vectors = ids.map((id) => {
      if (id >= w.rows) return new Float32Array(d);
      const base = w.row(id);
      return w.table.slice(base, base + d);
    });
    options.onProgress?.(1);
    return { tokens, vectors };
  }

  /** Token ids of `text` (tests compare them with transformers.js' tokenizer). */
  encode(text: string): number[] {
    return this.tokenizer.encode(text);
  }

  async dispose(): Promise<void> {}
}

/** out = sum / |sum| in float32, or zeros when the sum has no direction (what asciiEmbed.as.ts computes too). */
function normalizeInto(sum: Float64Array, out: Float32Array): Float32Array {
  const d = out.length;
  let s = 0;
  for (let k = 0; k < d; k++) s += sum[k]! * sum[k]!;
  const n = Math.sqrt(s);
  // A sum of cancelling rows can leave rounding dust where the exact sum is zero: treat it as no direction.
  if (!(n > 1e-9) || !Number.isFinite(n)) return out.fill(0);
  for (let k = 0; k < d; k++) out[k] = sum[k]! / n;
  return out;
}

/**
 * Where `next` starts inside `prev`: the smallest cut such that prev = P + O and next = O + Q, with P ending in
 * whitespace and Q empty or starting with whitespace (so no token straddles a cut); -1 when there is none.
 */
function overlapStart(prev: string, next: string): number {
  const needle = next.slice(0, 8);
  if (needle.length < 8) return -1;
  for (let at = prev.indexOf(needle, 1); at >= 0; at = prev.indexOf(needle, at + 1)) {
    const overlap = prev.length - at;
    if (!isWhitespaceUnit(prev.charCodeAt(at - 1)) || overlap > next.length) continue;
    if (overlap < next.length && !isWhitespaceUnit(next.charCodeAt(overlap))) continue;
    if (sameUnits(prev, at, next, overlap)) return at;
  }
  return -1;
}

/** prev[at, at + length) === next[0, length), compared in place (slicing and startsWith cost more per window). */
function sameUnits(prev: string, at: number, next: string, length: number): boolean {
  for (let j = 0; j < length; j++) if (prev.charCodeAt(at + j) !== next.charCodeAt(j)) return false;
  return true;
}

/**
 * `count` vectors of `dims` values as views of one buffer: one allocation rather than one per text (thousands of
 * small typed arrays, each with its own backing store, cost more to allocate and collect than embedding the texts).
 */
function vectorSlots(count: number, dims: number): Float32Array[] {
  const block = new Float32Array(count * dims);
  const out = new Array<Float32Array>(count);
  for (let i = 0; i < count; i++) out[i] = block.subarray(i * dims, (i + 1) * dims);
  return out;
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}

function checkAborted(signal: { aborted: boolean } | undefined): void {
  if (signal?.aborted) {
    const err = new Error('embedding was cancelled');
    err.name = 'AbortError';
    throw err;
  }
}

/**
 * The direct embedder for the model in `folder` (a path in Node, a URL path in the browser), or the reason it must
 * run on the ONNX path (a tokenizer or graph this does not reproduce exactly).
 */
export async function loadStaticEmbedder(
  folder: string,
  info: Omit<EmbedderInfo, 'dims' | 'backend'>,
  /** webAssembly false: the JavaScript path only (the tests compare the two; the vectors are the same). */
  options: { webAssembly?: boolean } = {},
): Promise<StaticEmbedder | { refused: string }> {
  const [tokenizer, onnx] = await Promise.all([loadStaticTokenizer(folder), readModelFile(folder, 'onnx/model_quantized.onnx')]);
  if ('refused' in tokenizer) return tokenizer;
  const weights = readStaticTable(onnx);
  if ('refused' in weights) return weights;
  const ascii = options.webAssembly === false ? null : AsciiEmbedder.create(tokenizer, weights);
  return new StaticEmbedder({ ...info, dims: weights.dims, backend: 'direct' }, tokenizer, weights, ascii);
}

/** The folder's tokenizer: from its precompiled vocabulary table when it has one (vocabFile.ts), else its JSON. */
async function loadStaticTokenizer(folder: string): Promise<StaticTokenizer | { refused: string }> {
  const compiled = await readOptionalModelFile(folder, VOCAB_FILE);
  if (compiled) return staticTokenizerFrom(decodeVocabFile(compiled));
  const [tokenizerJson, tokenizerConfig] = await Promise.all([
    readModelJson<TokenizerJson>(folder, 'tokenizer.json'),
    readModelJson<{ unk_token?: unknown }>(folder, 'tokenizer_config.json'),
  ]);
  return readStaticTokenizer(tokenizerJson, tokenizerConfig);
}
