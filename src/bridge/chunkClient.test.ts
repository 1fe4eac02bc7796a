import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChunkWorkerResult } from '../worker/protocol';
import { ChunkClient, ChunkJobError, DOCUMENT_PART_CHARS, StaleJobError, type WorkerLike } from './chunkClient';

/** A request as the test reads it: the rpc method as `type`, with its input's fields. */
type Sent = { type: string; jobId?: number; [key: string]: unknown };
/** What the test answers, as the real worker would: a chunk job's result or failure (by job id). */
type Reply =
  | ({ type: 'result' } & ChunkWorkerResult)
  | { type: 'error'; jobId: number; message: string; field?: string; invalidOptions: boolean };

/** A stand-in worker that records what it is sent (rpc calls, decoded); the test answers as the real worker would. */
class ScriptedWorker implements WorkerLike {
  sent: Sent[] = [];
  terminated = false;
  onerror: ((event: ErrorEvent) => void) | null = null;
  private listeners = new Set<(event: MessageEvent) => void>();
  private calls: { id: number; method: string; input: Record<string, unknown> }[] = [];
  addEventListener(_type: 'message', l: (event: MessageEvent) => void) {
    this.listeners.add(l);
  }
  removeEventListener(_type: 'message', l: (event: MessageEvent) => void) {
    this.listeners.delete(l);
  }
  postMessage(message: { rpc: string; id: number; method: string; input: Record<string, unknown> }) {
    if (message.rpc !== 'call') return;
    this.calls.push(message);
    this.sent.push({ type: message.method, ...message.input });
  }
  terminate() {
    this.terminated = true;
  }
  private answer(data: unknown) {
    for (const l of this.listeners) l({ data } as MessageEvent);
  }
  reply(message: Reply) {
    const call = this.calls.find((c) => c.method === 'chunk' && c.input.jobId === message.jobId);
    if (!call) return;
    if (message.type === 'result') {
      const { type: _type, ...value } = message;
      this.answer({ rpc: 'ok', id: call.id, value });
    } else {
      const data = { invalidOptions: message.invalidOptions, ...(message.field ? { field: message.field } : {}) };
      this.answer({ rpc: 'err', id: call.id, error: { name: 'ChunkJobFailure', message: message.message, data } });
    }
  }
  chunkJobs() {
    return this.sent.filter((m) => m.type === 'chunk').map((m) => m.jobId);
  }
}

function result(jobId: number, version = 1): Reply {
  return {
    type: 'result',
    jobId,
    version,
    starts: Int32Array.of(0),
    ends: Int32Array.of(3),
    sizes: Float64Array.of(3),
    overlaps: new Int32Array(0),
    oversize: new Uint8Array(1),
    contentDiffers: new Uint8Array(1),
    stats: { count: 1, min: 3, median: 3, mean: 3, max: 3, overLimit: 0 },
    limit: 10,
    unit: 'chars',
    elapsedMs: 1,
  };
}

let clock = 0;
let workers: ScriptedWorker[] = [];
const make = () => {
  const w = new ScriptedWorker();
  workers.push(w);
  return w;
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  workers = [];
});
afterEach(() => vi.useRealTimers());

