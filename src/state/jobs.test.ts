import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChunkClient } from '../bridge/chunkClient';
import { EmbedClient } from '../bridge/embedClient';
import { chunk } from '../core/index';
import { getUnit } from '../core/units/index';
import type { Embedder } from '../embed/types';
import { serveChunkWorker } from '../worker/chunkService';
import { clearMemoryCache } from '../worker/embeddingCache';
import { serveEmbedWorker } from '../worker/embedService';
import { inProcessWorker } from '../worker/inProcess';
import { toChunkOptions } from './chunkOptions';
import { documentFacts, startJobs, type Jobs } from './jobs';
import { showsPreviousDocument } from './selectors';
import { resetStore, useStore } from './store';
import { topicVector, TOPIC_DOC as doc } from '../core/semantic/fixtures/topics';

/** The jobs layer on the real chunk worker service (core's chunk()) and, for semantic, the real embedding service. */


const model = { texts: 0, delayMs: 0 };
const embedder: Embedder = {
  info: { id: 'builtin', label: 'Topics', dims: 3, maxTokens: Infinity, backend: 'wasm' },
  async embed(texts, options) {
    const out: Float32Array[] = [];
    for (const [i, t] of texts.entries()) {
      if (model.delayMs) await new Promise((r) => setTimeout(r, model.delayMs));
      options?.onProgress?.((i + 1) / texts.length);
      out.push(topicVector(t));
      model.texts++;
    }
    return out;
  },
  tokenize: () => [],
  embedTokens: async () => ({ tokens: [], vectors: [] }),
  dispose: async () => {},
};

let jobs: Jobs | null = null;
let clients: { chunks: ChunkClient; embed: EmbedClient } | null = null;

function start(): { chunks: ChunkClient; embed: EmbedClient; jobs: Jobs } {
  const embed = new EmbedClient(() => inProcessWorker((end) => serveEmbedWorker(end, { threads: 1, isolated: false, load: async () => embedder })));
  const chunks = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)), {
    embedPort: () => embed.port(),
    onEmbedderNeeded: () => embed.ensure(),
  });
  clients = { chunks, embed };
  jobs = startJobs({ store: useStore, chunks, embed });
  return { chunks, embed, jobs };
}

beforeEach(() => {
  resetStore();
  clearMemoryCache();
  model.texts = 0;
  model.delayMs = 0;
  useStore.getState().setDocument(doc, { name: null });
});
afterEach(() => {
  jobs?.stop();
  clients?.chunks.dispose();
  jobs = null;
});

const painted = () => useStore.getState().result;

describe('jobs', () => {
  it('paints the chunks core makes for the document and options, and reruns when either changes', async () => {
    const { chunks } = start();
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    const s = useStore.getState();
    const expected = await chunk(doc, toChunkOptions(s.config, documentFacts(s)));
    expect(Array.from(painted()!.starts)).toEqual(expected.map((c) => c.start));

    useStore.getState().setConfig({ size: 40, overlap: 0 });
    await expect.poll(() => painted()?.options.size).toBe(40);
    useStore.getState().setDocument(doc + ' More bread.', { name: null });
    await expect.poll(() => painted()?.text).toBe(doc + ' More bread.');
  });

  it('the chunks shown are marked as the previous document’s from a new document until its own come, not on an edit', async () => {
    const { chunks } = start();
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    const previous = () => showsPreviousDocument(painted(), useStore.getState().documentSerial);
    expect(previous()).toBe(false);

    // Typing in the editor is the same document: its chunks are the current ones, only a moment old.
    useStore.getState().setDocument(doc + ' More.', { origin: 'editor' });
    expect(previous()).toBe(false);
    await expect.poll(() => painted()?.text).toBe(doc + ' More.');

    // A paste over the whole text is a new document: the old chunks stay on screen, marked, until the new ones come.
    useStore.getState().setDocument('A new document. It has two sentences.', { name: null });
    expect(previous()).toBe(true);
    await expect.poll(() => painted()?.text).toBe('A new document. It has two sentences.');
    expect(previous()).toBe(false);
  });

  it('runs nothing for store changes that do not alter the document or the options', async () => {
    const { chunks } = start();
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    const before = chunks.latestJobId;
    useStore.getState().setHoveredGap(3);
    useStore.getState().setNotice('hello');
    useStore.getState().setConfig({ contextWindow: useStore.getState().config.contextWindow + 1000 }); // not an option
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks.latestJobId).toBe(before);
  });

  it('paints only the newest of a burst of changes (a dragged slider)', async () => {
    const { chunks } = start();
    const paintedIds: number[] = [];
    const newestAtPaint: boolean[] = [];
    const unsubscribe = useStore.subscribe((s, prev) => {
      if (s.result && s.result !== prev.result) {
        paintedIds.push(s.result.jobId);
        newestAtPaint.push(s.result.jobId === chunks.latestJobId);
      }
    });
    for (const size of [30, 35, 40, 45, 50]) useStore.getState().setConfig({ size, overlap: 0 });
    await expect.poll(() => painted()?.options.size).toBe(50);
    unsubscribe();
    expect(newestAtPaint.every(Boolean)).toBe(true);
    expect(paintedIds.at(-1)).toBe(chunks.latestJobId);
  });

  it('semantic: token counts follow; a threshold move re-splits without embedding; the curve reaches the store', async () => {
    const { chunks } = start();
    useStore.getState().setConfig({ strategy: 'semantic', buffer: 0, breakpoint: 'absolute', amount: 0.5 });
    await expect.poll(() => painted()?.semantic?.breakpoints.length).toBe(1);
    expect(model.texts).toBe(8);
    await expect.poll(() => useStore.getState().tokens?.jobId, { timeout: 2000 }).toBe(chunks.latestJobId);
    expect(useStore.getState().embedBackend).toMatchObject({ backend: 'wasm', threads: 1 });
    useStore.getState().setConfig({ amount: 0.0001 });
    await expect.poll(() => painted()?.semantic?.threshold).toBe(0.0001);
    expect(model.texts).toBe(8);
    expect(painted()!.semantic!.distances).toHaveLength(7);
  });

  it('token counts come with each chunk’s word count, as the words unit counts the chunk', async () => {
    const { chunks } = start();
    await expect.poll(() => useStore.getState().tokens?.jobId, { timeout: 2000 }).toBe(chunks.latestJobId);
    const { result, tokens } = useStore.getState();
    const words = await getUnit('words');
    expect(Array.from(tokens!.words!)).toEqual(Array.from(result!.starts, (start, i) => words.count(doc.slice(start, result!.ends[i]!))));
    expect(tokens!.words!.some((n) => n > 1)).toBe(true);
  });

  it('token counts wait while the editor is still taking in a large document, and come once it has', async () => {
    useStore.getState().setLoadProgress(0.5);
    const { chunks } = start();
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    // Well past the usual delay: nothing asked for while the editor loads.
    await new Promise((r) => setTimeout(r, 600));
    expect(useStore.getState().tokens).toBeNull();
    useStore.getState().setLoadProgress(null);
    await expect.poll(() => useStore.getState().tokens?.jobId, { timeout: 2000 }).toBe(chunks.latestJobId);
  });

  it('cancelling the embedding keeps the last good result and says so', async () => {
    const { chunks } = start();
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    const before = painted();
    model.delayMs = 30;
    useStore.getState().setConfig({ strategy: 'semantic' });
    await expect.poll(() => useStore.getState().embedProgress?.stage).toBe('embedding');
    jobs!.cancelEmbedding();
    await expect.poll(() => useStore.getState().notice).toMatch(/cancelled/i);
    expect(painted()).toBe(before);
    expect(useStore.getState().embedProgress).toBeNull();
    expect(useStore.getState().running).toBe(false);
  });
});

