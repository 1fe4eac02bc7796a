import type { Range } from '../../core/types';
import { tokenOffsets } from '../offsets';
import type { EmbedCallOptions, Embedder, EmbedderInfo } from '../types';
import { readModelFile, readModelJson } from './files';
import { readStaticTable, type StaticTable } from './onnxTable';
import { readStaticTokenizer, type StaticTokenizer } from './tokenizer';

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

export class StaticEmbedder implements Embedder {
  private readonly dims: number;
  /** Sum of a text's rows, in doubles (no rounding per token: within 1e-7 of onnxruntime's float32 ReduceSum). */
  private readonly sum: Float64Array;
  /** 1 for a row of zeros, and for ids past the table (read as zero). */
  private readonly zeroRow: Uint8Array;

  constructor(
    readonly info: EmbedderInfo,
    private readonly tokenizer: StaticTokenizer,
    private readonly weights: StaticTable,
  ) {
    this.dims = weights.dims;
    this.sum = new Float64Array(weights.dims);
    this.zeroRow = new Uint8Array(Math.max(weights.rows, tokenizer.vocabSize) + 1).fill(1);
    for (let r = 0; r < weights.rows; r++) {
      const row = weights.table.subarray(r * weights.dims, (r + 1) * weights.dims);
      this.zeroRow[r] = row.every((x) => x === 0) ? 1 : 0;
    }
  }

  /** The normalized sum of the rows of `text`'s tokens, written into `out` (zeros when no token has a direction). */
  embedOne(text: string, out: Float32Array): Float32Array {
    const { table } = this.weights;
    const d = this.dims;
    const sum = this.sum.fill(0);
    const ids = this.tokenizer.encodeShared(text);
    for (let t = 0; t < ids.length; t++) {
      const id = ids[t]!;
      // [PAD], [UNK] and any other all-zero row add nothing.
      if (this.zeroRow[id] !== 0) continue;
      const base = id * d;
      for (let k = 0; k < d; k++) sum[k] = sum[k]! + table[base + k]!;
    }
    let s = 0;
    for (let k = 0; k < d; k++) s += sum[k]! * sum[k]!;
    const n = Math.sqrt(s);
    if (!(n > 0) || !Number.isFinite(n)) return out.fill(0);
    for (let k = 0; k < d; k++) out[k] = sum[k]! / n;
    return out;
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') {
        throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
      }
    });
    // Each distinct text once (documents repeat lines); a repeat gets its own copy, so a caller may transfer each.
    const firstIndex = new Map<string, number>();
    const out = new Array<Float32Array>(texts.length);
    let sliceStart = now();
    for (let i = 0; i < texts.length; i++) {
      const first = firstIndex.get(texts[i]!);
      if (first !== undefined) out[i] = out[first]!.slice();
      else {
        firstIndex.set(texts[i]!, i);
        out[i] = this.embedOne(texts[i]!, new Float32Array(this.dims));
      }
      if ((i + 1) % SLICE_TEXTS === 0 && i + 1 < texts.length) {
        checkAborted(options.signal);
        options.onProgress?.((i + 1) / texts.length);
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
    const vectors = ids.map((id) => (id < this.weights.rows ? this.weights.table.slice(id * d, (id + 1) * d) : new Float32Array(d)));
    options.onProgress?.(1);
    return { tokens, vectors };
  }

  /** Token ids of `text` (tests compare them with transformers.js' tokenizer). */
  encode(text: string): number[] {
    return this.tokenizer.encode(text);
  }

  async dispose(): Promise<void> {}
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
export async function loadStaticEmbedder(folder: string, info: Omit<EmbedderInfo, 'dims' | 'backend'>): Promise<StaticEmbedder | { refused: string }> {
  const [tokenizerJson, tokenizerConfig, onnx] = await Promise.all([
    readModelJson<Parameters<typeof readStaticTokenizer>[0]>(folder, 'tokenizer.json'),
    readModelJson<{ unk_token?: unknown }>(folder, 'tokenizer_config.json'),
    readModelFile(folder, 'onnx/model_quantized.onnx'),
  ]);
  const tokenizer = readStaticTokenizer(tokenizerJson, tokenizerConfig);
  if ('refused' in tokenizer) return tokenizer;
  const weights = readStaticTable(onnx);
  if ('refused' in weights) return weights;
  return new StaticEmbedder({ ...info, dims: weights.dims, backend: 'direct' }, tokenizer, weights);
}
