import { afterEach, describe, expect, it } from 'vitest';
import { RemoteError, rpcClient, rpcServe, withTransfer, type Endpoint } from './rpc';

interface Api {
  double(input: { n: number }): Promise<number>;
  wait(input: { ms: number }): Promise<string>;
  fail(input: { field: string }): Promise<never>;
  bytes(input: { n: number }): Promise<Float32Array>;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A real MessageChannel (Node has one): the same structured clone and transfer as between workers. */
function connect() {
  const channel = new MessageChannel();
  channels.push(channel);
  const aborted: string[] = [];
  const server = rpcServe<Api>(channel.port2 as unknown as Endpoint, {
    double: ({ n }) => n * 2,
    wait: ({ ms }, { signal }) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(`waited ${ms}`), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          aborted.push(`wait ${ms}`);
          reject(new Error('stopped'));
        });
      }),
    fail: ({ field }) => {
      const error = Object.assign(new Error(`bad ${field}`), { field, invalidOptions: true });
      error.name = 'ChunkOptionsError';
      throw error;
    },
    bytes: ({ n }) => {
      const a = new Float32Array(n).fill(1.5);
      return withTransfer(a, [a.buffer]);
    },
  });
  const events: [string, unknown][] = [];
  const client = rpcClient<Api>(channel.port1 as unknown as Endpoint, (name, data) => events.push([name, data]));
  return { client, server, events, aborted };
}

describe('rpc', () => {
  it('answers each call by id, in any order', async () => {
    const { client } = connect();
    const slow = client.call('wait', { ms: 30 });
    const fast = client.call('double', { n: 21 });
    await expect(fast).resolves.toBe(42);
    await expect(slow).resolves.toBe('waited 30');
    expect(client.pending).toBe(0);
  });

  it('keeps the name, message and fields of a remote error', async () => {
    const { client } = connect();
    const error = await client.call('fail', { field: 'size' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ name: 'ChunkOptionsError', message: 'bad size', data: { field: 'size', invalidOptions: true } });
  });

  it('an aborted call rejects at once and the handler sees its signal abort', async () => {
    const { client, aborted } = connect();
    const controller = new AbortController();
    const call = client.call('wait', { ms: 5_000 }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => aborted).toEqual(['wait 5000']);
    const already = client.call('double', { n: 1 }, { signal: controller.signal });
    await expect(already).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('transfers marked buffers and delivers events', async () => {
    const { client, server, events } = connect();
    const a = await client.call('bytes', { n: 4 });
    expect(Array.from(a)).toEqual([1.5, 1.5, 1.5, 1.5]);
    const sent = new Int32Array([1, 2]);
    server.emit('progress', withTransfer({ jobId: 3, sent }, [sent.buffer]));
    await expect.poll(() => events.length).toBe(1);
    expect(sent.length).toBe(0); // transferred, not copied
    expect(events[0]![0]).toBe('progress');
  });

  it('close() rejects what is pending', async () => {
    const { client } = connect();
    const call = client.call('wait', { ms: 5_000 });
    client.close(new Error('worker restarted'));
    await expect(call).rejects.toThrow('worker restarted');
  });
});
