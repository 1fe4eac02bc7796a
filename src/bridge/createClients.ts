import { createChunkClient, type ChunkClient, type ChunkClientOptions } from './chunkClient';
import { createEmbedClient } from './createEmbedClient';
import type { EmbedClient } from './embedClient';

/**
 * The page's two workers, wired: every (re)started chunk worker gets a MessagePort whose other end the embedding
 * worker serves (vectors go worker to worker); the embedding worker starts the first time a chunk worker needs it;
 * if it dies, the chunk worker gets a fresh port and what waited on the old one fails with the reason.
 */
export function createClients(options: Omit<ChunkClientOptions, 'embedPort' | 'onEmbedderNeeded'> = {}): { chunks: ChunkClient; embed: EmbedClient } {
  const embed = createEmbedClient();
  const chunks = createChunkClient({ ...options, embedPort: () => embed.port(), onEmbedderNeeded: () => embed.ensure() });
  return { chunks, embed };
}