describe('ChunkClient', () => {
  it('runs one job at a time and only the newest request gets a result', async () => {
    const client = new ChunkClient(make, { restartAfterMs: 1000, now: () => clock });
    client.setDocument(1, 'abc');
    const first = client.chunk({ size: 10 });
    const second = client.chunk({ size: 11 });
    const third = client.chunk({ size: 12 });
    const w = workers[0]!;
    expect(w.chunkJobs()).toEqual([1]); // 2 and 3 wait; 2 is already superseded by 3
    await expect(second).rejects.toBeInstanceOf(StaleJobError);

    w.reply(result(1)); // job 1 finishes, but a newer request is waiting: never delivered
    await expect(first).rejects.toBeInstanceOf(StaleJobError);
    expect(w.chunkJobs()).toEqual([1, 3]);

    w.reply(result(3));
    await expect(third).resolves.toMatchObject({ jobId: 3 });
  });

  it('ignores an answer for a job it already gave up on', async () => {
    const client = new ChunkClient(make, { restartAfterMs: 1000, now: () => clock });
    const controller = new AbortController();
    const job = client.chunk({ size: 10 }, { signal: controller.signal });
    controller.abort();
    await expect(job).rejects.toBeInstanceOf(StaleJobError);
    workers[0]!.reply(result(1));
    const next = client.chunk({ size: 20 });
    workers[0]!.reply(result(2));
    await expect(next).resolves.toMatchObject({ jobId: 2 });
  });

  it('kills a runaway job by restarting the worker, then runs the newest request on the document', async () => {
    const client = new ChunkClient(make, { restartAfterMs: 250, now: () => clock });
    client.setDocument(7, 'the document');
    const slow = client.chunk({ size: 10 });
    clock = 100;
    const fresh = client.chunk({ size: 20 });
    expect(workers).toHaveLength(1);
    clock = 260;
    vi.advanceTimersByTime(200);
    await expect(slow).rejects.toBeInstanceOf(StaleJobError);
    expect(workers[0]!.terminated).toBe(true);
    expect(client.restarts).toBe(1);
    const w2 = workers[1]!;
    expect(w2.sent[0]).toEqual({ type: 'document', version: 7, text: 'the document' });
    expect(w2.chunkJobs()).toEqual([2]);
    w2.reply(result(2, 7));
    await expect(fresh).resolves.toMatchObject({ jobId: 2, version: 7 });
  });

  it('reports invalid options with the engine message', async () => {
    const client = new ChunkClient(make, { now: () => clock });
    const job = client.chunk({ size: 10, overlap: 20 });
    workers[0]!.reply({ type: 'error', jobId: 1, message: 'overlap (20) must be smaller than size (10)', field: 'overlap', invalidOptions: true });
    const error = await job.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkJobError);
    expect(error).toMatchObject({ invalidOptions: true, field: 'overlap', message: 'overlap (20) must be smaller than size (10)' });
  });

  it('a crashed worker is replaced and the failure reported', async () => {
    const client = new ChunkClient(make, { now: () => clock });
    client.setDocument(1, 'x');
    const job = client.chunk({});
    workers[0]!.onerror?.({ message: 'boom', preventDefault() {} } as ErrorEvent);
    await expect(job).rejects.toThrow(/boom/);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.sent[0]).toMatchObject({ type: 'document', version: 1 });
  });

  it('sends a long document in parts, one per task, and posts a job after the last part', async () => {
    const client = new ChunkClient(make, { now: () => clock });
    const text = 'ab'.repeat(DOCUMENT_PART_CHARS) + 'tail';
    client.setDocument(3, text);
    const job = client.chunk({ size: 10 });
    const w = workers[0]!;
    const parts = () => w.sent.filter((m) => m.type === 'document').map((m) => [m.version, (m.text as string).length, m.more]);
    expect(parts()).toEqual([[3, DOCUMENT_PART_CHARS, true]]);
    expect(w.chunkJobs()).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(parts()).toHaveLength(2);
    expect(w.chunkJobs()).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(parts()).toEqual([[3, DOCUMENT_PART_CHARS, true], [3, DOCUMENT_PART_CHARS, true], [3, 4, undefined]]);
    expect(w.sent.filter((m) => m.type === 'document').map((m) => m.text).join('')).toBe(text);
    expect(w.chunkJobs()).toEqual([1]);
    w.reply(result(1, 3));
    await expect(job).resolves.toMatchObject({ jobId: 1, version: 3 });
  });

  it('a newer job replaces one still waiting for the document; a newer document replaces one still being sent', async () => {
    const client = new ChunkClient(make, { now: () => clock });
    client.setDocument(1, 'x'.repeat(DOCUMENT_PART_CHARS + 1));
    const first = client.chunk({ size: 10 });
    const second = client.chunk({ size: 11 });
    await expect(first).rejects.toBeInstanceOf(StaleJobError);
    client.setDocument(2, 'short');
    vi.runAllTimers();
    const w = workers[0]!;
    expect(w.sent.filter((m) => m.type === 'document').map((m) => [m.version, (m.text as string).length, m.more])).toEqual([
      [1, DOCUMENT_PART_CHARS, true],
      [2, 5, undefined],
    ]);
    expect(w.chunkJobs()).toEqual([2]);
    w.reply(result(2, 1));
    await expect(second).resolves.toMatchObject({ jobId: 2 });
  });
  it('lazy: starts no worker until a call needs one; then the worker gets the document before the job', async () => {
    const client = new ChunkClient(make, { restartAfterMs: 1000, now: () => clock, lazy: true });
    client.setDocument(3, 'the document');
    const reserved = client.reserveJobId();
    expect(client.latestJobId).toBe(reserved);
    expect(workers).toHaveLength(0);
    expect(client.started).toBe(false);
    const job = client.chunk({ size: 10 });
    expect(workers).toHaveLength(1);
    expect(workers[0]!.sent.map((m) => m.type)).toEqual(['document', 'chunk']);
    expect(workers[0]!.sent[0]).toMatchObject({ version: 3, text: 'the document' });
    expect(workers[0]!.chunkJobs()).toEqual([reserved + 1]);
    workers[0]!.reply(result(reserved + 1, 3));
    await expect(job).resolves.toMatchObject({ jobId: reserved + 1 });
    client.start();
    expect(workers).toHaveLength(1);
    client.dispose();
  });

  it('lazy: a long document restored before the worker starts reaches it whole before the first job (and an export)', async () => {
    const client = new ChunkClient(make, { now: () => clock, lazy: true });
    const text = 'ab'.repeat(DOCUMENT_PART_CHARS) + 'tail';
    client.setDocument(4, text);
    const job = client.chunk({ size: 10 });
    const w = workers[0]!;
    const documentText = () => w.sent.filter((m) => m.type === 'document').map((m) => m.text).join('');
    expect(w.chunkJobs()).toEqual([]);
    vi.runAllTimers();
    expect(documentText()).toBe(text);
    expect(w.sent.map((m) => m.type).lastIndexOf('document')).toBeLessThan(w.sent.findIndex((m) => m.type === 'chunk'));
    w.reply(result(1, 4));
    await expect(job).resolves.toMatchObject({ jobId: 1, version: 4 });

    const exporting = new ChunkClient(make, { now: () => clock, lazy: true });
    exporting.setDocument(5, text);
    void exporting.exportChunks(1, 5, { size: 10 }, 'json').catch(() => {});
    const e = workers[1]!;
    await Promise.resolve();
    expect(e.sent.some((m) => m.type === 'export')).toBe(false);
    vi.runAllTimers();
    await Promise.resolve();
    expect(e.sent.map((m) => m.type).lastIndexOf('document')).toBeLessThan(e.sent.findIndex((m) => m.type === 'export'));
    client.dispose();
    exporting.dispose();
  });

  it('lazy: start() starts the worker with the document; dispose before any start starts none', () => {
    const idle = new ChunkClient(make, { lazy: true });
    idle.dispose();
    expect(workers).toHaveLength(0);
    const client = new ChunkClient(make, { lazy: true });
    client.setDocument(1, 'abc');
    client.start();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.sent).toEqual([{ type: 'document', version: 1, text: 'abc' }]);
  });
});
