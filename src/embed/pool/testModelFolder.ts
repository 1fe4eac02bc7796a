import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
