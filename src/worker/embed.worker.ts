/// <reference lib="webworker" />
// onnxruntime-web's runtime, served by Vite from our own origin (transformers.js 4.3 loads the asyncify build;
// without these paths it would fetch them from a CDN). URLs only: nothing is loaded until a hub model is.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { createEmbedder } from '../embed/index';
import { StaticEmbedder } from '../embed/static/embedder';
import type { Embedder } from '../embed/types';
import { chooseEmbedDevice, loadOnDevice, probeWebGpu, type GpuProbe } from './embedDevice';
import { serveEmbedWorker } from './embedService';
import type { Endpoint } from './rpc';

/**
 * The embedding worker: embedService.ts (loads a model once and embeds what the chunk worker asks for over its
 * MessagePort) around the browser runtime. The built-in model runs on src/embed's direct path (a table lookup in
 * JavaScript, its files fetched from /models/): transformers.js and onnxruntime-web are not even loaded. Hub and
 * picked-folder models set up transformers.js on first use: wasm paths from our own origin, picked folders served
 * through its fetch, WebGPU when there is an adapter.
 */

declare const self: DedicatedWorkerGlobalScope;

const BUILTIN = 'builtin';

// Threads need SharedArrayBuffer, which needs a cross-origin isolated page.
// One core is left to the page: on a loaded 2-core machine, a pool of 2 embedded 1 MiB at 2,800 sentences/s
// against 5,600 with 1, and the page's paints got slower too (one run each; the machine was shared).
/** Threads in onnxruntime's WASM pool (1 without cross-origin isolation). */
const threads = self.crossOriginIsolated ? Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)) : 1;

/** Files of model folders the user picked, served to transformers.js under /models/<id>/ by a fetch wrapper. */
const localFolders = new Map<string, Map<string, Blob>>();

let transformers: Promise<typeof import('@huggingface/transformers')> | null = null;
/** transformers.js, imported and set up for this worker on first use (a hub or picked-folder model). */
function transformersRuntime(): Promise<typeof import('@huggingface/transformers')> {
  transformers ??= import('@huggingface/transformers').then((module) => {
    const { env } = module;
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = '/models/';
    // No blob: copy of the runtime (transformers.js' wasm cache): the files come from our origin and the HTTP cache.
    env.useWasmCache = false;
    const onnxWasm = env.backends.onnx.wasm as { wasmPaths?: unknown; numThreads?: number; proxy?: boolean } | undefined;
    if (onnxWasm) {
      onnxWasm.wasmPaths = { wasm: new URL(ortWasmUrl, self.location.href).href, mjs: new URL(ortMjsUrl, self.location.href).href };
      onnxWasm.numThreads = threads;
    }
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
    return module;
  });
  return transformers;
}

/** The WebGPU adapter probe, once per worker (embedDevice.ts chooses from it). */
let gpuProbe: Promise<GpuProbe> | null = null;
/** Why a loaded model runs on WASM rather than WebGPU (the backend badge's title). */
const deviceNotes = new WeakMap<Embedder, string>();

serveEmbedWorker(self as unknown as Endpoint, {
  threads,
  isolated: self.crossOriginIsolated,
  addLocalFolder: (id, files) => localFolders.set(id, files),
  noteFor: (embedder) => deviceNotes.get(embedder),
  async load(model, { allowRemote, onDownloadProgress }) {
    // The built-in model is a table lookup in JavaScript (src/embed/static): no runtime, no GPU.
    if (model === BUILTIN) {
      const embedder = await createEmbedder({ model, localModelPath: '/models/' });
      if (embedder instanceof StaticEmbedder) embedder.warmUpThoroughly();
      return embedder;
    }
    // Hub and local models use WebGPU when the browser has an adapter, and WASM when that fails (embedDevice.ts).
    const { env } = await transformersRuntime();
    gpuProbe ??= probeWebGpu((navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu);
    env.allowRemoteModels = allowRemote;
    const load = (device: 'webgpu' | 'wasm') => createEmbedder({ model, localModelPath: '/models/', allowRemote, device, onDownloadProgress });
    const { embedder, note } = await loadOnDevice(chooseEmbedDevice(await gpuProbe), load);
    if (note) deviceNotes.set(embedder, note);
    return embedder;
  },
});

self.addEventListener('unhandledrejection', (event) => event.preventDefault());
