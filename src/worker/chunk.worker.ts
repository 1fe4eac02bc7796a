/// <reference lib="webworker" />
import { workerLoadWasm } from './loadWasm';
import { serveChunkWorker } from './chunkService';
import type { Endpoint } from './rpc';
import { provideStrategy } from '../core/strategies/index';
import { implementation as recursive } from '../core/strategies/recursive/split';

/**
 * The chunk worker: core's chunk() off the main thread, for every strategy (see chunkService.ts). The page cancels
 * runaway work by terminating it, so it holds nothing expensive: the embedding model lives in the embedding worker,
 * reached over a MessagePort.
 */

declare const self: DedicatedWorkerGlobalScope;

// The default strategy (recursive) is in this first chunk, so the first job fetches no strategy; the others load
// on first use (each its own chunk, precached by the service worker for offline use).
provideStrategy('recursive', recursive);
// The code strategy's tree-sitter runtime and grammars: bundled assets, fetched once.
serveChunkWorker(self as unknown as Endpoint, { loadWasm: workerLoadWasm });
