import { BUILTIN_MODEL, findEmbedderModel } from './hub';
import { loadStaticEmbedder } from './static/embedder';
import type { CreateEmbedderOptions, Embedder } from './types';

/**
 * createEmbedder: the built-in static model or a hub model behind the Embedder interface, in Node (CLI, tests) and
 * in a Web Worker (the page's embedding worker, which sets the browser-only runtime: wasm paths, fetch wrappers).
 *
 * - The built-in model runs on the direct path (static/): its tokenizer rules and a Float32Array row lookup, no
 *   neural runtime; same token ids as transformers.js' tokenizer and the same vectors as its ONNX graph.
 * - Hub models (and the built-in one with `runtime: 'onnx'`) run through transformers.js and onnxruntime (onnx.ts,
 *   imported on first use).
 *
 * A text with no known word gives a zero vector (never NaN): the semantic splitter treats a zero vector as "no
 * distance" (native, LlamaIndex) or distance 1 (LangChain). Blank texts are refused: they have no embedding.
 */

export { tokenOffsets } from './offsets';
export type * from './types';

/** Where the built-in model and self-hosted models live in the package: public/models/ (see defaultModelPath). */
const PACKAGE_MODELS_FROM_HERE = '../../public/models/';

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string' && typeof (globalThis as { window?: unknown }).window === 'undefined';
}

/**
 * Node: the package's public/models/ folder. This file sits two folders below the package root both as source
 * (src/embed/) and bundled (dist/lib/), so one relative path works for tsx, vitest and the built CLI. Browser: /models/.
 */
export function defaultModelPath(): string {
  if (!isNode()) return '/models/';
  // Not a literal: bundlers would otherwise try to turn this folder into an asset.
  const relative = PACKAGE_MODELS_FROM_HERE;
  return decodeURIComponent(new URL(relative, import.meta.url).pathname);
}

/** Load a model and wrap it. Rejects with a one-line message when the model cannot be loaded. */
export async function createEmbedder(options: CreateEmbedderOptions = {}): Promise<Embedder> {
  const id = options.model ?? 'builtin';
  const entry = findEmbedderModel(id);
  const isBuiltin = entry === BUILTIN_MODEL;
  const folder = entry?.folder ?? id;
  const localModelPath = options.localModelPath ?? defaultModelPath();
  if (isBuiltin && options.runtime !== 'onnx') {
    const modelFolder = `${localModelPath.replace(/\/?$/, '/')}${folder}`;
    let direct: Awaited<ReturnType<typeof loadStaticEmbedder>>;
    try {
      direct = await loadStaticEmbedder(modelFolder, { id, label: entry.label, maxTokens: Infinity });
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      throw new Error(`the built-in embedding model could not be loaded from ${localModelPath}: ${reason}`);
    }
    // Files the direct path does not reproduce exactly (a rebuilt model with another recipe) run on ONNX instead.
    if (!('refused' in direct)) return direct;
  }
  const { createOnnxEmbedder } = await import('./onnx');
  const allowRemote = !isBuiltin && options.allowRemote === true;
  return createOnnxEmbedder({ id, entry, isBuiltin, folder, localModelPath, allowRemote, inNode: isNode() }, options);
}
