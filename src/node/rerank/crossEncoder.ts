/**
 * A cross-encoder reranker through transformers.js (onnxruntime-node): a sequence-classification model scores each
 * (question, passage) pair; higher is more relevant. `spec` is a local folder (./x, /x, ~/x: its config.json,
 * tokenizer and onnx/model*.onnx, as transformers.js lays them out) or a hub id such as
 * Xenova/ms-marco-MiniLM-L-6-v2 (downloaded when online). Tested on a tiny model the tests write themselves
 * (src/testing/tinyCrossEncoder.ts); no trained cross-encoder is reachable here.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import type { PairScorer } from '../../core/rerank/scorer';

const BATCH = 16;

/** Whether `spec` names a folder (a path) rather than a hub id. */
export function isFolderSpec(spec: string): boolean {
  return /^(\.{1,2}\/|\/|~\/)/.test(spec) || spec === '.' || (existsSync(spec) && statSync(spec).isDirectory());
}

export async function loadCrossEncoder(spec: string): Promise<{ scorer: PairScorer; dispose(): Promise<void> }> {
  const folder = isFolderSpec(spec);
  const path = folder ? resolve(spec.replace(/^~\//, homedir() + '/')) : spec;
  if (folder && !(existsSync(path) && statSync(path).isDirectory())) throw new Error(`cross-encoder folder "${spec}" does not exist`);
  const { env, AutoTokenizer, AutoModelForSequenceClassification } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.allowRemoteModels = !folder;
  if (folder) env.localModelPath = dirname(path) + '/';
  const id = folder ? basename(path) : spec;
  let tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;
  let model: Awaited<ReturnType<typeof AutoModelForSequenceClassification.from_pretrained>>;
  try {
    tokenizer = await AutoTokenizer.from_pretrained(id);
    model = await AutoModelForSequenceClassification.from_pretrained(id, { device: 'cpu', dtype: 'fp32' });
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new Error(`could not load cross-encoder "${spec}": ${folder ? 'the folder holds no transformers.js model' : 'not cached and the hub could not be reached (offline?)'}; ${reason}`);
  }
  const scorer: PairScorer = async (question, passages) => {
    const out = new Float64Array(passages.length);
    for (let from = 0; from < passages.length; from += BATCH) {
      const batch = passages.slice(from, from + BATCH);
      const inputs = tokenizer(batch.map(() => question), { text_pair: batch as string[], padding: true, truncation: true });
      const { logits } = (await model(inputs)) as { logits: { data: ArrayLike<number>; dims: number[] } };
      const classes = logits.dims[1] ?? 1;
      // One logit: the relevance score; several (a classifier): the last class is "relevant".
      for (let i = 0; i < batch.length; i++) out[from + i] = Number(logits.data[i * classes + classes - 1]);
    }
    return out;
  };
  return { scorer, dispose: async () => void (await model.dispose()) };
}
