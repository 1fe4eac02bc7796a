import { env, pipeline, Tensor, type FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Range } from '../core/types';
import type { EmbedderModel, Pooling } from './hub';
import { tokenOffsets } from './offsets';
import type { CreateEmbedderOptions, EmbedBackend, EmbedCallOptions, Embedder, EmbedderInfo } from './types';

/**
 * Models on the ONNX path: transformers.js' feature-extraction pipeline and onnxruntime (onnxruntime-node in Node,
 * onnxruntime-web's WASM or WebGPU in a worker). Hub models always run here; the built-in model only when asked
 * (`runtime: 'onnx'`, tests and benchmarks comparing the paths) or when its files are not the static-table model
 * the direct path reproduces exactly (static/). Loaded with a dynamic import: the built-in model's direct path never
 * pays for transformers.js.
 *
 * - embed(): texts sorted by length and batched (padding is to the longest text of a batch); the built-in graph's
 *   `sentence_embedding` output (pooled and normalized inside the graph) is read when present, else the token
 *   vectors are pooled here (mean over the attention mask, or the first token for CLS models) and normalized.
 * - tokenize(): the model's tokenizer, offsets recovered by matching token strings to the text (offsets.ts).
 * - embedTokens(): late chunking; token vectors are the model's last_hidden_state, in windows of maxTokens.
 */

const BUILTIN_BATCH = 256;
const HUB_BATCH = 16;
/** Window for embedTokens with the static model (context does not matter to it; this only bounds memory). */
const STATIC_TOKEN_WINDOW = 8192;

export class EmbedderLoadError extends Error {
  override name = 'EmbedderLoadError';
}

export interface OnnxLoad {
  id: string;
  entry: EmbedderModel | undefined;
  isBuiltin: boolean;
  folder: string;
  localModelPath: string;
  allowRemote: boolean;
  inNode: boolean;
}

/** Load a model through transformers.js and wrap it. Rejects with a one-line message when it cannot be loaded. */
export async function createOnnxEmbedder(load: OnnxLoad, options: CreateEmbedderOptions): Promise<Embedder> {
  const { id, entry, isBuiltin, folder, localModelPath, allowRemote, inNode } = load;
  env.allowLocalModels = true;
  env.allowRemoteModels = allowRemote;
  env.localModelPath = localModelPath;

  const browserDevice = options.device === 'webgpu' ? 'webgpu' : 'wasm';
  const backend: EmbedBackend = inNode ? 'node' : browserDevice;
  const device = inNode ? 'cpu' : browserDevice;
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await pipeline('feature-extraction', folder, {
      dtype: options.dtype ?? 'q8',
      device,
      ...(options.sessionThreads ? { session_options: { intraOpNumThreads: options.sessionThreads } } : {}),
      progress_callback: (info) => {
        if (info.status === 'progress' && options.onDownloadProgress) {
          options.onDownloadProgress({ file: info.file, loaded: info.loaded, total: info.total });
        }
      },
    });
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    if (isBuiltin) throw new EmbedderLoadError(`the built-in embedding model could not be loaded from ${localModelPath}: ${reason}`);
    const where = allowRemote
      ? `not in ${localModelPath} and the Hugging Face hub could not be reached (offline?)`
      : `not in ${localModelPath} and downloads are off`;
    throw new EmbedderLoadError(`could not load embedding model "${id}": ${where}; ${reason}. Self-host it with npm run models:fetch -- ${id}`);
  }
  const config = extractor.model.config as unknown as { hidden_size?: number; dim?: number; max_position_embeddings?: number };
  const dims = entry?.dims ?? config.hidden_size ?? config.dim ?? 0;
  const maxTokens = entry?.maxTokens ?? (isBuiltin ? Infinity : (config.max_position_embeddings ?? 512));
  const info: EmbedderInfo = { id, label: entry?.label ?? id, dims, maxTokens, backend };
  return new TransformersEmbedder(extractor, info, entry?.pooling ?? 'mean', isBuiltin);
}

interface ModelOutput {
  sentence_embedding?: Tensor;
  last_hidden_state?: Tensor;
  token_embeddings?: Tensor;
  [name: string]: Tensor | undefined;
}

class TransformersEmbedder implements Embedder {
  /** Special token ids the tokenizer puts before and after a text ([CLS] / [SEP]; none for the static model). */
  private readonly prefixIds: bigint[];
  private readonly suffixIds: bigint[];
  /** Input names the tokenizer produces (token_type_ids for BERT models). */
  private readonly inputNames: string[];

