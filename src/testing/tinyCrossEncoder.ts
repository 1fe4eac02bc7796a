/**
 * A tiny cross-encoder the tests build themselves (no real model is reachable here): a transformers.js folder
 * (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) whose graph scores a (question, passage)
 * pair as the sum of its tokens' weights: logits[b, 0] = Σ_s weight[input_ids[b, s]] · attention_mask[b, s].
 * Written as ONNX protobuf by hand (a few fields of ModelProto; no onnx package is installed). Test code only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Protobuf wire format: varints, and length-delimited fields (strings, bytes, sub-messages).
export function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
export const tag = (field: number, wire: number) => varint((field << 3) | wire);
export const intField = (field: number, n: number | bigint) => [...tag(field, 0), ...varint(n)];
export const bytesField = (field: number, bytes: ArrayLike<number>) => [...tag(field, 2), ...varint(bytes.length), ...Array.from(bytes)];
export const strField = (field: number, s: string) => bytesField(field, new TextEncoder().encode(s));

export const FLOAT = 1;
export const INT64 = 7;

/** TensorProto: dims (1), data_type (2), name (8), raw_data (9). */
function tensor(name: string, type: number, dims: number[], raw: Uint8Array): number[] {
  return [...dims.flatMap((d) => intField(1, d)), ...intField(2, type), ...strField(8, name), ...bytesField(9, raw)];
}
/** ValueInfoProto: name (1), type (2) → TypeProto.tensor_type (1) → elem_type (1), shape (2) → dim (1) → value (1) | param (2). */
export function valueInfo(name: string, type: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => bytesField(1, typeof d === 'number' ? intField(1, d) : strField(2, d)));
  return [...strField(1, name), ...bytesField(2, bytesField(1, [...intField(1, type), ...bytesField(2, shape)]))];
}
/** NodeProto: input (1), output (2), name (3), op_type (4), attribute (5) → AttributeProto name (1), i (3), type (20: INT = 2). */
export function node(op: string, inputs: string[], outputs: string[], attrs: Record<string, number> = {}): number[] {
  const attributes = Object.entries(attrs).flatMap(([name, i]) => bytesField(5, [...strField(1, name), ...intField(3, i), ...intField(20, 2)]));
  return [...inputs.flatMap((s) => strField(1, s)), ...outputs.flatMap((s) => strField(2, s)), ...strField(3, `${op}_${outputs[0]}`), ...strField(4, op), ...attributes];
}

function modelProto(weights: Float32Array): Uint8Array {
  const graph = [
    ...bytesField(1, node('Gather', ['weight', 'input_ids'], ['gathered'])),
    ...bytesField(1, node('Cast', ['attention_mask'], ['mask'], { to: FLOAT })),
    ...bytesField(1, node('Mul', ['gathered', 'mask'], ['masked'])),
    ...bytesField(1, node('ReduceSum', ['masked', 'axes'], ['logits'], { keepdims: 1 })),
    ...strField(2, 'tiny-cross-encoder'),
    ...bytesField(5, tensor('weight', FLOAT, [weights.length], new Uint8Array(weights.buffer))),
    ...bytesField(5, tensor('axes', INT64, [1], new Uint8Array(new BigInt64Array([1n]).buffer))),
    ...bytesField(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])),
    ...bytesField(11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])),
    ...bytesField(12, valueInfo('logits', FLOAT, ['batch', 1])),
  ];
  // ModelProto: ir_version (1), producer_name (2), graph (7), opset_import (8) → domain (1), version (2).
  return new Uint8Array([...intField(1, 8), ...strField(2, 'chunkscope-tests'), ...bytesField(7, graph), ...bytesField(8, [...strField(1, ''), ...intField(2, 13)])]);
}

/** Writes the model folder under `parent` and returns its path. Words not in `weights` weigh 0 ([UNK]). */
export function writeTinyCrossEncoder(parent: string, weights: Record<string, number>, name = 'tiny-cross-encoder'): string {
  const folder = join(parent, name);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const words = Object.keys(weights);
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  words.forEach((w, i) => (vocab[w] = i + 2));
  const table = new Float32Array(words.length + 2);
  words.forEach((w, i) => (table[i + 2] = weights[w]!));
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  };
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizer));
  writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'PreTrainedTokenizer', unk_token: '[UNK]', pad_token: '[PAD]', padding_side: 'right', model_max_length: 512 }));
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ architectures: ['BertForSequenceClassification'], model_type: 'bert', vocab_size: table.length, pad_token_id: 0, num_labels: 1, id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 } }));
  writeFileSync(join(folder, 'onnx', 'model.onnx'), modelProto(table));
  return folder;
}
