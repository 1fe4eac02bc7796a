/// <reference types="vite/client" />
import type { LoadWasm } from '../core/types';
// The code strategy's wasm files ship with the app as assets (Vite `?url`): no CDN, and they work offline once the
// page is cached. Same files as the Node loader (src/node/loadWasm.ts) reads from node_modules.
import runtimeUrl from 'web-tree-sitter/web-tree-sitter.wasm?url';
import cUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-c.wasm?url';
import cppUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-cpp.wasm?url';
import goUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-go.wasm?url';
import javaUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-java.wasm?url';
import javascriptUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-javascript.wasm?url';
import pythonUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-python.wasm?url';
import rustUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-rust.wasm?url';
import tsxUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-tsx.wasm?url';
import typescriptUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-typescript.wasm?url';

/** File name (as core asks for it) → the asset's URL. Must list every name in CODE_WASM_FILES. */
export const WASM_URLS: Record<string, string> = {
  'web-tree-sitter.wasm': runtimeUrl,
  'tree-sitter-c.wasm': cUrl,
  'tree-sitter-cpp.wasm': cppUrl,
  'tree-sitter-go.wasm': goUrl,
  'tree-sitter-java.wasm': javaUrl,
  'tree-sitter-javascript.wasm': javascriptUrl,
  'tree-sitter-python.wasm': pythonUrl,
  'tree-sitter-rust.wasm': rustUrl,
  'tree-sitter-tsx.wasm': tsxUrl,
  'tree-sitter-typescript.wasm': typescriptUrl,
};

/** Fetches a bundled wasm file by name (each is fetched once: core keeps the loaded runtime and grammars). */
export const workerLoadWasm: LoadWasm = async (name) => {
  const url = WASM_URLS[name];
  if (!url) throw new Error(`unknown wasm file "${name}"`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${name} (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
};
