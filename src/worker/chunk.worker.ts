/// <reference lib="webworker" />
import { chunk, chunkStats, ChunkOptionsError, formatChunks } from '../core/index';
import type { Chunk, ChunkOptions, TokenEncodingName } from '../core/types';
import { getUnit, isTokenEncoding } from '../core/units/index';
import { workerLoadWasm } from './loadWasm';
import { leavesOf, packChunks, packedBuffers } from './packChunks';
import type { WorkerRequest, WorkerResponse } from './protocol';

/**
 * The chunk worker: runs the core engine off the main thread. It keeps the current document (sent once per
 * version) and the last full Chunk[] so that exports and token counts need no second run. Requests are
 * handled one at a time, in order; the bridge cancels runaway work by terminating this worker.
 */

declare const self: DedicatedWorkerGlobalScope;

/** Encoding used for the "tokens" figure in tooltips when the chosen unit is not a token encoding. */
const TOOLTIP_ENCODING: TokenEncodingName = 'cl100k_base';
/** Long runs report progress, but no more often than this. */
const PROGRESS_INTERVAL_MS = 80;

let documentText = '';
let documentVersion = -1;
/** `chunks`: every chunk (export); `leaves`: the painted ones, whose token counts the page asks for. */
let last: { jobId: number; version: number; optionsKey: string; chunks: Chunk[]; leaves: readonly Chunk[] } | null = null;

function post(message: WorkerResponse, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

async function runChunk(jobId: number, version: number, options: ChunkOptions): Promise<void> {
  const startedAt = performance.now();
  let lastProgressAt = startedAt;
  try {
    const chunks = await chunk(documentText, options, {
      // The code strategy's tree-sitter runtime and grammars: bundled assets, fetched once.
      loadWasm: workerLoadWasm,
      onProgress: (fraction) => {
        const now = performance.now();
        if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
        lastProgressAt = now;
        post({ type: 'progress', jobId, fraction });
      },
    });
    last = { jobId, version, optionsKey: JSON.stringify(options), chunks, leaves: leavesOf(chunks) };
    const packed = packChunks(chunks);
    const limit = options.size ?? 0;
    const stats = chunkStats(Array.from(packed.sizes), limit);
    post(
      {
        type: 'result',
        jobId,
        version,
        ...packed,
        stats,
        limit,
        unit: options.unit ?? 'chars',
        elapsedMs: performance.now() - startedAt,
      },
      packedBuffers(packed),
    );
  } catch (error) {
    const invalidOptions = error instanceof ChunkOptionsError;
    post({
      type: 'error',
      jobId,
      message: error instanceof Error ? error.message : String(error),
      field: invalidOptions ? (error as ChunkOptionsError).field : undefined,
      invalidOptions,
    });
  }
}

/** Highest chunk job id received so far (set as soon as the message arrives, before it runs). */
let newestChunkJob = 0;
/** Token counting works in slices this long, then lets queued messages in. */
const TOKEN_SLICE_MS = 6;

const yieldToMessages = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function runTokens(jobId: number): Promise<void> {
  if (!last || last.jobId !== jobId) return;
  const chunks = last.leaves;
  const chosen = (JSON.parse(last.optionsKey) as ChunkOptions).unit;
  const encoding: TokenEncodingName = chosen && isTokenEncoding(chosen) ? chosen : TOOLTIP_ENCODING;
  const unit = await getUnit(encoding);
  const tokens = new Int32Array(chunks.length);
  let sliceStart = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    tokens[i] = unit.count(chunks[i]!.content);
    if (performance.now() - sliceStart > TOKEN_SLICE_MS) {
      await yieldToMessages();
      // A newer chunk job is waiting: these counts would be for chunks nobody sees any more.
      if (newestChunkJob > jobId) return;
      sliceStart = performance.now();
    }
  }
  post({ type: 'tokens', jobId, tokens, encoding }, [tokens.buffer]);
}

async function runExport(request: Extract<WorkerRequest, { type: 'export' }>): Promise<void> {
  try {
    let chunks: Chunk[];
    if (last && last.jobId === request.jobId && last.version === documentVersion) {
      chunks = last.chunks;
    } else if (request.version === documentVersion) {
      // The worker was restarted (or ran other jobs) since that job: compute the same chunks again.
      chunks = await chunk(documentText, request.options, { loadWasm: workerLoadWasm });
    } else {
      throw new Error('the document changed since these chunks were painted; export again once they are updated');
    }
    post({ type: 'exported', requestId: request.requestId, text: formatChunks(chunks, request.format) });
  } catch (error) {
    post({ type: 'export-error', requestId: request.requestId, message: error instanceof Error ? error.message : String(error) });
  }
}

// Requests run strictly one after another (chunk() may await, e.g. while token ranks load).
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === 'chunk') newestChunkJob = Math.max(newestChunkJob, request.jobId);
  if (request.type === 'document') {
    // Applied in order with the jobs around it.
    queue = queue.then(() => {
      documentText = request.text;
      documentVersion = request.version;
    });
    return;
  }
  queue = queue.then(() => {
    switch (request.type) {
      case 'chunk':
        return runChunk(request.jobId, request.version, request.options);
      case 'tokens':
        return runTokens(request.jobId);
      case 'export':
        return runExport(request);
    }
  });
};

post({ type: 'ready' });
