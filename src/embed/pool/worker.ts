import { parentPort, workerData } from 'node:worker_threads';
import { createEmbedder } from '../index';
import type { CreateEmbedderOptions } from '../types';

/**
 * One worker of the Node embedding pool (pool.ts): loads the model once, then embeds each batch it is sent and
 * answers with the vectors packed in one transferred Float32Array.
 */

interface Request {
  id: number;
  texts: string[];
}

const port = parentPort!;
const ready = createEmbedder(workerData as CreateEmbedderOptions);
ready.then(
  (e) => port.postMessage({ loaded: { dims: e.info.dims } }),
  (error: unknown) => port.postMessage({ failed: error instanceof Error ? error.message : String(error) }),
);

port.on('message', async ({ id, texts }: Request) => {
  try {
    const embedder = await ready;
    const vectors = await embedder.embed(texts);
    const dims = vectors[0]?.length ?? embedder.info.dims;
    const packed = new Float32Array(vectors.length * dims);
    vectors.forEach((v, i) => packed.set(v, i * dims));
    port.postMessage({ id, packed, dims }, [packed.buffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
