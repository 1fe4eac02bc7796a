/**
 * The built-in model's embedding table, read from its ONNX file without a neural runtime. The file is a protobuf
 * ModelProto; this reads only what it needs (the graph's nodes and initializers) and checks that the graph is the
 * static-table graph scripts/static-model/onnx-graph.mjs writes:
 *
 *   last_hidden_state = Cast(Gather(embedding_int8, input_ids)) * Gather(embedding_scale, input_ids)
 *   sentence_embedding = LpNormalization(p 2, axis 1)(ReduceSum(last_hidden_state, axis 1))
 *
 * A table row is then float32(int8 value * float32 scale): the same IEEE product onnxruntime's Mul computes, so
 * `last_hidden_state` rows are bit-identical. Any other graph is refused (the model stays on the ONNX path).
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Protobuf wire types. */
const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

interface Field {
  number: number;
  wire: number;
  /** Varint value (wire 0), or the bytes of a length-delimited field (wire 2). */
  value: number | Uint8Array;
}

function* fields(bytes: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = (): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('truncated protobuf');
      const b = bytes[at++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const number = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === VARINT) yield { number, wire, value: varint() };
    else if (wire === BYTES) {
      const length = varint();
      if (at + length > bytes.length) throw new Error('truncated protobuf');
      yield { number, wire, value: bytes.subarray(at, at + length) };
      at += length;
    } else if (wire === FIXED64) at += 8;
    else if (wire === FIXED32) at += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

const text = (v: number | Uint8Array): string => (typeof v === 'number' ? '' : new TextDecoder().decode(v));

interface Tensor {
  name: string;
  dataType: number;
  dims: number[];
  raw: Uint8Array | null;
}

interface Node {
  opType: string;
  inputs: string[];
  outputs: string[];
  /** Integer attributes by name. */
  ints: Map<string, number>;
}

function readTensor(bytes: Uint8Array): Tensor {
  const t: Tensor = { name: '', dataType: 0, dims: [], raw: null };
  for (const f of fields(bytes)) {
    if (f.number === 1 && f.wire === VARINT) t.dims.push(f.value as number);
    else if (f.number === 1 && f.wire === BYTES) for (const d of fields(packedAsVarints(f.value as Uint8Array))) t.dims.push(d.value as number);
    else if (f.number === 2) t.dataType = f.value as number;
    else if (f.number === 8) t.name = text(f.value);
    else if (f.number === 9) t.raw = f.value as Uint8Array;
  }
  return t;
}

/** Packed varints re-keyed as field 1 varints, so `fields` can read them. */
function packedAsVarints(packed: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < packed.length; i++) {
    if (i === 0 || packed[i - 1]! < 0x80) out.push(0x08);
    out.push(packed[i]!);
  }
  return Uint8Array.from(out);
}

function readNode(bytes: Uint8Array): Node {
  const node: Node = { opType: '', inputs: [], outputs: [], ints: new Map() };
  for (const f of fields(bytes)) {
    if (f.number === 1) node.inputs.push(text(f.value));
    else if (f.number === 2) node.outputs.push(text(f.value));
    else if (f.number === 4) node.opType = text(f.value);
    else if (f.number === 5 && f.wire === BYTES) {
      let name = '';
      let i: number | undefined;
      for (const a of fields(f.value as Uint8Array)) {
        if (a.number === 1) name = text(a.value);
        else if (a.number === 3 && a.wire === VARINT) i = a.value as number;
      }
      if (i !== undefined) node.ints.set(name, i);
    }
  }
  return node;
}

/** ONNX TensorProto data types. */
const FLOAT = 1;
const INT8 = 3;

/** The graph of onnx-graph.mjs, node by node: op type, inputs, outputs. */
const EXPECTED_NODES: [string, string[], string[]][] = [
  ['Gather', ['embedding_int8', 'input_ids'], ['gathered_int8']],
  ['Cast', ['gathered_int8'], ['gathered_float']],
  ['Gather', ['embedding_scale', 'input_ids'], ['gathered_scale']],
  ['Mul', ['gathered_float', 'gathered_scale'], ['last_hidden_state']],
  ['ReduceSum', ['last_hidden_state', 'sequence_axis'], ['summed']],
  ['LpNormalization', ['summed'], ['sentence_embedding']],
];

