import { describe, expect, it } from 'vitest';
import { CODE_WASM_FILES } from '../core/strategies/code/languages';
import { WASM_URLS } from './loadWasm';

describe('workerLoadWasm', () => {
  it('bundles a URL for every wasm file the code strategy asks for, and no other', () => {
    expect(Object.keys(WASM_URLS).sort()).toEqual([...CODE_WASM_FILES].sort());
    // Vite turns each `?url` import into an asset URL of the app itself (never a CDN).
    for (const url of Object.values(WASM_URLS)) expect(url).toMatch(/\.wasm$/);
  });
});
