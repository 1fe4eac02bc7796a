import type { Range } from '../../core/types';
import { tokenOffsets } from '../offsets';
import type { EmbedCallOptions, Embedder, EmbedderInfo } from '../types';
import { readModelFile, readModelJson, readOptionalModelFile } from './files';
import { readStaticTable, type StaticTable } from './onnxTable';
import { readStaticTokenizer, staticTokenizerFrom, type StaticTokenizer, type TokenizerJson } from './tokenizer';
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

/** Made-up sentences the warm-up embeds (see warmUpThoroughly), and the words they are made of. */
const WARM_UP_SENTENCES = 600;
const WARM_UP_WORDS = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their has been its more would when will who some time what about people year than'.split(' ');

/**
 * A text's vector is a function of the text alone: the rows of its tokens summed in token order, each dimension in
 * doubles (within 1e-7 of onnxruntime's float32 ReduceSum), then normalized to float32. The same additions run in
 * WebAssembly (wasm/asciiEmbed.ts) where it is available and here otherwise, so either gives the same bits.
 */
export class StaticEmbedder implements Embedder {
  private readonly dims: number;
  private readonly sum: Float64Array;
  /** Table offsets of the rows sumRows sums on the JavaScript path (grown as needed). */
  private bases = new Int32Array(256);

  constructor(
    readonly info: EmbedderInfo,
    private readonly tokenizer: StaticTokenizer,
    private readonly weights: StaticTable,
    /** The WebAssembly path, or null where WebAssembly is not available. */
    private readonly ascii: AsciiEmbedder | null = null,
  ) {
    this.dims = weights.dims;
    this.sum = new Float64Array(this.dims);
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

  /** The vector of one text, written into `out`: in WebAssembly when the text is ASCII without added tokens. */
  embedOne(text: string, out: Float32Array): Float32Array {
    if (this.ascii && text.length <= MAX_ASCII_TEXT && !this.tokenizer.containsAddedToken(text) && this.ascii.embed(text, out)) return out;
    this.sumRows(text, this.sum);
    return normalizeInto(this.sum, out);
  }

  /**
   * ~600 ordinary sentences in overlapping windows, and a few odd texts (accents, emoji, added tokens, a capital
   * sigma), through embed's own path (a few ms), so that its loops are optimized and the module's functions compiled
   * by the optimizing tier before a first document: the page's embedding worker calls it after loading the model,
   * while the page waits for nothing. The CLI does not: in a process that embeds one document, compiling earlier
   * saves nothing.
   */
  warmUpThoroughly(): void {
    const sentences: string[] = [];
    for (let i = 0; i < WARM_UP_SENTENCES; i++) {
      let s = '';
      for (let w = 0; w < 12; w++) s += (w === 0 ? '' : (i * 7 + w) % 9 === 0 ? ', ' : ' ') + WARM_UP_WORDS[(i * 13 + w * 5) % WARM_UP_WORDS.length]!;
      sentences.push(`${s}.`);
    }
    const windows = sentences.map((_, i) => sentences.slice(Math.max(0, i - 1), i + 2).join(' '));
    windows.push('Café au lait, naïve résumé! Ünïcode 東京 😀 [UNK] xyzzyq', 'ΣΟΦΙΑ Σ', 'qqqzzzx');
    const block = new Float32Array(windows.length * this.dims);
    for (let from = 0; from < windows.length; from += SLICE_TEXTS) this.embedSlice(windows, from, Math.min(windows.length, from + SLICE_TEXTS), new Map(), block);
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      if (typeof t !== 'string' || !NOT_BLANK.test(t)) {
        throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
      }
    }
    const block = new Float32Array(texts.length * this.dims);
    const seen = new Map<string, number>();
    let sliceStart = now();
    for (let from = 0; from < texts.length; from += SLICE_TEXTS) {
      const to = Math.min(texts.length, from + SLICE_TEXTS);
      this.embedSlice(texts, from, to, seen, block);
      if (to < texts.length) {
        checkAborted(options.signal);
        options.onProgress?.(to / texts.length);
        if (now() - sliceStart > SLICE_MS) {
          await nextTurn();
          sliceStart = now();
        }
      }
    }
    checkAborted(options.signal);
    options.onProgress?.(1);
    // The views last: made before, they were copied by every young-generation collection during the embedding.
    return vectorSlots(block, this.dims);
  }

  /**
   * embed for texts[from, to): the texts WebAssembly takes (no added token, at most a mebibyte) in one call, every
   * other text here, each distinct one once (documents repeat lines; `seen` maps a text to its first slot). Both give
   * a text the same vector, so which path a text takes changes no bit.
   */
  private embedSlice(texts: readonly string[], from: number, to: number, seen: Map<string, number>, block: Float32Array): void {
    const batch: number[] = [];
    let rest: number[] = [];
    for (let i = from; i < to; i++) {
      const text = texts[i]!;
      if (this.ascii && text.length <= MAX_ASCII_TEXT && !this.tokenizer.containsAddedToken(text)) batch.push(i);
      else rest.push(i);
    }
    if (this.ascii && batch.length > 0) {
      const left = this.ascii.embedMany(texts, batch, block);
      if (left.length > 0) rest = rest.concat(left);
    }
    const d = this.dims;
    for (const i of rest) {
      const text = texts[i]!;
      const first = seen.get(text);
      if (first !== undefined && first !== i) block.copyWithin(i * d, first * d, (first + 1) * d);
      else {
        seen.set(text, i);
        this.embedOne(text, block.subarray(i * d, (i + 1) * d));
      }
    }
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
 * The vectors of `block`, `dims` values each, as views: one allocation rather than one per text (thousands of small
 * typed arrays, each with its own backing store, cost more to allocate and collect than embedding the texts).
 */
function vectorSlots(block: Float32Array, dims: number): Float32Array[] {
  const count = block.length / dims;
  const out = new Array<Float32Array>(count);
  for (let i = 0; i < count; i++) out[i] = block.subarray(i * dims, (i + 1) * dims);
  return out;
}

/** A turn of the event loop: setImmediate where there is one (Node: setTimeout(0) waits at least 1 ms). */
function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(() => resolve()) : setTimeout(resolve, 0)));
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
