#!/usr/bin/env node
// Measures the built-in static model through the real transformers.js feature-extraction pipeline:
// speed (sentences/s) and a topic-separation AUC (cosine similarity of two sentences from the same
// paragraph vs two sentences from distant parts of the corpus).
//
// @huggingface/transformers is not a project dependency yet: install it outside the repo first,
//   mkdir /tmp/tjs && printf 'onnxruntime-node-install=skip\n' > /tmp/tjs/.npmrc
//   (cd /tmp/tjs && npm install --prefix /tmp/tjs @huggingface/transformers)
// then
//   node scripts/static-model/evaluate.mjs --transformers /tmp/tjs \
//     [--model public/models/chunkscope-static-en --model /tmp/variant ...] [--corpus <text>] [--pairs 3000]
// Speed is measured on the first model only; the AUCs on every model.

import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    transformers: { type: 'string' },
    model: { type: 'string', multiple: true },
    corpus: { type: 'string', default: resolve(repoRoot, '..', 'shared', 'corpus', 'english-1mib.txt') },
    pairs: { type: 'string', default: '3000' },
    'speed-sentences': { type: 'string', default: '9000' },
    batch: { type: 'string', default: '256' },
  },
});
const modelFolders = (args.model ?? [join(repoRoot, 'public', 'models', 'chunkscope-static-en')]).map((m) => resolve(m));

const { pipeline, env } = await importTransformers(args.transformers);
env.allowLocalModels = true;
env.allowRemoteModels = false;

const paragraphs = readParagraphs(readFileSync(args.corpus, 'utf8'));
const sentences = paragraphs.flatMap((p, paragraph) => p.map((text) => ({ text, paragraph })));
console.log(`${paragraphs.length} paragraphs, ${sentences.length} sentences from ${args.corpus}`);
const { positives, negatives } = samplePairs(sentences, Number(args.pairs), mulberry32(7));

for (const folder of modelFolders) {
  env.localModelPath = dirname(folder) + '/';
  const extractor = await pipeline('feature-extraction', basename(folder), { dtype: 'q8' });
  const embed = async (texts) => {
    const out = await extractor(texts, { pooling: 'mean', normalize: true });
    const [n, dim] = out.dims;
    return Array.from({ length: n }, (_, i) => out.data.subarray(i * dim, (i + 1) * dim));
  };

  // Speed through the pipeline, warm (one run first). CPU seconds are given too, since the machine is shared.
  const speedTexts = sentences.slice(0, Number(args['speed-sentences'])).map((s) => s.text);
  const batch = Number(args.batch);
  const inBatches = (texts) => async () => {
    for (let i = 0; i < texts.length; i += batch) await embed(texts.slice(i, i + batch));
  };
  // Padding makes a batch cost its longest text times its size: batches of similar length are cheaper.
  const byLength = [...speedTexts].sort((x, y) => x.length - y.length);
  // Without the pipeline: tokenizer + model, reading the graph's own pooled output (no JS pooling).
  const direct = (texts) => async () => {
    for (let i = 0; i < texts.length; i += batch) {
      const out = await extractor.model(extractor.tokenizer(texts.slice(i, i + batch), { padding: true, truncation: true }));
      if (!out.sentence_embedding) throw new Error('this model has no sentence_embedding output');
    }
  };
  const speeds = folder !== modelFolders[0] ? {} : {
    [`corpus order, batches of ${batch}`]: await measure(inBatches(speedTexts), speedTexts.length),
    [`length-sorted, batches of ${batch}`]: await measure(inBatches(byLength), speedTexts.length),
    'one call per sentence': await measure(async () => {
      for (const text of speedTexts.slice(0, 2000)) await embed([text]);
    }, Math.min(2000, speedTexts.length)),
    [`tokenizer + model().sentence_embedding, length-sorted, batches of ${batch}`]: await measure(direct(byLength), speedTexts.length),
  };

  // Vocabulary coverage: the share of tokens that map to [UNK] (a zero row).
  const unkId = extractor.tokenizer.unk_token_id;
  let tokenCount = 0;
  let unknownCount = 0;
  for (const { text } of sentences) {
    for (const id of extractor.tokenizer.encode(text)) {
      tokenCount++;
      if (id === unkId) unknownCount++;
    }
  }

  // Every sentence embedded once, in length-sorted batches (one batch of all would pad to the longest).
  const vectors = new Array(sentences.length);
  const order = sentences.map((_, i) => i).sort((x, y) => sentences[x].text.length - sentences[y].text.length);
  for (let i = 0; i < order.length; i += batch) {
    const ids = order.slice(i, i + batch);
    const embedded = await embed(ids.map((k) => sentences[k].text));
    ids.forEach((k, j) => (vectors[k] = embedded[j]));
  }
  // A sentence of only unknown words has no vector (the pipeline gives NaN): count it as dissimilar.
  const withoutVector = vectors.filter((v) => Number.isNaN(v[0])).length;
  const similarity = (pairs) => pairs.map(([i, j]) => (Number.isNaN(vectors[i][0]) || Number.isNaN(vectors[j][0]) ? 0 : dot(vectors[i], vectors[j])));
  const auc = rocAuc(similarity(positives), similarity(negatives));
  // Closer to what semantic chunking does: consecutive sentences, inside a paragraph vs across a break.
  const consecutive = sentences.slice(0, -1).map((_, i) => [i, i + 1]);
  const consecutiveSimilarity = similarity(consecutive);
  const inside = consecutiveSimilarity.filter((_, k) => sentences[k].paragraph === sentences[k + 1].paragraph);
  const across = consecutiveSimilarity.filter((_, k) => sentences[k].paragraph !== sentences[k + 1].paragraph);
  console.log(folder);
  for (const [name, { perSecond, perCpuSecond }] of Object.entries(speeds)) {
    console.log(`  ${name}: ${perSecond} sentences/s (${perCpuSecond} per CPU second)`);
  }
  console.log(`  ${withoutVector} of ${sentences.length} sentences have no known word; ${((100 * unknownCount) / tokenCount).toFixed(1)}% of ${tokenCount} tokens are unknown`);
  console.log(`  topic-separation AUC ${auc.toFixed(3)} (${positives.length} same-paragraph vs ${negatives.length} distant pairs)`);
  console.log(`  paragraph-break AUC ${rocAuc(inside, across).toFixed(3)} (${inside.length} consecutive pairs inside vs ${across.length} across a paragraph break)`);
  await extractor.dispose();
}

