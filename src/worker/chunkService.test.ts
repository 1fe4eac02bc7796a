import { afterEach, describe, expect, it } from 'vitest';
import { detectLanguageWindows } from '../core/languageWindows';
import { multilingual } from '../ui/samples/multilingual';
import { serveChunkWorker } from './chunkService';
import { inProcessWorker, type InProcessWorker } from './inProcess';
import type { ChunkWorkerApi } from './protocol';
import { rpcClient } from './rpc';

let worker: InProcessWorker | null = null;
afterEach(() => worker?.terminate());

function connect() {
  worker = inProcessWorker((end) => serveChunkWorker(end));
  worker.start?.();
  return rpcClient<ChunkWorkerApi>(worker);
}

describe('chunk worker token counts', () => {
  it('carry the document’s language windows, found once and sent whole with every job’s counts', async () => {
    const rpc = connect();
    await rpc.call('document', { version: 1, text: multilingual });
    const expected = detectLanguageWindows(multilingual);
    for (const [jobId, size] of [[1, 200], [2, 400]] as const) {
      await rpc.call('chunk', { jobId, version: 1, options: { strategy: 'recursive', size, overlap: 0, unit: 'chars' } });
      const counts = (await rpc.call('tokens', { jobId }))!;
      // The second job's windows are the memo's, whole: the first answer transferred copies, not the memo's arrays.
      expect(counts.languages).toEqual(expected);
      expect(counts.words).toHaveLength(counts.tokens.length);
    }
  });
});
