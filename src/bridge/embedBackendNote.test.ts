import { afterEach, describe, expect, it } from 'vitest';
import { topicVector, TOPIC_DOC as doc } from '../core/semantic/fixtures/topics';
import type { Embedder } from '../embed/types';
import { serveChunkWorker } from '../worker/chunkService';
import { chooseEmbedDevice, loadOnDevice } from '../worker/embedDevice';
import { serveEmbedWorker } from '../worker/embedService';
import { clearMemoryCache } from '../worker/embeddingCache';
import { inProcessWorker } from '../worker/inProcess';
import { ChunkClient } from './chunkClient';
import { EmbedClient } from './embedClient';

/**
 * Why a hub model runs on WASM reaches the page (the backend badge's title): the real clients and worker services,
 * each "worker" a channel in this process, the device chosen by embedDevice.ts as embed.worker.ts does. Only the model
 * is a stand-in (topic vectors), and its WebGPU load fails as one without a GPU would.
 */

const open: { close(): void }[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
  clearMemoryCache();
});

const topics = (backend: 'webgpu' | 'wasm'): Embedder => ({
  info: { id: 'Xenova/topics', label: 'Topics', dims: 3, maxTokens: 512, backend },
  embed: async (texts) => texts.map(topicVector),
  tokenize: () => [],
  embedTokens: async () => ({ tokens: [], vectors: [] }),
  dispose: async () => {},
});

function setup() {
  const notes = new WeakMap<Embedder, string>();
  const worker = (serve: Parameters<typeof inProcessWorker>[0]) => {
    const w = inProcessWorker(serve);
    open.push({ close: () => w.terminate() });
    return w;
  };
  const embed = new EmbedClient(
    () =>
      worker((end) =>
        serveEmbedWorker(end, {
          threads: 2,
          isolated: true,
          noteFor: (e) => notes.get(e),
          async load() {
            const failingGpu = async (device: 'webgpu' | 'wasm') => (device === 'webgpu' ? Promise.reject(new Error('no shader-f16')) : topics(device));
            const { embedder, note } = await loadOnDevice(chooseEmbedDevice({ kind: 'adapter' }), failingGpu);
            if (note) notes.set(embedder, note);
            return embedder;
          },
        }),
      ),
  );
  const chunks = new ChunkClient(() => worker((end) => serveChunkWorker(end)), {
    restartAfterMs: 5_000,
    embedPort: () => {
      const port = embed.port();
      open.push(port);
      return port;
    },
    onEmbedderNeeded: () => embed.ensure(),
  });
  open.push({ close: () => chunks.dispose() });
  chunks.setDocument(1, doc);
  return { chunks, embed };
}

describe('the backend badge learns why a hub model runs on WASM', () => {
  it('a WebGPU load that fails falls back to WASM, and the reason comes with the backend and the chunks', async () => {
    const { chunks, embed } = setup();
    const result = await chunks.chunk({ strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5, embedder: 'Xenova/topics' });
    expect(result.semantic!.embedder).toMatchObject({ backend: 'wasm', threads: 2, note: 'The model failed to load on WebGPU (no shader-f16)' });
    await expect.poll(() => embed.backend).toMatchObject({ backend: 'wasm', threads: 2, isolated: true, note: 'The model failed to load on WebGPU (no shader-f16)' });
  });
});
