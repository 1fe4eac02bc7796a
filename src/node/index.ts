/**
 * The `chunkscope` library in Node: the engine (src/core) with the Node host filled in, so `chunk()` works for
 * every strategy without hooks — the code strategy's tree-sitter wasm files are read from node_modules.
 */
import { chunk as coreChunk, type ChunkHooks } from '../core/index';
import type { Chunk, ChunkOptions } from '../core/types';
import { nodeLoadWasm } from './loadWasm';

export * from '../core/index';
export { nodeLoadWasm };

/** core's chunk(), with `hooks.loadWasm` defaulting to the Node loader. */
export function chunk(text: string, options: ChunkOptions = {}, hooks: ChunkHooks = {}): Promise<Chunk[]> {
  return coreChunk(text, options, { ...hooks, loadWasm: hooks.loadWasm ?? nodeLoadWasm });
}
