// Writes the static model as an ONNX graph with the onnx-proto package (passed in, since it is a
// build-time input installed outside the repo):
//   input_ids int64 [batch, seq] -> Gather(int8 table) -> Cast(float) -> Mul(Gather(per-row scale))
//   -> last_hidden_state float [batch, seq, dim]   (what the feature-extraction pipeline mean-pools)
//   -> ReduceSum over seq -> LpNormalization -> sentence_embedding float [batch, dim]
// attention_mask int64 [batch, seq] is accepted and not used: the [PAD] and [UNK] rows are zero, so
// the plain sum over the sequence equals the masked sum, and after L2 normalization the mean and
// the sum are the same vector. sentence_embedding is there for callers that run the model without
// the pipeline: transformers.js pools in JavaScript (with a BigInt conversion per value), which is
// most of the time of a pipeline call on this model.

const OPSET = 17;
const IR_VERSION = 8; // what onnx-proto 8 (ONNX 1.10) describes; onnxruntime 1.2x reads it

function tensorValueInfo(onnx, name, elemType, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) =>
            typeof d === 'string'
              ? onnx.TensorShapeProto.Dimension.create({ dimParam: d })
              : onnx.TensorShapeProto.Dimension.create({ dimValue: d }),
          ),
        }),
      }),
    }),
  });
}

function node(onnx, opType, inputs, outputs, attributes = []) {
  return onnx.NodeProto.create({ opType, input: inputs, output: outputs, name: `${opType}_${outputs[0]}`, attribute: attributes });
}

function intAttribute(onnx, name, value) {
  return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
}

/**
 * @param {object} onnx          the `onnx` namespace of onnx-proto
 * @param {Int8Array} values     rowCount * dim quantized rows
 * @param {Float32Array} scales  rowCount per-row scales
 * @returns {Uint8Array} the serialized ModelProto
 */
export function buildStaticEmbeddingOnnx(onnx, { values, scales, rowCount, dim, docString }) {
  const T = onnx.TensorProto.DataType;
  const table = onnx.TensorProto.create({
    name: 'embedding_int8',
    dataType: T.INT8,
    dims: [rowCount, dim],
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  });
  const scaleBytes = new Uint8Array(new Float32Array(scales).buffer); // little-endian, as ONNX raw_data requires
  const scaleTable = onnx.TensorProto.create({
    name: 'embedding_scale',
    dataType: T.FLOAT,
    dims: [rowCount, 1],
    rawData: scaleBytes,
  });

  const sequenceAxis = onnx.TensorProto.create({ name: 'sequence_axis', dataType: T.INT64, dims: [1], int64Data: [1] });

  const graph = onnx.GraphProto.create({
    name: 'chunkscope_static_embedding',
    node: [
      node(onnx, 'Gather', ['embedding_int8', 'input_ids'], ['gathered_int8'], [intAttribute(onnx, 'axis', 0)]),
      node(onnx, 'Cast', ['gathered_int8'], ['gathered_float'], [intAttribute(onnx, 'to', T.FLOAT)]),
      node(onnx, 'Gather', ['embedding_scale', 'input_ids'], ['gathered_scale'], [intAttribute(onnx, 'axis', 0)]),
      node(onnx, 'Mul', ['gathered_float', 'gathered_scale'], ['last_hidden_state']),
      node(onnx, 'ReduceSum', ['last_hidden_state', 'sequence_axis'], ['summed'], [intAttribute(onnx, 'keepdims', 0)]),
      node(onnx, 'LpNormalization', ['summed'], ['sentence_embedding'], [intAttribute(onnx, 'axis', 1), intAttribute(onnx, 'p', 2)]),
    ],
    initializer: [table, scaleTable, sequenceAxis],
    input: [
      tensorValueInfo(onnx, 'input_ids', T.INT64, ['batch_size', 'sequence_length']),
      tensorValueInfo(onnx, 'attention_mask', T.INT64, ['batch_size', 'sequence_length']),
    ],
    output: [
      tensorValueInfo(onnx, 'last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', dim]),
      tensorValueInfo(onnx, 'sentence_embedding', T.FLOAT, ['batch_size', dim]),
    ],
  });

  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: OPSET })],
    producerName: 'chunkscope scripts/build-static-model.mjs',
    producerVersion: '1',
    docString,
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
