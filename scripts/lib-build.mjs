// How the library and CLI are bundled (dist/lib), shared by scripts/build-lib.mjs and the benchmarks that bundle the
// CLI themselves (bench/cliBundle.ts): ESM for Node 20, split into shared chunks, these packages left external. js-tiktoken, so its rank files load lazily, one encoding at a
// time; @huggingface/transformers and onnxruntime, which load native bindings and wasm relative to their packages.
// web-tree-sitter, pdfjs-dist and mammoth stay external as well: they load their own wasm/worker files (tree-sitter's
// grammars are read from @repomix/tree-sitter-wasms by src/node/loadWasm.ts) and are needed only for code/PDF/DOCX.
export const LIB_EXTERNALS = [
  'js-tiktoken',
  'js-tiktoken/*',
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-web',
  'onnxruntime-common',
  'web-tree-sitter',
  'pdfjs-dist',
  'pdfjs-dist/*',
  'mammoth',
  // LanceDB (--to / --index lancedb:DIR) loads its native binding from its own package.
  '@lancedb/lancedb',
  // piscina starts its own worker script from its package folder.
  'piscina',
  'cli-progress',
];

/** esbuild's options for the library's bundle, less its entry points and output folder. */
export const LIB_BUILD_OPTIONS = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: LIB_EXTERNALS,
};