  constructor(
    private readonly extractor: FeatureExtractionPipeline,
    readonly info: EmbedderInfo,
    private readonly pooling: Pooling,
    private readonly isStatic: boolean,
  ) {
    const probe = this.tokenizer(['x'], { padding: true, truncation: true }) as Record<string, Tensor>;
    this.inputNames = Object.keys(probe);
    const withSpecial = Array.from(probe.input_ids!.data as BigInt64Array);
    const plain = this.extractor.tokenizer.encode('x', { add_special_tokens: false }).map(BigInt);
    const at = plain.length > 0 ? withSpecial.indexOf(plain[0]!) : withSpecial.length;
    this.prefixIds = withSpecial.slice(0, Math.max(0, at));
    this.suffixIds = withSpecial.slice(Math.max(0, at) + plain.length);
  }

  private get tokenizer() {
    return this.extractor.tokenizer as unknown as (texts: string[], options: Record<string, unknown>) => Record<string, Tensor>;
  }

  async embed(texts: string[], options: EmbedCallOptions = {}): Promise<Float32Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') {
        throw new Error(`cannot embed text ${i}: it is empty or whitespace-only (blank texts have no embedding)`);
      }
    });
    // Each distinct text once (documents repeat lines), sorted by length so that a batch pads little (padded
    // tokens are computed and pooled for nothing).
    const firstIndex = new Map<string, number>();
    const unique: number[] = [];
    texts.forEach((t, i) => {
      if (!firstIndex.has(t)) {
        firstIndex.set(t, i);
        unique.push(i);
      }
    });
    const order = unique.sort((a, b) => texts[a]!.length - texts[b]!.length);
    const byFirst = new Array<Float32Array>(texts.length);
    const batch = this.isStatic ? BUILTIN_BATCH : HUB_BATCH;
    for (let from = 0; from < order.length; from += batch) {
      checkAborted(options.signal);
      const indices = order.slice(from, from + batch);
      const vectors = await this.embedBatch(indices.map((i) => texts[i]!));
      indices.forEach((i, k) => (byFirst[i] = vectors[k]!));
      options.onProgress?.(Math.min(1, (from + indices.length) / order.length));
      // Let a worker see a cancel message between batches.
      if (from + batch < order.length) await new Promise((r) => setTimeout(r, 0));
    }
    checkAborted(options.signal);
    // A repeated text gets its own copy, so a caller may transfer or modify each vector independently.
    return texts.map((t, i) => {
      const first = firstIndex.get(t)!;
      return first === i ? byFirst[i]! : byFirst[first]!.slice();
    });
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const maxLength = Number.isFinite(this.info.maxTokens) ? this.info.maxTokens : undefined;
    const inputs = this.encodeBatch(texts, maxLength);
    const output = (await this.extractor.model(inputs)) as ModelOutput;
    if (output.sentence_embedding) return rows(output.sentence_embedding).map(normalizeOrZero);
    const tokens = output.last_hidden_state ?? output.token_embeddings;
    if (!tokens) throw new Error(`model ${this.info.id} gives no token vectors (last_hidden_state)`);
    return pool(tokens, inputs.attention_mask!, this.pooling);
  }

  /**
   * The tokenizer's padded batch as int64 tensors. Same values as calling the tokenizer with tensors, built with
   * one typed-array pass instead of transformers.js' flatMap + map(BigInt) (a third of the static model's time).
   */
  private encodeBatch(texts: string[], maxLength: number | undefined): Record<string, Tensor> {
    const options = { padding: true, truncation: true, return_tensor: false, ...(maxLength ? { max_length: maxLength } : {}) };
    const lists = this.tokenizer(texts, options) as unknown as Record<string, number[][]>;
    const out: Record<string, Tensor> = {};
    for (const [key, rowsOfIds] of Object.entries(lists)) {
      const width = rowsOfIds[0]?.length ?? 0;
      const data = new BigInt64Array(rowsOfIds.length * width);
      rowsOfIds.forEach((row, r) => {
        for (let c = 0; c < width; c++) data[r * width + c] = BigInt(row[c]!);
      });
      out[key] = new Tensor('int64', data, [rowsOfIds.length, width]);
    }
    return out;
  }

  tokenize(text: string): Range[] {
    if (text === '') return [];
    return tokenOffsets(text, this.extractor.tokenizer.tokenize(text));
  }

  async embedTokens(text: string, options: EmbedCallOptions = {}): Promise<{ tokens: Range[]; vectors: Float32Array[] }> {
    const tokens = this.tokenize(text);
    const ids = this.extractor.tokenizer.encode(text, { add_special_tokens: false }).map(BigInt);
    if (ids.length !== tokens.length) throw new Error(`tokenizer gave ${ids.length} ids for ${tokens.length} tokens`);
    const room = this.isStatic ? STATIC_TOKEN_WINDOW : this.info.maxTokens - this.prefixIds.length - this.suffixIds.length;
    if (!(room >= 8)) throw new Error(`model ${this.info.id} reads too few tokens for late chunking`);
    // Windows overlap by a quarter; a token takes its vector from the window where it is furthest from an edge.
    const overlap = this.isStatic ? 0 : Math.floor(room / 4);
    const step = room - overlap;
    const vectors = new Array<Float32Array>(ids.length);
    for (let start = 0; start < ids.length; start += step) {
      checkAborted(options.signal);
      const end = Math.min(ids.length, start + room);
      const window = await this.tokenVectors(ids.slice(start, end));
      const keepFrom = start === 0 ? start : start + Math.floor(overlap / 2);
      const keepTo = end === ids.length ? end : end - Math.ceil(overlap / 2);
      for (let t = keepFrom; t < keepTo; t++) vectors[t] = window[t - start]!;
      options.onProgress?.(end / ids.length);
      if (end === ids.length) break;
    }
    return { tokens, vectors };
  }

  /** last_hidden_state rows for a run of token ids (special tokens added around it and dropped again). */
  private async tokenVectors(ids: bigint[]): Promise<Float32Array[]> {
    const all = [...this.prefixIds, ...ids, ...this.suffixIds];
    const dims = [1, all.length];
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', BigInt64Array.from(all), dims),
      attention_mask: new Tensor('int64', new BigInt64Array(all.length).fill(1n), dims),
    };
    if (this.inputNames.includes('token_type_ids')) feeds.token_type_ids = new Tensor('int64', new BigInt64Array(all.length), dims);
    const output = (await this.extractor.model(feeds)) as ModelOutput;
    const hidden = output.last_hidden_state ?? output.token_embeddings;
    if (!hidden) throw new Error(`model ${this.info.id} gives no token vectors (last_hidden_state)`);
    const [, , d] = hidden.dims as number[];
    const data = hidden.data as Float32Array;
    const out: Float32Array[] = [];
    for (let t = 0; t < ids.length; t++) {
      const row = this.prefixIds.length + t;
      out.push(Float32Array.from(data.subarray(row * d!, (row + 1) * d!)));
    }
    return out;
  }

  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }
}

