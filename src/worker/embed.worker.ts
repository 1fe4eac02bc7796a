/// <reference lib="webworker" />
import { env } from '@huggingface/transformers';
// onnxruntime-web's runtime, served by Vite from our own origin (transformers.js 4.3 loads the asyncify build;
// without these paths it would fetch them from a CDN).
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { createEmbedder } from '../embed/index';
import { serveEmbedWorker } from './embedService';
import type { Endpoint } from './rpc';

/**
 * The embedding worker: the browser runtime for transformers.js (wasm paths from our own origin, picked model folders
 * served through its fetch, WebGPU when there is an adapter) around embedService.ts, which loads a model once and
 * embeds what the chunk worker asks for over its MessagePort.
 */

declare const self: DedicatedWorkerGlobalScope;

const BUILTIN = 'builtin';

// --- runtime setup (browser only; src/embed stays environment-neutral) -------------------------------------------
env.allowLocalModels = true;
env.allowRemoteModels = false;
env.localModelPath = '/models/';
// No blob: copy of the runtime (transformers.js' wasm cache): the files come from our origin and the HTTP cache.
env.useWasmCache = false;
const onnxWasm = env.backends.onnx.wasm as { wasmPaths?: unknown; numThreads?: number; proxy?: boolean } | undefined;
if (onnxWasm) {
  onnxWasm.wasmPaths = { wasm: new URL(ortWasmUrl, self.location.href).href, mjs: new URL(ortMjsUrl, self.location.href).href };
  // Threads need SharedArrayBuffer, which needs a cross-origin isolated page.
  // One core is left to the page: on a loaded 2-core machine, a pool of 2 embedded 1 MiB at 2,800 sentences/s
  // against 5,600 with 1, and the page's paints got slower too (one run each; the machine was shared).
  onnxWasm.numThreads = self.crossOriginIsolated ? Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)) : 1;
}
/** Threads in onnxruntime's WASM pool (1 without cross-origin isolation). */
const threads = onnxWasm?.numThreads ?? 1;

/** Files of model folders the user picked, served to transformers.js under /models/<id>/ by a fetch wrapper. */
const localFolders = new Map<string, Map<string, Blob>>();
const defaultFetch = env.fetch as typeof fetch;
env.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, self.location.href);
  const match = /^\/models\/(local\/[^/]+)\/(.+)$/.exec(url.pathname);
  if (match && url.origin === self.location.origin) {
    const file = localFolders.get(decodeURIComponent(match[1]!))?.get(decodeURIComponent(match[2]!));
    if (!file) return Promise.resolve(new Response('not in the picked folder', { status: 404 }));
    return Promise.resolve(new Response(file, { status: 200, headers: { 'content-length': String(file.size) } }));
  }
  return defaultFetch(input, init);
}) as typeof fetch;

let webgpu: Promise<boolean> | null = null;
function hasWebGpu(): Promise<boolean> {
  webgpu ??= (async () => {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) !== null;
    } catch {
      return false;
    }
  })();
  return webgpu;
}

serveEmbedWorker(self as unknown as Endpoint, {
  threads,
  isolated: self.crossOriginIsolated,
  addLocalFolder: (id, files) => localFolders.set(id, files),
  async load(model, { allowRemote, onDownloadProgress }) {
    // The built-in model is a table lookup: a GPU gains nothing, and its int8 Gather is a WASM kernel. Hub and local
    // models use WebGPU when the browser has an adapter, and WASM when that fails.
    const gpu = model !== BUILTIN && (await hasWebGpu());
    env.allowRemoteModels = allowRemote;
    const options = (device: 'webgpu' | 'wasm') => ({ model, localModelPath: '/models/', allowRemote, device, onDownloadProgress });
    return gpu ? createEmbedder(options('webgpu')).catch(() => createEmbedder(options('wasm'))) : createEmbedder(options('wasm'));
  },
});

self.addEventListener('unhandledrejection', (event) => event.preventDefault());