async function measure(run, count) {
  await run(); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return { perSecond: Math.round(count / seconds), perCpuSecond: Math.round(count / cpuSeconds) };
}

async function importTransformers(prefix) {
  if (!prefix) return import('@huggingface/transformers');
  // The package does not export its package.json, so read it from the install folder.
  const packageFile = join(resolve(prefix), 'node_modules', '@huggingface', 'transformers', 'package.json');
  const entry = JSON.parse(readFileSync(packageFile, 'utf8')).exports.node.import.default;
  return import(pathToFileURL(join(dirname(packageFile), entry)).href);
}

/**
 * Paragraphs are blocks separated by blank lines; sentences are cut after . ! ? followed by space.
 * Only sentences with at least 5 words count (shorter ones are mostly version lines and list stubs),
 * and never an empty one (transformers.js gives NaN for a text without tokens).
 */
function readParagraphs(text) {
  return text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .replace(/\s+/g, ' ')
        .split(/(?<=[.!?])\s+/)
        .map((s) => s.trim())
        .filter((s) => (s.match(/\p{L}+/gu) ?? []).length >= 5),
    )
    .filter((p) => p.length > 0);
}

/** Same-paragraph pairs vs pairs at least a quarter of the corpus apart, each pair of distinct texts. */
function samplePairs(sentences, count, random) {
  const byParagraph = new Map();
  sentences.forEach((s, i) => byParagraph.set(s.paragraph, [...(byParagraph.get(s.paragraph) ?? []), i]));
  const multi = [...byParagraph.values()].filter((ids) => ids.length >= 2);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const positives = [];
  for (let guard = 0; positives.length < count && guard < count * 50; guard++) {
    const ids = pick(multi);
    const i = pick(ids);
    const j = pick(ids);
    if (i !== j && sentences[i].text !== sentences[j].text) positives.push([i, j]);
  }
  const negatives = [];
  const far = Math.floor(sentences.length / 4);
  for (let guard = 0; negatives.length < count && guard < count * 50; guard++) {
    const i = Math.floor(random() * sentences.length);
    const j = Math.floor(random() * sentences.length);
    if (Math.abs(i - j) >= far && sentences[i].text !== sentences[j].text) negatives.push([i, j]);
  }
  return { positives, negatives };
}

/** Probability that a random positive scores above a random negative (ties count half). */
function rocAuc(positiveScores, negativeScores) {
  const all = [
    ...positiveScores.map((s) => ({ s, positive: true })),
    ...negativeScores.map((s) => ({ s, positive: false })),
  ].sort((x, y) => x.s - y.s);
  let rankSumPositive = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j].s === all[i].s) j++;
    const averageRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k].positive) rankSumPositive += averageRank;
    i = j;
  }
  const p = positiveScores.length;
  const n = negativeScores.length;
  return (rankSumPositive - (p * (p + 1)) / 2) / (p * n);
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
