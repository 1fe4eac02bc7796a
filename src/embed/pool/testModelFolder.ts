import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesField, FLOAT, INT64, intField, node, strField, tag, valueInfo, varint } from '../../testing/tinyCrossEncoder';
import { BUILTIN_MODEL } from '../hub';
import { defaultModelPath } from '../index';

/**
 * A small hub-format model folder for tests and benchmarks (there is no network to the hub here): the built-in
 * model's files (config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx) under another name,
 * which createEmbedder loads as any hub model, through transformers.js and onnxruntime-node.
 */
export interface TestModelFolder {
  /** The folder holding the model folder (a local model path). */
  root: string;
  /** The model folder's name (the model id under `root`). */
  name: string;
  /** The model folder itself. */
  path: string;
  remove(): void;
}

export function makeHubModelFolder(name = 'tiny-hub'): TestModelFolder {
  const root = mkdtempSync(join(tmpdir(), 'chunkscope-hub-'));
  const path = join(root, name);
  cpSync(join(defaultModelPath(), BUILTIN_MODEL.folder), path, { recursive: true });
  return { root: `${root}/`, name, path, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * A hub-format folder whose graph costs what a small transformer costs: the built-in model's tokenizer, then a
 * 64-dimensional embedding table projected to `hidden` dimensions and `layers` feed-forward blocks (MatMul to
 * 4 × hidden, Relu, MatMul back, residual Add), as all-MiniLM-L6-v2's feed-forward blocks (384 → 1536 → 384) are.
 * Its output is `last_hidden_state`, pooled by the ONNX path like a hub model's. Random weights: the vectors mean
 * nothing; the time per token is what it is for (benchmarks of the pool on matrix products, not on the tokenizer).
 */
export function makeMatmulHubModelFolder(name = 'matmul-hub', options: { layers?: number; hidden?: number } = {}): TestModelFolder {
  const { layers = 4, hidden = 384 } = options;
  const folder = makeHubModelFolder(name);
  const config = JSON.parse(readFileSync(join(folder.path, 'config.json'), 'utf8')) as Record<string, unknown>;
  delete config.chunkscope_static_model;
  writeFileSync(join(folder.path, 'config.json'), JSON.stringify({ ...config, hidden_size: hidden, 'transformers.js_config': { dtype: 'q8' } }));
  const vocab = Number(config.vocab_size);
  writeFileSync(join(folder.path, 'onnx', 'model_quantized.onnx'), matmulModel(vocab, hidden, layers));
  return folder;
}

/** Deterministic uniform weights in ±sqrt(3 / fanIn) (unit variance through a layer). */
function weights(count: number, fanIn: number, seed: number): Uint8Array {
  const out = new Float32Array(count);
  const scale = Math.sqrt(3 / fanIn);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = ((s / 2 ** 32) * 2 - 1) * scale;
  }
  return new Uint8Array(out.buffer);
}

/** Bytes joined (weights are tens of MB: never spread into number arrays). */
function concat(parts: (Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of arrays) (out.set(p, at), (at += p.length));
  return out;
}
/** A length-delimited field holding `bytes`. */
const field = (number: number, bytes: Uint8Array) => concat([tag(number, 2), varint(bytes.length), bytes]);
/** TensorProto of float32 weights: dims (1), data_type (2), name (8), raw_data (9). */
const floatTensor = (name: string, dims: number[], raw: Uint8Array) =>
  concat([[...dims.flatMap((d) => intField(1, d)), ...intField(2, FLOAT), ...strField(8, name)], field(9, raw)]);

function matmulModel(vocab: number, hidden: number, layers: number): Uint8Array {
  const EMBED = 64;
  const nodes: number[][] = [node('Gather', ['table', 'input_ids'], ['embedded']), node('MatMul', ['embedded', 'project'], ['x0'])];
  const initializers: Uint8Array[] = [floatTensor('table', [vocab, EMBED], weights(vocab * EMBED, 1, 1)), floatTensor('project', [EMBED, hidden], weights(EMBED * hidden, EMBED, 2))];
  for (let l = 0; l < layers; l++) {
    const last = l === layers - 1 ? 'last_hidden_state' : `x${l + 1}`;
    nodes.push(node('MatMul', [`x${l}`, `up${l}`], [`u${l}`]), node('Relu', [`u${l}`], [`r${l}`]), node('MatMul', [`r${l}`, `down${l}`], [`d${l}`]), node('Add', [`x${l}`, `d${l}`], [last]));
    initializers.push(floatTensor(`up${l}`, [hidden, 4 * hidden], weights(hidden * 4 * hidden, hidden, 10 + l)), floatTensor(`down${l}`, [4 * hidden, hidden], weights(4 * hidden * hidden, 4 * hidden, 20 + l)));
  }
  // GraphProto: node (1), name (2), initializer (5), input (11), output (12). attention_mask is an input the graph
  // does not read (the ONNX path pools over it), as the tokenizer gives it.
  const graph = concat([
    nodes.flatMap((n) => bytesField(1, n)),
    strField(2, 'matmul-hub'),
    ...initializers.map((t) => field(5, t)),
    [...bytesField(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])), ...bytesField(11, valueInfo('attention_mask', INT64, ['batch', 'sequence']))],
    bytesField(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden])),
  ]);
  // ModelProto: ir_version (1), producer_name (2), graph (7), opset_import (8) → domain (1), version (2).
  return concat([[...intField(1, 8), ...strField(2, 'chunkscope-tests')], field(7, graph), bytesField(8, [...strField(1, ''), ...intField(2, 13)])]);
}
