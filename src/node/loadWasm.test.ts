import { describe, expect, it } from 'vitest';
import { CODE_WASM_FILES } from '../core/strategies/code/languages';
import { nodeLoadWasm } from './loadWasm';

describe('nodeLoadWasm', () => {
  it('reads every wasm file the code strategy asks for from node_modules', async () => {
    for (const name of CODE_WASM_FILES) {
      const bytes = await nodeLoadWasm(name);
      // "\0asm": a WebAssembly module.
      expect([...bytes.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
    }
  });

  it('refuses names that are not wasm files of the code strategy', async () => {
    await expect(nodeLoadWasm('../package.json')).rejects.toThrow(/unknown wasm file/);
    await expect(nodeLoadWasm('tree-sitter-cobol.wasm')).rejects.toThrow();
  });
});
