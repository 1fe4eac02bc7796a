/**
 * Runs document tasks: in this thread with one job, else on a piscina pool of worker threads (one per job). The
 * worker file is the built dist/lib/corpusWorker.js next to the bundle, or, from the sources (tests, tsx), the
 * TypeScript worker, through tsx (./workerFromSource.mjs).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processDocument, type DocumentResult, type DocumentTask } from './document';

export interface DocumentRunner {
  run(task: DocumentTask): Promise<DocumentResult>;
  close(): Promise<void>;
}

export async function documentRunner(jobs: number): Promise<DocumentRunner> {
  if (jobs <= 1) return { run: processDocument, close: async () => undefined };
  const { Piscina } = await import('piscina');
  const built = new URL('./corpusWorker.js', import.meta.url);
  const worker = existsSync(fileURLToPath(built)) ? { filename: built.href, execArgv: [] as string[] } : sourceWorker();
  const pool = new Piscina({ ...worker, minThreads: jobs, maxThreads: jobs, idleTimeout: 60_000 });
  return {
    run: (task) => pool.run(task) as Promise<DocumentResult>,
    close: () => pool.destroy(),
  };
}

function sourceWorker(): { filename: string; execArgv: string[] } {
  return { filename: new URL('./workerFromSource.mjs', import.meta.url).href, execArgv: [] };
}
