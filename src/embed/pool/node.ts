import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { BUILTIN_MODEL, findEmbedderModel } from '../hub';
import { createEmbedder } from '../index';
import type { CreateEmbedderOptions, Embedder } from '../types';
import { createEmbedderPool } from './pool';

/**
 * The embedder the CLI (and a Node program) uses for `--embedder <folder|hub id>`: the built-in model in this thread
 * (its direct path is a table lookup, faster than any pool), a hub model or a model folder on a pool of worker
 * threads sized to the cores (pool.ts; it starts no more threads than there are batches), or in this thread with
 * `workers: 1`.
 */

export interface NodeEmbedderOptions extends Omit<CreateEmbedderOptions, 'model' | 'localModelPath'> {
  /** Worker threads at most for a hub model or folder (default: the cores this process may use; 1 = this thread). */
  workers?: number;
  /** See EmbedderPoolOptions.minWorkMs (default 1000 ms). */
  minWorkMs?: number;
}

/**
 * A model folder on disk (config.json, tokenizer.json, onnx/…) as transformers.js loads it: its parent folder as the
 * local model path and its name as the model. Undefined when `model` is not a path to a folder.
 */
export function modelFolder(model: string): { localModelPath: string; model: string } | undefined {
  // "owner/name" is a hub id unless it exists as a folder here; ./, ../, / and ~-free absolute paths are folders.
  const looksLikePath = model.startsWith('.') || model.startsWith('/') || model.includes('\\') || existsSync(model);
  if (!looksLikePath || !existsSync(model) || !statSync(model).isDirectory()) return undefined;
  const full = resolve(model);
  return { localModelPath: `${dirname(full)}/`, model: basename(full) };
}

/** A clear one-line refusal for a path that is not a model folder (the hub would be asked otherwise). */
function refuseMissingFolder(model: string): void {
  if ((model.startsWith('.') || model.startsWith('/')) && !existsSync(model)) {
    throw new Error(`embedding model folder ${model} does not exist (a folder with config.json, tokenizer.json and onnx/model_quantized.onnx)`);
  }
}

export async function createNodeEmbedder(model: string, options: NodeEmbedderOptions = {}): Promise<Embedder> {
  const { workers = Math.max(1, availableParallelism()), minWorkMs, ...rest } = options;
  refuseMissingFolder(model);
  const folder = modelFolder(model);
  const target: CreateEmbedderOptions = folder ? { ...rest, ...folder, allowRemote: false } : { ...rest, model };
  const isBuiltin = findEmbedderModel(target.model ?? 'builtin') === BUILTIN_MODEL && rest.runtime !== 'onnx';
  if (isBuiltin || workers <= 1) return createEmbedder(target);
  return createEmbedderPool({ ...target, workers, ...(minWorkMs === undefined ? {} : { minWorkMs }) });
}
