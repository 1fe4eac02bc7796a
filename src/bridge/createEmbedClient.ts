import { EmbedClient, type EmbedWorkerLike } from './embedClient';

/** The page's embedding client: a module worker built by Vite, started on the first semantic job. */
export function createEmbedClient(): EmbedClient {
  return new EmbedClient(
    () => new Worker(new URL('../worker/embed.worker.ts', import.meta.url), { type: 'module', name: 'chunkscope-embed' }) as unknown as EmbedWorkerLike,
  );
}
