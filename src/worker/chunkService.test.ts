import { afterEach, describe, expect, it } from 'vitest';
import { orphanBits } from '../core/describe';
import { chunk } from '../core/index';
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

  it('a new document’s orphan flags come with the token counts; every later job on it carries its own at once', async () => {
    const rpc = connect();
    // A text no other test segments (the sentence edges are kept per document in core's cache).
    const text = multilingual + '\n\nOrphans, flagged once per document. Then at once.';
    await rpc.call('document', { version: 1, text });
    const options = (size: number) => ({ strategy: 'recursive', size, overlap: 0, unit: 'chars' }) as const;
    const expected = async (size: number) => orphanBits(text, await chunk(text, options(size)));
    const first = await rpc.call('chunk', { jobId: 1, version: 1, options: options(120) });
    expect(first.orphans).toBeUndefined();
    const counts = (await rpc.call('tokens', { jobId: 1 }))!;
    expect(Array.from(counts.orphans!)).toEqual(Array.from(await expected(120)));
    expect(counts.orphans!.some((bits) => bits !== 0)).toBe(true);
    const second = await rpc.call('chunk', { jobId: 2, version: 1, options: options(300) });
    expect(Array.from(second.orphans!)).toEqual(Array.from(await expected(300)));
    expect((await rpc.call('tokens', { jobId: 2 }))!.orphans).toBeUndefined();
  });
});
