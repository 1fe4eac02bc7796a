import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { LoadWasm } from '../core/types';

/**
 * The code strategy's wasm files in Node, read from the installed packages: the parser runtime from
 * web-tree-sitter, the grammars from @repomix/tree-sitter-wasms. Resolved from this module's own location, so it
 * works from src/ (tests, tsx) and from the bundle in dist/lib alike, wherever npm put the packages.
 */
const requireHere = createRequire(import.meta.url);

const WASM_MODULES: Record<string, string> = { 'web-tree-sitter.wasm': 'web-tree-sitter/web-tree-sitter.wasm' };
const GRAMMAR_FILE = /^tree-sitter-[a-z0-9_]+\.wasm$/;

/** Module specifier of a wasm file by name; only the runtime and grammar file names are accepted. */
function wasmModulePath(name: string): string {
  const known = WASM_MODULES[name];
  if (known) return known;
  if (GRAMMAR_FILE.test(name)) return `@repomix/tree-sitter-wasms/out/${name}`;
  throw new Error(`unknown wasm file "${name}"`);
}

/** Reads the file on each call: core keeps the loaded runtime and grammars, so each is asked for once per process. */
export const nodeLoadWasm: LoadWasm = async (name) => {
  const buffer = await readFile(requireHere.resolve(wasmModulePath(name)));
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};
