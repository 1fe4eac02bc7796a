// node --test scripts/static-model/
// The build's numeric steps on small hand-made inputs, and the shipped artefact's consistency.
// (Loading through transformers.js is checked by evaluate.mjs and browser-check.mjs, which need it installed.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isReachableToken,
  zipfEstimator,
  sifWeight,
  firstPrincipalComponent,
  removeComponent,
  quantizeRows,
} from './distill.mjs';
import { tokenizerJson, PAD_ID, UNK_ID } from './model-files.mjs';

const modelDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'models', 'chunkscope-static-en');

test('Zipf estimate is a distribution with p(r) proportional to 1/r', () => {
  const p = zipfEstimator(1000);
  let sum = 0;
  for (let r = 1; r <= 1000; r++) sum += p(r);
  assert.ok(Math.abs(sum - 1) < 1e-12);
  assert.ok(Math.abs(p(1) / p(4) - 4) < 1e-12);
});

test('SIF weight is 1 for an unseen word and 1/2 where p equals a', () => {
  assert.equal(sifWeight(0, 1e-4), 1);
  assert.equal(sifWeight(1e-4, 1e-4), 0.5);
  assert.ok(sifWeight(0.05, 1e-4) < 0.01);
});

test('the first principal component of rows spread along one axis is that axis', () => {
  const dim = 3;
  const rows = new Float32Array([5, 0.1, 0, -4, 0, 0.2, 3, -0.1, 0, 6, 0.1, -0.1]);
  const u = firstPrincipalComponent(rows, 4, dim);
  assert.ok(Math.abs(Math.abs(u[0]) - 1) < 1e-3);
});

test('row weights decide which rows set the component', () => {
  const dim = 2;
  // Two long rows along x, one short row along y; weighting the y row heavily makes y dominant.
  const rows = new Float32Array([3, 0, 3, 0, 0, 1]);
  const unweighted = firstPrincipalComponent(rows, 3, dim);
  const weighted = firstPrincipalComponent(rows, 3, dim, [1, 1, 100]);
  assert.ok(Math.abs(Math.abs(unweighted[0]) - 1) < 1e-6);
  assert.ok(Math.abs(Math.abs(weighted[1]) - 1) < 1e-6);
});

test('after removing a component every row is orthogonal to it', () => {
  const dim = 4;
  const rows = Float32Array.from({ length: 5 * dim }, (_, i) => Math.sin(i + 1) * 3);
  const u = firstPrincipalComponent(rows, 5, dim);
  removeComponent(rows, 5, dim, u);
  for (let r = 0; r < 5; r++) {
    let dot = 0;
    for (let d = 0; d < dim; d++) dot += rows[r * dim + d] * u[d];
    assert.ok(Math.abs(dot) < 1e-5);
  }
});

test('int8 rows: zero rows stay zero, the largest value maps to ±127, error at most half a step', () => {
  const dim = 3;
  const rows = new Float32Array([0, 0, 0, 0.5, -1.27, 0.013, 2, 1, -2]);
  const { values, scales } = quantizeRows(rows, 3, dim);
  assert.equal(scales[0], 0);
  assert.deepEqual([...values.slice(0, 3)], [0, 0, 0]);
  assert.equal(values[4], -127);
  assert.equal(Math.max(Math.abs(values[6]), Math.abs(values[8])), 127);
  for (let r = 1; r < 3; r++) {
    for (let d = 0; d < dim; d++) {
      const err = Math.abs(rows[r * dim + d] - values[r * dim + d] * scales[r]);
      assert.ok(err <= scales[r] / 2 + 1e-7);
    }
  }
});

test('only tokens the lowercasing, punctuation-splitting tokenizer can produce are reachable', () => {
  for (const word of ['the', 'café', '1990', ',', '"']) assert.ok(isReachableToken(word), word);
  for (const word of ['u.s.', "n't", 'e-mail', 'Hello', '--', 'a b']) assert.ok(!isReachableToken(word), word);
});

test('tokenizer.json: [PAD] 0, [UNK] 1, words from 2 in order', () => {
  const json = tokenizerJson(['the', ',', 'cat']);
  assert.deepEqual(json.model.vocab, { '[PAD]': PAD_ID, '[UNK]': UNK_ID, the: 2, ',': 3, cat: 4 });
  assert.equal(json.model.unk_token, '[UNK]');
});

test('the shipped artefact: under 4 MB, one table row per vocabulary entry, special tokens declared', () => {
  // The transformers.js model; vocab-table.bin beside it is the direct path's precompiled vocabulary (checked against
  // tokenizer.json by src/embed/static/vocabFile.test.ts).
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'LICENSE.md', 'onnx/model_quantized.onnx'];
  assert.deepEqual(readdirSync(modelDir).sort(), ['LICENSE.md', 'config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json', 'vocab-table.bin']);
  assert.deepEqual(readdirSync(join(modelDir, 'onnx')), ['model_quantized.onnx']);
  const total = files.reduce((sum, f) => sum + statSync(join(modelDir, f)).size, 0);
  assert.ok(total <= 4 * 1024 * 1024, `${total} bytes`);
  const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8'));
  const tokenizer = JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8'));
  const tokenizerConfig = JSON.parse(readFileSync(join(modelDir, 'tokenizer_config.json'), 'utf8'));
  const vocabSize = Object.keys(tokenizer.model.vocab).length;
  assert.equal(config.vocab_size, vocabSize);
  assert.equal(config.hidden_size, 100);
  assert.equal(config['transformers.js_config'].dtype, 'q8');
  assert.equal(tokenizer.model.vocab[tokenizerConfig.unk_token], UNK_ID);
  assert.equal(tokenizer.model.vocab[tokenizerConfig.pad_token], PAD_ID);
  // The int8 table is the bulk of the graph: rows x 100 bytes, plus a float scale per row.
  const onnxSize = statSync(join(modelDir, 'onnx/model_quantized.onnx')).size;
  assert.ok(onnxSize >= vocabSize * 104 && onnxSize < vocabSize * 104 + 4096, `${onnxSize}`);
});
