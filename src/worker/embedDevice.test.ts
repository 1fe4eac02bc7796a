import { describe, expect, it } from 'vitest';
import type { Embedder } from '../embed/types';
import { chooseEmbedDevice, loadOnDevice, probeWebGpu } from './embedDevice';

/** An embedder that only says which device it was loaded on (the load function is what is under test). */
const on = (backend: 'webgpu' | 'wasm'): Embedder => ({
  info: { id: 'm', label: 'm', dims: 1, maxTokens: 8, backend },
  embed: async (texts) => texts.map(() => new Float32Array(1)),
  tokenize: () => [],
  embedTokens: async () => ({ tokens: [], vectors: [] }),
  dispose: async () => {},
});

describe('the embedding device for hub models and picked folders', () => {
  it('probes navigator.gpu without ever throwing', async () => {
    expect(await probeWebGpu(undefined)).toEqual({ kind: 'no-api' });
    expect(await probeWebGpu({ requestAdapter: async () => ({}) })).toEqual({ kind: 'adapter' });
    expect(await probeWebGpu({ requestAdapter: async () => null })).toEqual({ kind: 'no-adapter' });
    expect(await probeWebGpu({ requestAdapter: async () => Promise.reject(new Error('GPU process crashed\nat line 2')) })).toEqual({ kind: 'error', message: 'GPU process crashed' });
    expect(await probeWebGpu({} as never)).toEqual({ kind: 'no-api' });
  });

  it('chooses WebGPU only with an adapter, and says why otherwise', () => {
    expect(chooseEmbedDevice({ kind: 'adapter' })).toEqual({ device: 'webgpu', reason: null });
    expect(chooseEmbedDevice({ kind: 'no-api' })).toEqual({ device: 'wasm', reason: 'This browser offers no WebGPU' });
    expect(chooseEmbedDevice({ kind: 'no-adapter' })).toEqual({ device: 'wasm', reason: 'WebGPU found no GPU adapter' });
    expect(chooseEmbedDevice({ kind: 'error', message: 'denied' }).reason).toBe("WebGPU's adapter request failed (denied)");
  });

  it('falls back to WASM when the model fails on WebGPU, with the reason in one line', async () => {
    const tried: string[] = [];
    const load = async (device: 'webgpu' | 'wasm') => {
      tried.push(device);
      if (device === 'webgpu') throw new Error('Unsupported operator: Gather\n    at session.run');
      return on(device);
    };
    const { embedder, note } = await loadOnDevice({ device: 'webgpu', reason: null }, load);
    expect(tried).toEqual(['webgpu', 'wasm']);
    expect(embedder.info.backend).toBe('wasm');
    expect(note).toBe('The model failed to load on WebGPU (Unsupported operator: Gather)');
  });

  it('loads once on the device chosen when nothing fails', async () => {
    const tried: string[] = [];
    const load = async (device: 'webgpu' | 'wasm') => (tried.push(device), on(device));
    expect(await loadOnDevice({ device: 'webgpu', reason: null }, load)).toMatchObject({ note: null });
    expect((await loadOnDevice(chooseEmbedDevice({ kind: 'no-adapter' }), load)).note).toBe('WebGPU found no GPU adapter');
    expect(tried).toEqual(['webgpu', 'wasm']);
  });

  it('passes on a WASM failure (nothing left to fall back to on this path)', async () => {
    await expect(loadOnDevice({ device: 'wasm', reason: 'x' }, async () => Promise.reject(new Error('no model')))).rejects.toThrow('no model');
  });
});