describe('jobs: the first sample built ahead', () => {
  /** A lazy client on the real worker service, counting the workers it starts; the worker starts when `go()` is called. */
  async function startAhead(text: string) {
    const { chunkAhead } = await import('../worker/chunkAhead');
    useStore.getState().setDocument(text, { name: 'handbook.md' });
    const s = useStore.getState();
    const ahead = await chunkAhead(FIRST_TEXT, toChunkOptions(s.config, documentFacts({ docName: 'handbook.md', pageStarts: null })));
    let workers = 0;
    const chunks = new ChunkClient(
      () => {
        workers++;
        return inProcessWorker((end) => serveChunkWorker(end));
      },
      { lazy: true },
    );
    let go: (() => void) | null = null;
    clients = { chunks, embed: new EmbedClient(() => inProcessWorker(() => {})) };
    jobs = startJobs({ store: useStore, chunks, ahead, afterPaint: (_store, _jobId, start) => ((go = start), () => (go = null)) });
    return { chunks, workers: () => workers, go: () => go?.() };
  }
  const FIRST_TEXT = `# Handbook\n\n${'Leave is booked in the portal. Ask your manager first. '.repeat(60)}`;

  it('paints them with no worker; the worker, started after the paint, answers the same chunks, which replace them', async () => {
    const { chunks, workers, go } = await startAhead(FIRST_TEXT);
    const first = painted()!;
    expect(first.jobId).toBe(chunks.latestJobId);
    expect(workers()).toBe(0);
    expect(chunks.started).toBe(false);
    const expected = await chunk(FIRST_TEXT, first.options);
    expect(Array.from(first.starts)).toEqual(expected.map((c) => c.start));
    go();
    expect(workers()).toBe(1);
    await expect.poll(() => painted()?.jobId).toBeGreaterThan(first.jobId);
    const replaced = painted()!;
    expect(Array.from(replaced.starts)).toEqual(Array.from(first.starts));
    expect(Array.from(replaced.ends)).toEqual(Array.from(first.ends));
    expect(replaced.stats).toEqual(first.stats);
    // The worker's job brings the token counts the built-ahead answer could not.
    await expect.poll(() => useStore.getState().tokens?.jobId, { timeout: 5000 }).toBe(replaced.jobId);
  });

  it('a slider move before the worker started runs its own job, and the late start asks for nothing more', async () => {
    const { chunks, go } = await startAhead(FIRST_TEXT);
    const first = painted()!;
    useStore.getState().setConfig({ size: 300, overlap: 0 });
    await expect.poll(() => painted()?.options.size).toBe(300);
    const moved = painted()!;
    expect(Array.from(moved.starts)).toEqual((await chunk(FIRST_TEXT, moved.options)).map((c) => c.start));
    expect(moved.jobId).toBeGreaterThan(first.jobId);
    go();
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks.latestJobId).toBe(moved.jobId);
  });

  it('another document (or other options) never uses them: the worker runs the first job', async () => {
    const { chunks, workers } = await startAhead(`${FIRST_TEXT}.`);
    expect(painted()).toBeNull();
    expect(workers()).toBe(1);
    await expect.poll(() => painted()?.jobId).toBe(chunks.latestJobId);
    expect(painted()!.text).toBe(`${FIRST_TEXT}.`);
  });
});
