/**
 * The chunk worker's script, started by the entry before React and the store load (main.tsx), so that the worker
 * fetches and compiles its code while the page fetches its own; the chunk client takes that worker when it is made.
 * Restarts (to cancel runaway work) get a new one. One place names the worker's URL, so Vite bundles it once.
 */

let early: { worker: Worker; failed: boolean } | null = null;

function spawn(): Worker {
  return new Worker(new URL('../worker/chunk.worker.ts', import.meta.url), { type: 'module', name: 'chunkscope-chunk' });
}

/** Starts the chunk worker now; the next chunkWorker() call hands it over. */
export function startChunkWorkerEarly(): void {
  if (early) return;
  const worker = spawn();
  const started = { worker, failed: false };
  // An error before the client listens would go unseen: the client then gets a fresh worker instead.
  worker.onerror = (event) => {
    event.preventDefault();
    started.failed = true;
  };
  early = started;
}

/** The worker started early (once), else a new one. */
export function chunkWorker(): Worker {
  const started = early;
  early = null;
  if (started && !started.failed) {
    started.worker.onerror = null;
    return started.worker;
  }
  started?.worker.terminate();
  return spawn();
}
