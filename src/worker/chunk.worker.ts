/// <reference lib="webworker" />
import { workerLoadWasm } from './loadWasm';
import { serveChunkWorker } from './chunkService';
import type { Endpoint } from './rpc';

/**
 * The chunk worker: core's chunk() off the main thread, for every strategy (see chunkService.ts). The page cancels
 * runaway work by terminating it, so it holds nothing expensive: the embedding model lives in the embedding worker,
 * reached over a MessagePort.
 */

declare const self: DedicatedWorkerGlobalScope;

// The code strategy's tree-sitter runtime and grammars: bundled assets, fetched once.
serveChunkWorker(self as unknown as Endpoint, { loadWasm: workerLoadWasm });