function checkGraph(nodes: Node[], tensors: Map<string, Tensor>): string | null {
  if (nodes.length !== EXPECTED_NODES.length) return `${nodes.length} nodes`;
  for (let i = 0; i < nodes.length; i++) {
    const [op, inputs, outputs] = EXPECTED_NODES[i]!;
    const n = nodes[i]!;
    if (n.opType !== op || n.inputs.join() !== inputs.join() || n.outputs.join() !== outputs.join()) return `node ${i} is ${n.opType}(${n.inputs.join(', ')})`;
  }
  const [gatherTable, cast, gatherScale, , reduce, norm] = nodes as [Node, Node, Node, Node, Node, Node];
  if ((gatherTable.ints.get('axis') ?? 0) !== 0 || (gatherScale.ints.get('axis') ?? 0) !== 0) return 'a Gather on another axis';
  if (cast.ints.get('to') !== FLOAT) return 'a Cast to another type';
  if (reduce.ints.get('keepdims') !== 0) return 'ReduceSum keeps dims';
  if (norm.ints.get('p') !== 2 || norm.ints.get('axis') !== 1) return 'not an L2 normalization on axis 1';
  const axis = tensors.get('sequence_axis');
  if (!axis) return 'no sequence_axis';
  return null;
}

/**
 * The table as float32 rows: row r = float32(int8 value x scale), converted on first use (a document touches a few
 * thousand of the 30,002 rows, and loading stays a copy of the int8 bytes).
 */
export class StaticTable {
  private values: Float32Array | null = null;
  /** 1 for a row of zeros ([PAD], [UNK]): it adds nothing to a sum. */
  readonly zero: Uint8Array;
  private readonly ready: Uint8Array;

  constructor(
    /** rows * dims int8 values and one float32 scale per row: what the ONNX file stores. */
    readonly int8: Int8Array,
    readonly scales: Float32Array,
    readonly rows: number,
    readonly dims: number,
  ) {
    this.ready = new Uint8Array(rows);
    this.zero = new Uint8Array(rows);
    for (let r = 0; r < rows; r++) {
      let any = scales[r] !== 0;
      if (any) {
        any = false;
        for (let k = r * dims; k < (r + 1) * dims && !any; k++) any = int8[k] !== 0;
      }
      this.zero[r] = any ? 0 : 1;
    }
  }

  /**
   * rows * dims values; row r is token id r's vector (last_hidden_state) once `row(r)` has been asked for. Allocated
   * on first use: with WebAssembly the module keeps its own table, and 12 MB allocated for nothing cost a short
   * process garbage collections.
   */
  get table(): Float32Array {
    return (this.values ??= new Float32Array(this.rows * this.dims));
  }

  /** Offset of row `id` in `table`, converting the row on first use. */
  row(id: number): number {
    const base = id * this.dims;
    if (this.ready[id] === 0) {
      const table = this.table;
      const scale = this.scales[id]!;
      // The product of an int8 and a float32 is exact in a double; storing it rounds once, as a float32 Mul does.
      for (let k = 0; k < this.dims; k++) table[base + k] = this.int8[base + k]! * scale;
      this.ready[id] = 1;
    }
    return base;
  }
}

/** The embedding table of a static-table ONNX file, or the reason this file is not one. */
export function readStaticTable(onnx: Uint8Array): StaticTable | { refused: string } {
  let graph: Uint8Array | null = null;
  for (const f of fields(onnx)) if (f.number === 7 && f.wire === BYTES) graph = f.value as Uint8Array;
  if (!graph) return { refused: 'no graph' };
  const nodes: Node[] = [];
  const tensors = new Map<string, Tensor>();
  for (const f of fields(graph)) {
    if (f.number === 1 && f.wire === BYTES) nodes.push(readNode(f.value as Uint8Array));
    else if (f.number === 5 && f.wire === BYTES) {
      const t = readTensor(f.value as Uint8Array);
      tensors.set(t.name, t);
    }
  }
  const why = checkGraph(nodes, tensors);
  if (why) return { refused: `not the static-table graph: ${why}` };
  const values = tensors.get('embedding_int8');
  const scales = tensors.get('embedding_scale');
  if (!values?.raw || values.dataType !== INT8 || values.dims.length !== 2) return { refused: 'embedding_int8 is not a raw int8 matrix' };
  const [rows, dims] = values.dims as [number, number];
  if (values.raw.length !== rows * dims) return { refused: 'embedding_int8 has the wrong size' };
  if (!scales?.raw || scales.dataType !== FLOAT || scales.dims.join() !== `${rows},1` || scales.raw.length !== rows * 4) {
    return { refused: 'embedding_scale is not one raw float per row' };
  }
  // The file is little-endian: a little-endian engine reads a copy of the bytes as they are (aligned).
  const scaleValues = LITTLE_ENDIAN ? new Float32Array(scales.raw.slice().buffer) : new Float32Array(rows);
  if (!LITTLE_ENDIAN) {
    const scaleView = new DataView(scales.raw.buffer, scales.raw.byteOffset, scales.raw.byteLength);
    for (let r = 0; r < rows; r++) scaleValues[r] = scaleView.getFloat32(r * 4, true);
  }
  // A view of the file's bytes (an Int8Array needs no alignment), which the table keeps.
  const int8 = new Int8Array(values.raw.buffer, values.raw.byteOffset, values.raw.byteLength);
  return new StaticTable(int8, scaleValues, rows, dims);
}