function checkAborted(signal: { aborted: boolean } | undefined): void {
  if (signal?.aborted) {
    const err = new Error('embedding was cancelled');
    err.name = 'AbortError';
    throw err;
  }
}

function rows(t: Tensor): Float32Array[] {
  const [n, d] = t.dims as number[];
  const data = t.data as Float32Array;
  const out: Float32Array[] = [];
  for (let i = 0; i < n!; i++) out.push(Float32Array.from(data.subarray(i * d!, (i + 1) * d!)));
  return out;
}

/** Unit length, or all zeros when there is no direction (no known word) or the values are not finite. */
function normalizeOrZero(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const n = Math.sqrt(s);
  if (!(n > 0) || !Number.isFinite(n)) return v.fill(0);
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Mean over the tokens the attention mask keeps (or the first token, CLS pooling), then normalized. */
function pool(tokens: Tensor, mask: Tensor, pooling: Pooling): Float32Array[] {
  const [n, len, d] = tokens.dims as number[];
  const data = tokens.data as Float32Array;
  const maskData = mask.data as BigInt64Array;
  const out: Float32Array[] = [];
  for (let i = 0; i < n!; i++) {
    const v = new Float32Array(d!);
    if (pooling === 'cls') {
      v.set(data.subarray(i * len! * d!, i * len! * d! + d!));
    } else {
      let count = 0;
      for (let t = 0; t < len!; t++) {
        if (maskData[i * len! + t] === 0n) continue;
        count++;
        const base = (i * len! + t) * d!;
        for (let k = 0; k < d!; k++) v[k]! += data[base + k]!;
      }
      if (count > 0) for (let k = 0; k < d!; k++) v[k]! /= count;
    }
    out.push(normalizeOrZero(v));
  }
  return out;
}
