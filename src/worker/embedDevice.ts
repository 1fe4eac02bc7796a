import type { Embedder } from '../embed/types';

/**
 * Where the page's embedding worker runs a hub model or a picked model folder: WebGPU when the browser gives an
 * adapter, else onnxruntime-web's WASM (threaded where the page is cross-origin isolated). The built-in model never
 * comes here (a table lookup in JavaScript). The choice is a pure function of what the probe found, and whatever
 * made it WASM is said in one line (the backend badge's title).
 */

/** What asking the browser for a WebGPU adapter gave. */
export type GpuProbe = { kind: 'adapter' } | { kind: 'no-api' } | { kind: 'no-adapter' } | { kind: 'error'; message: string };

export interface DeviceChoice {
  device: 'webgpu' | 'wasm';
  /** Why WASM was chosen (null on WebGPU). */
  reason: string | null;
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

/** navigator.gpu's adapter, asked once; never throws. */
export async function probeWebGpu(gpu: { requestAdapter(): Promise<unknown> } | undefined): Promise<GpuProbe> {
  if (!gpu || typeof gpu.requestAdapter !== 'function') return { kind: 'no-api' };
  try {
    return (await gpu.requestAdapter()) ? { kind: 'adapter' } : { kind: 'no-adapter' };
  } catch (error) {
    return { kind: 'error', message: firstLine(error) };
  }
}

export function chooseEmbedDevice(probe: GpuProbe): DeviceChoice {
  switch (probe.kind) {
    case 'adapter':
      return { device: 'webgpu', reason: null };
    case 'no-api':
      return { device: 'wasm', reason: 'This browser offers no WebGPU' };
    case 'no-adapter':
      return { device: 'wasm', reason: 'WebGPU found no GPU adapter' };
    case 'error':
      return { device: 'wasm', reason: `WebGPU's adapter request failed (${probe.message || 'no reason given'})` };
  }
}

/**
 * Loads on the chosen device; a WebGPU load that fails (an unsupported operator, a lost device, no shader support)
 * is retried on WASM, with the reason. `note` is null on WebGPU.
 */
export async function loadOnDevice(choice: DeviceChoice, load: (device: 'webgpu' | 'wasm') => Promise<Embedder>): Promise<{ embedder: Embedder; note: string | null }> {
  if (choice.device === 'wasm') return { embedder: await load('wasm'), note: choice.reason };
  try {
    return { embedder: await load('webgpu'), note: null };
  } catch (error) {
    return { embedder: await load('wasm'), note: `The model failed to load on WebGPU (${firstLine(error)})` };
  }
}
